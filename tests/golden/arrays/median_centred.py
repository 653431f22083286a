import numpy as np


def grad_median_centred(r):
    # line 60: return np.sum(np.abs(r - centre) ** 1.5) + np.quantile(r, 0.9)
    sub_result = r - np.median(r, axis=0)
    abs_result = np.abs(sub_result)
    quantile_result = np.quantile(r, 0.9)
    # reverse sweep: adjoints, from the result back
    # line 60: return np.sum(np.abs(r - centre) ** 1.5) + np.quantile(r, 0.9)
    dr = 1.0 * np.maximum(1.0 - np.abs(np.argsort(np.argsort(r, axis=None)).reshape(r.shape)
                                       - 0.9 * (r.size - 1)), 0.0)
    dsub_result = 1.5 * np.power(abs_result, 0.5) * np.sign(sub_result)
    dr += dsub_result
    dcentre = -dsub_result.sum(axis=0)
    # line 59: centre = np.median(r, axis=0)
    dr = (dr
          + np.expand_dims(dcentre, 0) * np.maximum(1.0 - np.abs(np.argsort(np.argsort(r,
                                                                                       axis=0),
                                                                            axis=0)
                                                                 - 0.5 * (r.shape[0]
                                                                          - 1)),
                                                    0.0))
    return dr
