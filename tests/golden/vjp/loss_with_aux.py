import numpy as np


def vjp_loss_with_aux(w, X, y, cotangent):
    # line 23: pred = X @ w
    pred = X @ w
    # line 24: loss = np.mean((pred - y) ** 2)
    sub_loss = pred - y
    # line 25: return loss, pred
    result = np.mean(sub_loss ** 2), pred
    # reverse sweep: adjoints, from the result back
    # line 25: return loss, pred
    dloss = cotangent[0]
    dpred = cotangent[1]
    # line 24: loss = np.mean((pred - y) ** 2)
    dpred = dpred + dloss / sub_loss.size * (2 * sub_loss)
    # line 23: pred = X @ w
    dw = X.T @ dpred
    return result, dw
