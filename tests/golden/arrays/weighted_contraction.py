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
    dm = np.tensordot(T, dtensordot_result, axes=((0, 1), (0, 1)))
    # line 47: m = np.average(X, axis=0, weights=w)
    dX = np.expand_dims(dm, 0) * np.expand_dims(w, 1) / w.sum()
    dw = np.sum(np.expand_dims(dm, 0) * (X - np.expand_dims(m, 0)), axis=1) / w.sum()
    return dX, dw, dT
