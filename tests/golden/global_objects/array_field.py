import numpy as np

# Not bound here: bind these names before this text runs on its own
# (symdiff binds them when it compiles the text).
#   system_W: a ndarray; it is not a module, a function or numbers


def grad_array_field(x):
    # line 261: return np.sum(system.W @ x)
    matmul_result = system_W @ x
    # reverse sweep: adjoints, from the result back
    # line 261: return np.sum(system.W @ x)
    dx = system_W.T @ np.full_like(matmul_result, 1.0)
    return dx
