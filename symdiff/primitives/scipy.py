"""SciPy's primitives: ``scipy.special``'s functions and ``scipy.stats.norm``'s methods.

Expects nothing; guarantees one ``Primitive`` each (``RECORDS``).  They are computed by
SciPy as the user's code calls them (``forward`` is only the formula); their partials are
plain ``math``, so generated code needs SciPy only where the user's code does.  ``NORM``
in a partial is the normal distribution as the user's call names it (``norm``,
``st.norm``).  SciPy gives ``nan`` for a scale <= 0, and so do the partials.  Their type rule is one
statement for all (``_scipy``): SciPy returns a NumPy scalar (``np.float64``).
"""

from dataclasses import replace

from symdiff.primitives.record import Spelling, primitive, table, unary
from symdiff.primitives.type_rules import numpy_floats

_PHI = "0.3989422804014327"  # 1 / sqrt(2 pi)
_SQRT_2PI = "2.5066282746310002"
_Z = "((x - loc) / scale)"
_NORM_DOMAIN = ((-3, 3), (-1, 1), (0.5, 2))
_SCALE = "nan for a scale <= 0"


def _norm(method, forward, partials, domain=_NORM_DOMAIN, note=_SCALE, params=("x",)):
    params = params + ("loc", "scale")
    return primitive(f"norm_{method}", forward, partials, domain, note, params=params,
                     defaults=(0.0, 1.0), method=(method,),
                     bridge=f"tape.norm.{method}({', '.join(params)})")


def _scale_guarded(text):
    return f"{text} if scale > 0 else math.nan"  # scipy gives nan for a scale <= 0


_CDF_DX = "NORM.pdf(x, loc, scale)"
_LOGCDF_DX = f"math.exp(-0.5 * {_Z} * {_Z} - out) * {_PHI} / scale"  # never overflows

def _scipy(*records):
    """The records by name, each computing a NumPy scalar, as SciPy does."""
    return table(*(replace(record, result=numpy_floats) for record in records))


RECORDS = _scipy(
    unary("expit", "1.0 / (1.0 + math.exp(-x))", "out * (1.0 - out)", scipy=("expit",)),
    unary("log_expit", "-math.log1p(math.exp(-x))", "-math.expm1(out)", (-8.0, 8.0),
          scipy=("log_expit",)),  # (1 - expit(x), from the log SciPy gives: no overflow)
    unary("logit", "math.log(x / (1.0 - x))",
          "1.0 / (x * (1.0 - x)) if 0.0 < x < 1.0 else math.nan", (0.05, 0.95),
          "nan outside (0, 1), where logit is nan", scipy=("logit",)),
    unary("gammaln", "math.lgamma(x)", "digamma(x)", (0.2, 8.0),
          "inf at the poles, where gammaln is inf; the derivative there is nan",
          scipy=("gammaln",)),
    unary("digamma", "digamma(x)", "trigamma(x)", (0.2, 8.0), "nan at the poles",
          scipy=("digamma", "psi"),
          overrides=(("arrays", Spelling(partials=("zeta(2.0, x)",))),)),
    primitive("zeta", "zeta(s, x)", (None, "-s * zeta(s + 1.0, x)"), ((2.0, 4.0), (0.5, 4.0)),
              "Hurwitz zeta: -s * zeta(s + 1, x) in x; no derivative in s, refused where s "
              "carries one", params=("s", "x"), underived=("s",), scipy=("zeta",)),
    primitive("xlogy", "x * math.log(y)",
              ("math.log(y) if y > 0 else (-math.inf if y == 0 else math.nan)",
               "x / y if y else (0.0 if x == 0 else math.copysign(math.inf, x))"),
              ((-3, 3), (0.2, 3)), "xlogy(0, y) is 0, and so is its derivative in y",
              scipy=("xlogy",)),
    primitive("xlog1py", "x * math.log1p(y)",
              ("math.log1p(y) if y > -1.0 else (-math.inf if y == -1.0 else math.nan)",
               "x / (1.0 + y) if y != -1.0 else (0.0 if x == 0 else "
               "math.copysign(math.inf, x))"),
              ((-3, 3), (-0.8, 3)), "xlog1py(0, y) is 0, and so is its derivative in y",
              scipy=("xlog1py",)),
    unary("ndtr", "0.5 * math.erfc(-x * 0.7071067811865476)",
          f"{_PHI} * math.exp(-0.5 * x * x)", scipy=("ndtr",)),
    unary("log_ndtr", "math.log(0.5 * math.erfc(-x * 0.7071067811865476))",
          f"math.exp(-0.5 * x * x - out) * {_PHI}", (-8, 3),
          "phi(x) / Phi(x) in logs, so it stays finite far in the left tail",
          scipy=("log_ndtr",)),
    unary("ndtri", "ndtri(x)", f"math.inf if out * out > 1419.5 else {_SQRT_2PI} * "
          "math.exp(0.5 * out * out)", (0.02, 0.98), "inf at 0 and 1; nan outside [0, 1]",
          scipy=("ndtri",)),
    _norm("cdf", "ndtr((x - loc) / scale)",
          (_CDF_DX, f"-{_CDF_DX}", _scale_guarded(f"-{_Z} * {_CDF_DX}"))),
    _norm("sf", "ndtr((loc - x) / scale)",
          (f"-{_CDF_DX}", _CDF_DX, _scale_guarded(f"{_Z} * {_CDF_DX}"))),
    _norm("pdf", "phi((x - loc) / scale) / scale",
          tuple(_scale_guarded(t) for t in (
              f"-({_Z} * out) / scale", f"{_Z} * out / scale",
              f"({_Z} * {_Z} - 1.0) * out / scale"))),
    _norm("logpdf", "log(phi((x - loc) / scale) / scale)",
          tuple(_scale_guarded(t) for t in (
              f"-{_Z} / scale", f"{_Z} / scale", f"({_Z} * {_Z} - 1.0) / scale"))),
    _norm("logcdf", "log_ndtr((x - loc) / scale)",  # in logs: no NORM.pdf / NORM.cdf
          tuple(_scale_guarded(t) for t in (_LOGCDF_DX, f"-{_LOGCDF_DX}", f"-{_Z} * {_LOGCDF_DX}")),
          ((-8, 3), (-1, 1), (0.5, 2))),
    _norm("ppf", "loc + scale * ndtri(q)",
          tuple(_scale_guarded(t) for t in (
              f"math.inf if ((out - loc) / scale) ** 2 > 1419.5 else scale * "
              f"{_SQRT_2PI} * math.exp(0.5 * ((out - loc) / scale) ** 2)", "1.0",
              "(out - loc) / scale")),
          ((0.02, 0.98), (-1, 1), (0.5, 2)), "inf at 0 and 1; nan outside [0, 1]",
          params=("q",)),
)
