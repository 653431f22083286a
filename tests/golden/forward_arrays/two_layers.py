import numpy as np


def jvp_two_layers(params, X, y, dparams):
    # line 17: hidden = np.tanh(X @ params["W1"] + params["b1"])
    params_W1 = params['W1']
    dparams_W1 = dparams['W1']
    matmul_hidden = X @ params_W1
    dmatmul_hidden = X @ dparams_W1
    params_b1 = params['b1']
    dparams_b1 = dparams['b1']
    hidden = np.tanh(matmul_hidden + params_b1)
    dhidden = (dmatmul_hidden + dparams_b1) * (1.0 - hidden * hidden)
    # line 18: scores = hidden @ params["w2"]
    params_w2 = params['w2']
    dparams_w2 = dparams['w2']
    scores = hidden @ params_w2
    dscores = dhidden @ params_w2 + hidden @ dparams_w2
    # line 19: return np.mean((scores - y) ** 2)
    sub_result = scores - y
    result = np.mean(sub_result ** 2)
    dresult = np.mean(dscores * (2 * sub_result))
    return result, dresult
