import numpy as np


def grad_ranked_rows(X):
    # line 52: order = np.argsort(X, axis=1)
    order = np.argsort(X, axis=1)
    # line 53: first = np.broadcast_to(X[:, :1], X.shape)
    X_part = X[:, :1]
    first = np.broadcast_to(X_part, X.shape)
    # line 54: return np.sum(np.take_along_axis(X, order, axis=1) * np.arange(X.shape[1])) + np.sum(
    take_along_axis_result = np.take_along_axis(X, order, 1)
    X_axis1 = X.shape[1]
    arange_result = np.arange(X_axis1)
    mul_result = take_along_axis_result * arange_result
    sub_result = X - first
    # reverse sweep: adjoints, from the result back
    dX = np.zeros_like(X)
    # line 54: return np.sum(np.take_along_axis(X, order, axis=1) * np.arange(X.shape[1])) + np.sum(
    dsub_result = 2 * sub_result
    dX += dsub_result
    dtake_along_axis_result = np.full_like(mul_result, 1.0) * arange_result
    np.add.at(dX, (np.arange(X.shape[0])[:, None], order),
              dtake_along_axis_result)
    # line 53: first = np.broadcast_to(X[:, :1], X.shape)
    dX[:, :1] += np.sum(-dsub_result, axis=1, keepdims=True)
    return dX
