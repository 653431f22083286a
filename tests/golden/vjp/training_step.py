import numpy as np


def vjp_training_step(params, X, y, cotangent):
    # line 29: err = X @ params["w"] + params["b"] - y
    params_w = params['w']
    matmul_err = X @ params_w
    params_b = params['b']
    err = matmul_err + params_b - y
    # line 30: grad_w = X.T @ err / X.shape[0]
    transpose_grad_w = X.T
    X_length = X.shape[0]
    grad_w = transpose_grad_w @ err / X_length
    # line 31: return {"w": params["w"] - 0.1 * grad_w, "b": params["b"] - 0.1 * np.mean(err)}
    params_w_1 = params['w']
    sub_result = params_w_1 - 0.1 * grad_w
    params_b_1 = params['b']
    sub_result_1 = params_b_1 - 0.1 * err.mean()
    result = {'w': sub_result, 'b': sub_result_1}
    # reverse sweep: adjoints, from the result back
    dparams = {'w': np.zeros_like(params['w']), 'b': 0.0}
    # line 31: return {"w": params["w"] - 0.1 * grad_w, "b": params["b"] - 0.1 * np.mean(err)}
    dsub_result = cotangent['w']
    dsub_result_1 = cotangent['b']
    dparams['b'] += dsub_result_1
    derr = np.full_like(err, -dsub_result_1 * 0.1 / err.size)
    dparams['w'] += dsub_result
    # line 30: grad_w = X.T @ err / X.shape[0]
    derr += X @ (dsub_result * -0.1 / X_length)
    # line 29: err = X @ params["w"] + params["b"] - y
    dparams['b'] += derr.sum()
    dparams['w'] += X.T @ derr
    return result, {'w': dparams['w'], 'b': float(dparams['b'])}
