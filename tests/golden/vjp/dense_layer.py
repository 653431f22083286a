import numpy as np


def vjp_dense_layer(W, b, x, cotangent):
    # line 19: return np.tanh(W @ x + b)
    result = np.tanh(W @ x + b)
    # reverse sweep: adjoints, from the result back
    # line 19: return np.tanh(W @ x + b)
    dadd_result = cotangent * (1.0 - result * result)
    dW = np.outer(dadd_result, x)
    dx = W.T @ dadd_result
    return result, (dW, dadd_result, dx)
