import numpy as np


def jvp_weighted_contraction(X, w, T, dX, dw, dT):
    # line 47: m = np.average(X, axis=0, weights=w)
    m = np.average(X, axis=0, weights=w)
    dm = (np.average(dX, axis=0, weights=w)
          + np.sum(np.expand_dims(dw, 1) * (X - np.expand_dims(m, 0)), axis=0) / w.sum())
    # line 48: return np.sum(np.tensordot(T, m, axes=1) ** 2)
    tensordot_result = np.tensordot(T, m, axes=1)
    result = np.sum(tensordot_result ** 2)
    dresult = np.sum((np.tensordot(dT, m, axes=1) + np.tensordot(T, dm, axes=1)) * (2 * tensordot_result))
    return result, dresult
