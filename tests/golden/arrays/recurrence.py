import numpy as np


def grad_recurrence(W, U, xs):
    stack = []
    push, pop = stack.append, stack.pop
    # line 23: h = np.zeros(W.shape[0])
    W_length = W.shape[0]
    h = np.zeros((W_length,))
    # line 24: for t in range(xs.shape[0]):
    xs_length = xs.shape[0]
    for t in range(xs_length):
        # line 25: h = np.tanh(W @ h + U @ xs[t])
        matmul_h = W @ h
        xs_t = xs[t]
        push(h)
        h = np.tanh(matmul_h + U @ xs_t)
    # reverse sweep: adjoints, from the result back
    # line 26: return np.sum(h)
    dh = np.full_like(h, 1.0)
    # line 24: for t in range(xs.shape[0]):
    dU = np.zeros_like(U)
    dW = np.zeros_like(W)
    for t in reversed(range(xs_length)):
        # line 25: h = np.tanh(W @ h + U @ xs[t])
        dadd_h = dh * (1.0 - h * h)
        h = pop()
        xs_t = xs[t]
        dU += np.outer(dadd_h, xs_t)
        dW += np.outer(dadd_h, h)
        dh = W.T @ dadd_h
    return dW, dU
