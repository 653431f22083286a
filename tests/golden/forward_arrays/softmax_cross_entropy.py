import numpy as np


def jvp_softmax_cross_entropy(W, X, labels, dW):
    # line 30: scores = X @ W
    scores = X @ W
    dscores = X @ dW
    # line 31: scores = scores - np.max(scores, axis=1, keepdims=True)
    array_max_scores = scores.max(axis=1, keepdims=True)
    darray_max_scores = np.sum(dscores * ((scores == array_max_scores) / np.sum(scores == array_max_scores,
                                                                                axis=1,
                                                                                keepdims=True,
                                                                                dtype=scores.dtype)),
                               axis=1, keepdims=True)
    scores_1 = scores - array_max_scores
    dscores_1 = dscores - darray_max_scores
    # line 32: log_p = scores - np.log(np.sum(np.exp(scores), axis=1, keepdims=True))
    exp_log_p = np.exp(scores_1)
    array_sum_log_p = exp_log_p.sum(axis=1, keepdims=True)
    dlog_log_p = np.sum(dscores_1 * exp_log_p, axis=1, keepdims=True) / array_sum_log_p
    log_p = scores_1 - np.log(array_sum_log_p)
    dlog_p = dscores_1 - dlog_log_p
    # line 33: return -np.mean(log_p[np.arange(X.shape[0]), labels])
    X_length = X.shape[0]
    arange_result = np.arange(X_length)
    log_p_part = log_p[arange_result, labels]
    dlog_p_part = dlog_p[arange_result, labels]
    result = -log_p_part.mean()
    dresult = -dlog_p_part.mean()
    return result, dresult
