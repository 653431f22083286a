import numpy as np


def jvp_recurrence(W, U, xs, dW, dU):
    # line 23: h = np.zeros(W.shape[0])
    W_length = W.shape[0]
    h = np.zeros((W_length,))
    dh = np.zeros_like(h)
    # line 24: for t in range(xs.shape[0]):
    xs_length = xs.shape[0]
    for t in range(xs_length):
        # line 25: h = np.tanh(W @ h + U @ xs[t])
        matmul_h = W @ h
        dmatmul_h = dW @ h + W @ dh
        xs_t = xs[t]
        matmul_h_1 = U @ xs_t
        dmatmul_h_1 = dU @ xs_t
        add_h = matmul_h + matmul_h_1
        dadd_h = dmatmul_h + dmatmul_h_1
        h = np.tanh(add_h)
        dh = dadd_h * (1.0 - h * h)
    # line 26: return np.sum(h)
    result = h.sum()
    dresult = dh.sum()
    return result, dresult
