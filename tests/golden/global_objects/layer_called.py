import numpy as np

# Not bound here: bind these names before this text runs on its own
# (symdiff binds them when it compiles the text).
#   model_W: a ndarray; it is not a module, a function or numbers
#   model_b: a ndarray; it is not a module, a function or numbers


def grad_layer_called(x):
    # line 85 (in predict): return np.tanh(self.W @ x + self.b)
    predict_result = np.tanh(model_W @ x + model_b)
    # reverse sweep: adjoints, from the result back
    # line 273: return model(x) + np.sum(x * x)
    dx = 2.0 * x
    # line 85 (in predict): return np.tanh(self.W @ x + self.b)
    dx += model_W.T @ (2 * predict_result * (1.0
                                             - predict_result * predict_result))
    return dx
