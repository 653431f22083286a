import numpy as np


def grad_weighted_contraction(X, w, T):
    # line 47: m = np.average(X, axis=0, weights=w)
    m = np.average(X, axis=0, weights=w)
    # line 48: return np.sum(np.tensordot(T, m, axes=1) ** 2)
    tensordot_result = np.tensordot(T, m, axes=1)
    # reverse sweep: adjoints, from the result back
    # line 48: return np.sum(np.tensordot(T, m, axes=1) ** 2)
    dtensordot_result = 2 * tensordot_result
    dT = np.tensordot(dtensordot_result, m, axes=0)
    # line 47: m = np.average(X, axis=0, weights=w)
    sum_w = w.sum()
    expand_dims_dm = np.expand_dims(np.tensordot(T, dtensordot_result,
                                                 axes=((0, 1), (0, 1))), 0)
    dX = expand_dims_dm * np.expand_dims(w, 1) / sum_w
    dw = np.sum(expand_dims_dm * (X - np.expand_dims(m, 0)), axis=1) / sum_w
    return dX, dw, dT
