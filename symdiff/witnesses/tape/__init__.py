"""The tape engine: a ``Value`` that records its computation, the tape's versions of
``math``'s, numpy's and SciPy's functions, and the running of the user's unchanged code on
Values.  ``symdiff.tape`` is its public name (see there for the conventions it follows).

Expects nothing of symdiff's generator: it states every derivative itself and imports
none of the rules, the IR or the passes, so a wrong rule there shows up as a
disagreement here.  Guarantees the names of ``__all__``, by module:

- ``value``: ``Value``, its operators and ``.backward()``; the recording helpers.
- ``math_functions``, ``numpy_functions``, ``scipy_functions``: the function families,
  each stating its local derivatives; ``polygamma``: the tape's own digamma and trigamma.
- ``stand_ins``: what the user's code sees in place of math, numpy and SciPy;
  ``numpy_stand_ins``: numpy's functions on scalars with numpy's semantics.
- ``running``: copies of the user's functions that compute on Values (``on_values``).
- ``gradients``: ``grad`` and ``value_and_grad``; ``pullbacks``: ``vjp``.
- ``arrays``: ``ArrayValue``, a NumPy array on the tape, and the recording helpers of the
  array modules, which state their own VJPs: ``array_ufuncs`` (elementwise, with
  broadcasting), ``array_reductions``, ``array_linalg``, ``array_shapes`` (indexing,
  joins, ``where``), ``array_arrangements`` (``sort``, ``pad``, ``roll``...);
  ``array_functions``: which NumPy function an ArrayValue reaches, and the refusals.
"""

from symdiff.witnesses.tape.arrays import ArrayValue
from symdiff.witnesses.tape.gradients import grad, value_and_grad
from symdiff.witnesses.tape.math_functions import (
    acos,
    acosh,
    asin,
    asinh,
    atan,
    atan2,
    atanh,
    cbrt,
    ceil,
    copysign,
    cos,
    cosh,
    degrees,
    dist,
    erf,
    erfc,
    exp,
    exp2,
    expm1,
    fabs,
    floor,
    fma,
    fmod,
    frexp,
    fsum,
    gamma,
    hypot,
    ldexp,
    lgamma,
    log,
    log1p,
    log2,
    log10,
    modf,
    nextafter,
    pow,
    prod,
    radians,
    remainder,
    sin,
    sinh,
    sqrt,
    sumprod,
    tan,
    tanh,
)
from symdiff.witnesses.tape.numpy_functions import (
    clip,
    fmax,
    fmin,
    heaviside,
    logaddexp,
    logaddexp2,
    reciprocal,
    relu,
    rint,
    sigmoid,
    sign,
    sinc,
    square,
)
from symdiff.witnesses.tape.pullbacks import vjp
from symdiff.witnesses.tape.running import on_values
from symdiff.witnesses.tape.scipy_functions import (
    digamma,
    expit,
    gammaln,
    log_expit,
    log_ndtr,
    logit,
    ndtr,
    ndtri,
    norm,
    xlog1py,
    xlogy,
    zeta,
)
from symdiff.witnesses.tape.statistics_functions import STATISTICS
from symdiff.witnesses.tape.value import PARTIALS, Value, on_numbers

__all__ = [
    "Value", "ArrayValue", "grad", "value_and_grad", "vjp", "sin", "cos", "tan", "asin", "acos", "atan", "atan2",
    "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "exp", "expm1", "log", "log1p", "log2",
    "log10", "sqrt", "pow", "hypot", "fabs", "erf", "erfc", "floor", "ceil", "fmod", "copysign",
    "degrees", "radians", "cbrt", "exp2", "lgamma", "gamma", "ldexp", "remainder", "nextafter",
    "fsum", "prod", "dist", "sumprod", "fma", "frexp", "modf", "relu", "sigmoid", "square", "sinc",
    "reciprocal", "sign", "rint", "heaviside", "fmax", "fmin", "clip", "logaddexp", "logaddexp2", "expit",
    "log_expit", "logit", "gammaln", "digamma", "xlogy", "xlog1py", "zeta", "ndtr", "log_ndtr",
    "ndtri", "norm",
    "PARTIALS", "on_numbers", "on_values", "STATISTICS",
]
