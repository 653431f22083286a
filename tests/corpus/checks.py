"""Functions that check their inputs before computing, as scientific code does: ``raise``
in a branch (f-string messages included), ``assert`` with and without a message, helpers
that only validate, checks inside loops and helpers, imports inside the body.  Each case
lists ``bad`` points where the function's own checks raise.

``OPTIONAL`` holds functions with optional arguments — parameters defaulting to None
tested with ``is None``, and ``**kwargs`` read with constant keys — each with the keyword
arguments to call it with, tested in ``test_checks.py``.  ``CASES`` and ``OPTIONAL`` at
the end.
"""

import math

from . import case

GAS_CONSTANT = 287.05
MAX_PRESSURE = 1e7


class PhysicsError(ValueError):
    """A module's own exception class, raised by a check."""


def validate_state(pressure, temperature):
    if pressure <= 0:
        raise ValueError(f"pressure must be positive, got {pressure}")
    if not temperature > 0:
        raise ValueError(f"temperature {temperature:.3f} K is not above absolute zero")
    assert pressure < MAX_PRESSURE, "pressure beyond the table"


def density(pressure, temperature):
    """Ideal gas density with its checks first."""
    validate_state(pressure, temperature)
    return pressure / (GAS_CONSTANT * temperature)


def vapor_pressure(t, a, b):
    if t <= -b:
        raise PhysicsError(f"t = {t} is at or below the pole -b = {-b}")
    assert a > 0, f"a = {a} must be positive"
    return math.exp(a - b / (t + b))


def drag(v, rho, cd=0.47):
    assert v >= 0
    assert rho > 0, "density must be positive"
    area = math.pi * 0.25
    return 0.5 * rho * v * v * cd * area


def _safe_log(t):
    if t <= 0:
        raise ValueError("log of a non-positive number")
    return math.log(t)


def log_likelihood(mu, sigma):
    if sigma <= 0:
        raise ValueError(f"sigma = {sigma} must be positive")
    total = 0.0
    for i in range(4):
        z = (i * 0.5 - mu) / sigma
        if abs(z) > 50:
            raise OverflowError(f"observation {i} is {z:.1f} sigmas out")
        total += -0.5 * z * z - _safe_log(sigma)
    return total


def piecewise(x):
    if x < -5:
        raise ValueError("x below the tabulated range")
    elif x < 0:
        return x * x
    return math.sin(x) + x


def nested_validator(x, y):
    def require_positive(value, what):
        if value <= 0:
            raise ValueError(f"{what} must be positive")
    require_positive(x, "x")
    require_positive(y * 2, "twice y")
    return x * math.log(y)


def imports_in_the_body(x, y):
    import math as m
    from math import exp
    if x == y:
        raise ZeroDivisionError(f"x == y == {x}")
    return m.atan2(y, x) * exp(-x * y) / (x - y)


def imports_a_module_of_its_own(x, y):
    from . import straight
    from .straight import division_chain as chain
    if y <= 0:
        raise ValueError(f"y = {y} must be positive")
    return straight.power_xy(x, y) + chain(x, y)


def loop_with_checks(x, n_steps):
    s = x
    for step in range(3):
        if s > 1e6:
            raise OverflowError(f"diverged at step {step}: {s}")
        assert n_steps > 0, f"n_steps = {n_steps}"
        s = s * s * 0.5 + n_steps * 0.1
    return s


def require_positive(value, what, unit="K"):
    if value <= 0:
        raise ValueError(f"{what} = {value} {unit} must be positive")


def arrhenius(temperature, pressure):
    require_positive(temperature, "temperature")
    require_positive(pressure, "pressure", "Pa")
    return pressure * math.exp(-5000.0 / temperature)


CASES = [
    case(density, (1e3, 1e5), (200.0, 400.0),
         bad=[(-1.0, 300.0), (1e3, -5.0), (2e7, 300.0)]),
    case(vapor_pressure, (0.0, 50.0), (1.0, 3.0), (200.0, 300.0),
         bad=[(-300.0, 2.0, 250.0), (10.0, -1.0, 250.0)]),
    case(drag, (0.5, 30.0), (0.5, 1.5), (0.2, 1.0), bad=[(-1.0, 1.0, 0.5), (1.0, 0.0, 0.5)]),
    case(log_likelihood, (-1.0, 2.0), (0.5, 2.0), bad=[(0.0, -1.0), (0.0, 0.0), (1e3, 1.0)]),
    case(piecewise, (-4.0, 4.0), kinky=True, bad=[(-6.0,)]),
    case(nested_validator, (0.5, 2.0), (0.5, 2.0), bad=[(-1.0, 1.0), (1.0, -0.5)]),
    case(imports_in_the_body, (0.5, 1.0), (1.5, 2.0), bad=[(1.0, 1.0)]),
    case(imports_a_module_of_its_own, (0.5, 1.5), (0.5, 1.5), bad=[(1.0, -1.0)]),
    case(loop_with_checks, (0.5, 1.2), (0.5, 1.0), bad=[(1e4, 1.0), (0.5, -1.0)]),
    case(arrhenius, (300.0, 900.0), (1e4, 1e5), bad=[(-1.0, 1e5), (300.0, 0.0)]),
]


def concentration(t, dose=None, clearance=None):
    if dose is None:
        dose = 100.0
    if clearance is not None:
        k = clearance / 10.0
    else:
        k = 0.3
    if t < 0:
        raise ValueError(f"time {t} before the dose")
    return dose * math.exp(-k * t)


def pk_model(t, volume, **kwargs):
    dose = kwargs["dose"]
    k = kwargs.get("k", 0.25)
    if dose <= 0:
        raise ValueError(f"dose {dose} must be positive")
    return dose / volume * math.exp(-k * t)


# (function, domain of the positional arguments differentiated, keyword arguments,
#  a bad point with its keyword arguments)
OPTIONAL = [
    (concentration, ((0.1, 5.0),), {}, ((-1.0,), {})),
    (concentration, ((0.1, 5.0), (10.0, 200.0)), {}, ((-1.0, 50.0), {})),
    (concentration, ((0.1, 5.0), (10.0, 200.0), (0.5, 4.0)), {}, ((-1.0, 5.0, 1.0), {})),
    (pk_model, ((0.1, 5.0), (1.0, 10.0)), {"dose": 50.0}, ((1.0, 2.0), {"dose": -1.0})),
    (pk_model, ((0.1, 5.0), (1.0, 10.0)), {"dose": 50.0, "k": 0.7},
     ((1.0, 2.0), {"dose": 0.0, "k": 0.7})),
]
