import numpy as np


def grad_logistic_loss(w, X, y):
    # line 13: return np.mean(np.log1p(np.exp(-y * (X @ w))))
    neg_result = -y
    exp_result = np.exp(neg_result * (X @ w))
    log1p_result = np.log1p(exp_result)
    result = np.mean(log1p_result)
    # reverse sweep: adjoints, from the result back
    # line 13: return np.mean(np.log1p(np.exp(-y * (X @ w))))
    dlog1p_result = np.full_like(log1p_result, 1.0 / log1p_result.size)
    dw = X.T @ (dlog1p_result / (1.0 + exp_result) * exp_result * neg_result)
    return dw
