import numpy as np


def jvp_masked_squares(pred, y, mask, dpred, dy):
    # line 37: return np.sum(np.where(mask, pred - y, 0.0) ** 2)
    sub_result = pred - y
    dsub_result = dpred - dy
    where_result = np.where(mask, sub_result, 0.0)
    result = np.sum(where_result ** 2)
    dresult = np.sum(np.where(mask, dsub_result, 0.0) * (2 * where_result))
    return result, dresult
