import numpy as np


def grad_masked_squares(pred, y, mask):
    # line 37: return np.sum(np.where(mask, pred - y, 0.0) ** 2)
    where_result = np.where(mask, pred - y, 0.0)
    pow_result = where_result ** 2
    result = np.sum(pow_result)
    # reverse sweep: adjoints, from the result back
    # line 37: return np.sum(np.where(mask, pred - y, 0.0) ** 2)
    dpow_result = np.full_like(pow_result, 1.0)
    dsub_result = np.where(mask, dpow_result * (2 * where_result), 0.0)
    dy = -dsub_result
    return dsub_result, dy
