import numpy as np


def jvp_ranked_rows(X, dX):
    # line 52: order = np.argsort(X, axis=1)
    order = np.argsort(X, axis=1)
    # line 53: first = np.broadcast_to(X[:, :1], X.shape)
    X_part = X[:, :1]
    dX_part = dX[:, :1]
    first = np.broadcast_to(X_part, X.shape)
    dfirst = np.broadcast_to(dX_part, X.shape)
    # line 54: return np.sum(np.take_along_axis(X, order, axis=1) * np.arange(X.shape[1])) + np.sum(
    take_along_axis_result = np.take_along_axis(X, order, 1)
    dtake_along_axis_result = np.take_along_axis(dX, order, 1)
    X_axis1 = X.shape[1]
    arange_result = np.arange(X_axis1)
    mul_result = take_along_axis_result * arange_result
    darray_sum_result = np.sum(dtake_along_axis_result * arange_result)
    sub_result = X - first
    result = mul_result.sum() + np.sum(sub_result ** 2)
    dresult = darray_sum_result + np.sum((dX - dfirst) * (2 * sub_result))
    return result, dresult
