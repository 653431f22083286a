import numpy as np


def jvp_logistic_loss(w, X, y, dw):
    # line 13: return np.mean(np.log1p(np.exp(-y * (X @ w))))
    neg_result = -y
    matmul_result = X @ w
    dmatmul_result = X @ dw
    mul_result = neg_result * matmul_result
    dmul_result = dmatmul_result * neg_result
    exp_result = np.exp(mul_result)
    dexp_result = dmul_result * exp_result
    log1p_result = np.log1p(exp_result)
    dlog1p_result = dexp_result / (1.0 + exp_result)
    result = np.mean(log1p_result)
    dresult = np.mean(dlog1p_result)
    return result, dresult
