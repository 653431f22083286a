import numpy as np


def grad_softmax_cross_entropy(W, X, labels):
    # line 30: scores = X @ W
    scores = X @ W
    # line 31: scores = scores - np.max(scores, axis=1, keepdims=True)
    array_max_scores = scores.max(axis=1, keepdims=True)
    scores_1 = scores - array_max_scores
    # line 32: log_p = scores - np.log(np.sum(np.exp(scores), axis=1, keepdims=True))
    exp_log_p = np.exp(scores_1)
    array_sum_log_p = exp_log_p.sum(axis=1, keepdims=True)
    log_p = scores_1 - np.log(array_sum_log_p)
    # line 33: return -np.mean(log_p[np.arange(X.shape[0]), labels])
    X_length = X.shape[0]
    arange_result = np.arange(X_length)
    log_p_part = log_p[arange_result, labels]
    # reverse sweep: adjoints, from the result back
    dlog_p = np.zeros_like(log_p)
    # line 33: return -np.mean(log_p[np.arange(X.shape[0]), labels])
    dlog_p_part = np.full_like(log_p_part, -1.0 / log_p_part.size)
    np.add.at(dlog_p, (arange_result, labels), dlog_p_part)
    # line 32: log_p = scores - np.log(np.sum(np.exp(scores), axis=1, keepdims=True))
    dscores_1 = (dlog_p
                 - dlog_p.sum(axis=1, keepdims=True) / array_sum_log_p * exp_log_p)
    # line 31: scores = scores - np.max(scores, axis=1, keepdims=True)
    dscores = dscores_1
    darray_max_scores = -dscores_1.sum(axis=1, keepdims=True)
    mask_array_max_scores = scores == array_max_scores
    dscores = (dscores
               + darray_max_scores * mask_array_max_scores / np.sum(mask_array_max_scores,
                                                                    axis=1,
                                                                    keepdims=True,
                                                                    dtype=scores.dtype))
    # line 30: scores = X @ W
    dW = X.T @ dscores
    return dW
