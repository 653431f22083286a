"""symdiff: source-to-source reverse-mode differentiation for plain Python.

    from symdiff import grad

    @grad
    def f(x, y):
        return x * y + math.sin(x)

    f(2.0, 3.0)      # (df/dx, df/dy)
    print(f.source)  # the generated gradient function
"""

from . import tape
from .api import grad, source, value_and_grad
from .check import CheckReport, check
from .higher import hessian, hvp, jacobian, jvp
from .errors import (InternalError, RecursionCycleError, SourceUnavailableError,
                     SymdiffError, UndefinedNameError, UnknownFunctionError,
                     UnsupportedSyntaxError)
from .markers import custom_grad, defgrad, stop_gradient
from .symbolic import symbolic, symbolic_grad

__all__ = [
    "InternalError", "RecursionCycleError", "SourceUnavailableError", "SymdiffError",
    "UndefinedNameError", "UnknownFunctionError", "UnsupportedSyntaxError",
    "CheckReport", "check", "custom_grad", "defgrad", "grad", "source", "stop_gradient",
    "symbolic", "symbolic_grad", "tape", "value_and_grad", "jvp", "jacobian", "hessian", "hvp",
]
__version__ = "0.1.0"
