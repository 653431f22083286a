import numpy as np


def jvp_median_centred(r, dr):
    # line 59: centre = np.median(r, axis=0)
    centre = np.median(r, axis=0)
    dcentre = np.sum(dr * np.maximum(1.0 - np.abs(np.argsort(np.argsort(r,
                                                                        axis=0),
                                                             axis=0)
                                                  - 0.5 * (r.shape[0] - 1)),
                                     0.0), axis=0)
    # line 60: return np.sum(np.abs(r - centre) ** 1.5) + np.quantile(r, 0.9)
    sub_result = r - centre
    abs_result = np.abs(sub_result)
    dpow_result = (dr - dcentre) * np.sign(sub_result) * (1.5 * np.power(abs_result,
                                                                         0.5))
    quantile_result = np.quantile(r, 0.9)
    dquantile_result = np.sum(dr * np.maximum(1.0 - np.abs(np.argsort(np.argsort(r,
                                                                                 axis=None)).reshape(r.shape)
                                                           - 0.9 * (r.size - 1)),
                                              0.0))
    result = np.sum(abs_result ** 1.5) + quantile_result
    dresult = dpow_result.sum() + dquantile_result
    return result, dresult
