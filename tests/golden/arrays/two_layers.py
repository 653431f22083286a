import numpy as np


def grad_two_layers(params, X, y):
    # line 17: hidden = np.tanh(X @ params["W1"] + params["b1"])
    params_W1 = params['W1']
    matmul_hidden = X @ params_W1
    params_b1 = params['b1']
    hidden = np.tanh(matmul_hidden + params_b1)
    # line 18: scores = hidden @ params["w2"]
    params_w2 = params['w2']
    # line 19: return np.mean((scores - y) ** 2)
    sub_result = hidden @ params_w2 - y
    # reverse sweep: adjoints, from the result back
    dparams = {'W1': np.zeros_like(params['W1']),
               'b1': np.zeros_like(params['b1']),
               'w2': np.zeros_like(params['w2'])}
    # line 19: return np.mean((scores - y) ** 2)
    dsub_result = 1.0 / sub_result.size * (2 * sub_result)
    # line 18: scores = hidden @ params["w2"]
    dhidden = np.outer(dsub_result, params_w2)
    dparams['w2'] += hidden.T @ dsub_result
    # line 17: hidden = np.tanh(X @ params["W1"] + params["b1"])
    dadd_hidden = dhidden * (1.0 - hidden * hidden)
    dparams['b1'] += dadd_hidden.sum(axis=0)
    dparams['W1'] += X.T @ dadd_hidden
    return dparams
