import numpy as np


def vjp_loss_with_aux(w, X, y, cotangent):
    # line 23: pred = X @ w
    pred = X @ w
    # line 24: loss = np.mean((pred - y) ** 2)
    sub_loss = pred - y
    pow_loss = sub_loss ** 2
    loss = np.mean(pow_loss)
    # line 25: return loss, pred
    result = loss, pred
    # reverse sweep: adjoints, from the result back
    # line 25: return loss, pred
    dloss = cotangent[0]
    dpred = cotangent[1]
    # line 24: loss = np.mean((pred - y) ** 2)
    dpow_loss = np.full_like(pow_loss, dloss / pow_loss.size)
    dpred = dpred + dpow_loss * (2 * sub_loss)
    # line 23: pred = X @ w
    dw = X.T @ dpred
    return result, dw
