"""symdiff: source-to-source reverse-mode differentiation for plain Python.

    from symdiff import grad

    @grad
    def f(x, y):
        return x * y + math.sin(x)

    f(2.0, 3.0)      # (df/dx, df/dy)
    print(f.source)  # the generated gradient function
"""

from symdiff import tape
from symdiff.api import grad, source, value_and_grad
from symdiff.backend.travel import serve
from symdiff.checking.compare import CheckReport, check
from symdiff.errors import (
    DecoratorError,
    InternalError,
    RecursionCycleError,
    SourceChangedError,
    SourceUnavailableError,
    SymdiffError,
    UndefinedNameError,
    UnknownFunctionError,
    UnsupportedSyntaxError,
)
from symdiff.higher import hessian, hvp, jacobian, jvp
from symdiff.markers import custom_grad, defgrad, stop_gradient
from symdiff.vjp import vjp

__all__ = [
    "DecoratorError", "InternalError", "RecursionCycleError", "SourceChangedError",
    "SourceUnavailableError", "SymdiffError",
    "UndefinedNameError", "UnknownFunctionError", "UnsupportedSyntaxError",
    "CheckReport", "check", "custom_grad", "defgrad", "grad", "source", "stop_gradient",
    "symbolic", "symbolic_grad", "tape", "value_and_grad", "jvp", "jacobian", "hessian", "hvp",
    "vjp",
]
__version__ = "0.1.0"

serve({"grad": grad, "value_and_grad": value_and_grad, "jvp": jvp, "jacobian": jacobian,
       "hessian": hessian, "hvp": hvp, "vjp": vjp})  # what a pickle by recipe is rebuilt with
del serve


def symbolic(fn, at=None):
    """``fn`` as a sympy expression in its parameters (see ``symdiff.witnesses.symbolic``)."""
    from symdiff.witnesses.symbolic import symbolic as build_expression  # sympy loads here
    return build_expression(fn, at)


def symbolic_grad(fn, wrt=None, at=None):
    """The sympy derivatives of ``fn`` (see ``symdiff.witnesses.symbolic``)."""
    from symdiff.witnesses.symbolic import symbolic_grad as build_derivatives
    return build_derivatives(fn, wrt, at)
