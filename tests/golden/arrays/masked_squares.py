import numpy as np


def grad_masked_squares(pred, y, mask):
    # line 37: return np.sum(np.where(mask, pred - y, 0.0) ** 2)
    where_result = np.where(mask, pred - y, 0.0)
    # reverse sweep: adjoints, from the result back
    # line 37: return np.sum(np.where(mask, pred - y, 0.0) ** 2)
    dsub_result = np.where(mask, 2 * where_result, 0.0)
    dy = -dsub_result
    return dsub_result, dy
