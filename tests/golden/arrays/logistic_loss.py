import numpy as np


def grad_logistic_loss(w, X, y):
    # line 13: return np.mean(np.log1p(np.exp(-y * (X @ w))))
    neg_result = -y
    mul_result = neg_result * (X @ w)
    exp_result = np.exp(mul_result)
    # reverse sweep: adjoints, from the result back
    # line 13: return np.mean(np.log1p(np.exp(-y * (X @ w))))
    dw = X.T @ (1.0 / mul_result.size / (1.0 + exp_result) * exp_result * neg_result)
    return dw
