import numpy as np


def jvp_logistic_loss(w, X, y, dw):
    # line 13: return np.mean(np.log1p(np.exp(-y * (X @ w))))
    neg_result = -y
    matmul_result = X @ w
    dmatmul_result = X @ dw
    exp_result = np.exp(neg_result * matmul_result)
    result = np.mean(np.log1p(exp_result))
    dresult = np.mean(dmatmul_result * neg_result * exp_result / (1.0
                                                                  + exp_result))
    return result, dresult
