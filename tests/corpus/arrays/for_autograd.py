"""Array functions written for autograd: ``import autograd.numpy as np``, and functions
imported from it by name, read as the NumPy autograd wraps (the gradient symdiff writes
calls NumPy itself).  Empty where autograd is not installed.
"""

from .case import at, batches, classes, normal, signs, spd

try:
    import autograd.numpy as np
    from autograd.numpy import tanh
    from autograd.numpy.linalg import solve
except ImportError:  # (the corpus runs without autograd: these cases are left out)
    np = None


def logistic_regression(w, X, y):
    return np.mean(np.log1p(np.exp(-y * np.dot(X, w))))


def two_layer_network(params, X):
    W1, b1, W2 = params["W1"], params["b1"], params["W2"]
    h = tanh(X @ W1 + b1)
    return np.sum((h @ W2) ** 2) / X.shape[0]


def gaussian_process_fit(K, y):
    alpha = solve(K, y)
    sign, logdet = np.linalg.slogdet(K)
    return 0.5 * np.dot(y, alpha) + 0.5 * logdet


def softmax_cross_entropy(W, X, labels):
    Z = X @ W
    Z = Z - np.max(Z, axis=1, keepdims=True)
    log_p = Z - np.log(np.sum(np.exp(Z), axis=1, keepdims=True))
    return -np.mean(log_p[np.arange(X.shape[0]), labels])


CASES = [] if np is None else [
    at(logistic_regression, *batches(lambda n: (normal("agw", 3), normal(f"agX{n}", n, 3), signs(f"agy{n}", n))),
       wrt="w"),
    at(two_layer_network, *batches(lambda n: ({"W1": normal("agW1", 3, 4), "b1": normal("agb1", 4),
                                               "W2": normal("agW2", 4, 2)}, normal(f"agX2{n}", n, 3))),
       wrt="params"),
    at(gaussian_process_fit, (spd("agK", 3), normal("agy", 3)), (spd("agK", 1), normal("agy", 1)), wrt="K"),
    at(softmax_cross_entropy, *batches(lambda n: (normal("agsW", 3, 4), normal(f"agsX{n}", n, 3),
                                                  classes(f"agsc{n}", n, 4))), wrt="W"),
]
