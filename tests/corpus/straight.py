"""Straight-line functions: every primitive, every assignment form, every way to name math.

No branch or loop in the differentiated functions themselves (one helper returns early).
``CASES`` at the end gives each one its domain.
"""

import math
import math as m
import math as mm
from math import cos, sin
from math import exp as e_
from math import sin as s

import numpy as np

from . import case

SCALE = 2.5
dx = 0.5  # a module constant with the name of an adjoint
OFFSET = -0.75
COUNT = 3


# --- arithmetic operators --------------------------------------------------------------

def add(x, y):
    return x + y


def sub(x, y):
    return x - y


def mul(x, y):
    return x * y


def div(x, y):
    return x / y


def power_xy(x, y):
    return x ** y


def floordiv_mix(x, y):
    return x // y + x * y


def mod_mix(x, y):
    return (x % y) * x + y


def unary_ops(x):
    return -x * +x + -(-x) + +(x * 2.0)


def mixed_int_constants(x):
    return 2 * x + 3 - x / 4 + 7 // 2 * x


def division_chain(x, y):
    return x / y / (x + y + 7.0) + 1 / x


# --- math functions ----------------------------------------------------------------------

def trig(x):
    return math.sin(x) * math.cos(x) + math.tan(x / 2)


def inverse_trig(x):
    return math.asin(x) + math.acos(x / 2) + math.atan(3 * x)


def atan2_right(y, x):
    return math.atan2(y, x)


def atan2_upper(y, x):
    return math.atan2(y, x) * y


def hyperbolic(x):
    return math.sinh(x) + math.cosh(x) * math.tanh(x)


def inverse_hyperbolic(x):
    return math.asinh(x) + math.acosh(1.5 + x * x) + math.atanh(x / 2)


def exponentials(x):
    return math.exp(x) + math.expm1(x / 3)


def logarithms(x):
    return math.log(x) + math.log1p(x) + math.log2(x) + math.log10(x)


def log_with_base(x, b):
    return math.log(x, b)


def root_times(x):
    return math.sqrt(x) * x


def math_pow(x, y):
    return math.pow(x, y)


def hypot_fn(x, y):
    return math.hypot(x, y)


def fabs_fn(x):
    return math.fabs(x) * x + math.fabs(x - 1.0)


def error_functions(x):
    return math.erf(x) * math.erfc(x)


def rounding(x):
    return math.floor(x) * x + math.ceil(x) + math.trunc(x) * 0.5


def fmod_fn(x, y):
    return math.fmod(x, y) * y


def copysign_fn(x, y):
    return math.copysign(x, y) * x + y


# --- builtins -----------------------------------------------------------------------------

def builtin_abs(x):
    return abs(x) * 2.0 + abs(x + 1.0)


def min_max_two(x, y):
    return min(x, y) + 2.0 * max(x, y)


def min_max_three(x, y, z):
    return max(x, y, z) - min(x, y, z) * 3.0


def relu_mix(x):
    return max(x, 0.0) + min(x, 1.0)


def builtin_pow(x, y):
    return pow(x, y) + pow(x, 2)


def float_int(x):
    return float(x) * 2.0 + int(x) * x


# --- assignment forms --------------------------------------------------------------------

def reuse(x):
    return x * x * x + x


def reassign(x):
    y = x * 2.0
    y = y * y
    y = math.sin(y)
    return y + x


def reassign_param(x):
    x = x * 2.0
    x = x + 1.0
    return x * x


def augmented_arith(x, y):
    z = x
    z += y
    z -= 0.5 * x
    z *= y
    z /= 1.0 + y * y
    z **= 2
    return z


def augmented_int_ops(x, y):
    z = x * 3.0
    z //= y
    w = x * y
    w %= y
    return z + w * x


def augmented_param(x, y):
    x += y
    x *= y
    y -= x
    return x * y


def tuple_unpack(x, y):
    a, b = x + y, x * y
    return a * b


def swap(x, y):
    a, b = x, y
    a, b = b, a
    return a - 2.0 * b


def rotate_three(x, y, z):
    a, b, c = x, y, z
    a, b, c = b, c, a
    a, b, c = b * 2.0, c, a
    return a * 1.0 + b * 10.0 + c * 100.0


def nested_unpack(x, y):
    (a, b), c = (x, y), x * y
    return a + b * c


def chained_assign(x):
    a = b = x * 2.0
    return a * b + a


# --- names: constants, imports, numpy ------------------------------------------------------

def module_constants(x):
    return SCALE * x + OFFSET * COUNT


def math_constants(x):
    return math.pi * x ** 2 + math.e * x + math.tau


def import_alias(x):
    return m.sin(x) * m.exp(x)


def from_import(x):
    return sin(x) + cos(x) * e_(x)


def from_import_alias(x):
    return s(x) * s(2.0 * x)


def numpy_functions(x):
    return np.sin(x) + np.exp(x / 2.0) * np.arctan(x)


def numpy_tanh(x):
    return np.tanh(x)


def numpy_more(x, y):
    return (np.sqrt(x * x + 1.0) + np.tanh(y) * np.log1p(x * x) + np.maximum(x, y)
            + np.power(x * x + 1.0, 0.5) + np.arcsinh(y))


def local_named_math(x):
    math = x * 2.0
    return mm.sin(math) + math * mm.cos(x)


# --- helpers -------------------------------------------------------------------------------

def square(v):
    return v * v


def norm2(a, b):
    return math.sqrt(square(a) + square(b))


def scaled(v, k=2.0):
    return v * k + math.sin(k)


def bump(v):
    v = v * 2.0
    v = v + 1.0
    return v * v


def soft_clip(v):
    if v > 1.0:
        return 1.0 + math.log(v)
    return v


def helper_call(x, y):
    return square(x) + square(y)


def helpers_nested(x):
    return norm2(x, 2.0 * x) + norm2(1.0, x)


def helper_default(x):
    return scaled(x) + scaled(x, 3.0)


def helper_keywords(x, y):
    return scaled(k=y, v=x) * scaled(x, k=0.5)


def helper_reassigns_param(x):
    return bump(x) + x


def helper_early_return(x):
    return soft_clip(x) * 2.0 + soft_clip(x * 0.5)


# --- parameters ----------------------------------------------------------------------------

def unused_params(x, y, z):
    return x * 2.0 + y


def constant_result(x):
    return 2.5


def keyword_default(x, y=2.0):
    return x ** y + y


# --- powers --------------------------------------------------------------------------------

def integer_powers(x):
    return x ** 2 + x ** 3 - x ** -1 + x ** 0 + x ** -2


def integer_powers_negative_base(x):
    return x ** 3 + x ** 2 + x ** -3


def zero_power(x):
    return x ** 0 * 3.0 + x


def half_power(x):
    return x ** 0.5 + x ** 1.5


def constant_base(x):
    return 2 ** x + 0.5 ** x


def power_both(x, y):
    return x ** y * y ** x


# --- names that look generated ---------------------------------------------------------------

def f(dx, dy):
    result = dx * dy
    stack = result + dx
    push = stack * 2.0
    pop = push - dy
    t1 = pop ** 2
    mul_z = t1 + 1.0
    cond = mul_z / 3.0
    grad_f = cond + dx
    math_1 = grad_f * dy
    _ = math_1 + 1.0
    return _ + result


def generated_names_two(x, value):
    dvalue = value * x
    dresult = dvalue + x
    sin_z = math.sin(dresult)
    copy = sin_z * value
    go_on = copy + 1.0
    returned = go_on * go_on
    return returned + dvalue


# --- closures ------------------------------------------------------------------------------

def make_scaler(a):
    def scaler(x):
        return a * x + math.sin(a * x)
    return scaler


def make_affine(a, b):
    def affine(x, y):
        return a * x + b * y + a * b
    return affine


scale_by_2 = make_scaler(2.0)
scale_by_3 = make_scaler(3.0)
affine_closure = make_affine(1.5, -0.5)


# --- composites ------------------------------------------------------------------------------

def deep_chain(x):
    return math.sin(math.cos(math.exp(math.tanh(x))))


def sigmoid(x):
    return 1.0 / (1.0 + math.exp(-x))


def softplus(x):
    return math.log1p(math.exp(x))


def gaussian(x, mu, sigma):
    z = (x - mu) / sigma
    return math.exp(-z * z / 2.0) / (sigma * math.sqrt(2.0 * math.pi))


def horner(x):
    return (((3.0 * x + 2.0) * x - 1.0) * x + 0.5) * x - 4.0


def logistic_loss(w, b, x):
    z = w * x + b
    p = 1.0 / (1.0 + math.exp(-z))
    return -math.log(p) - 0.1 * math.log(1.0 - p)


def long_expression(x, y):
    return (x * y + math.sin(x) - y / (1.0 + x * x) + math.exp(-y * y) * x
            - math.sqrt(1.0 + y * y) * math.cos(x * y) + x ** 3 / 7.0
            + math.log(2.0 + x * x) * y - math.tanh(x - y) + (x + y) ** 2 * 0.25
            - math.atan(x * 2.0 - y) + 3.0)


# --- more hazards ----------------------------------------------------------------------------

def param_overwritten_by_constant(x, y):
    z = x * y
    x = 2.0
    return z + x * y


def negative_constants(x):
    return -2.0 ** x + (-0.5) * x ** -0.5 + x * -3.0 - (-x) ** 2


def reads_global_named_dx(x):
    return x * dx + math.sin(x) * dx


def scale_by_dx(v):
    return v * dx


def helper_reads_global_named_dx(x, y):
    return scale_by_dx(x) * y + x



# --- annotations -----------------------------------------------------------------------------

def _annotated_helper(t: float, k: "float" = 2.0) -> float:
    scaled: float = k * t
    return scaled * scaled


def annotated(x: float, y: list[float]) -> dict[str, float]:
    """Annotations are not code: none of them is evaluated or differentiated."""
    z: float = x * y
    w: "np.ndarray"
    w = z + _annotated_helper(x)
    total: float
    total = w * math.sin(z)
    return total

CASES = [
    case(add, (-3, 3), (-3, 3)),
    case(sub, (-3, 3), (-3, 3)),
    case(mul, (-3, 3), (-3, 3)),
    case(div, (-3, 3), (0.5, 3)),
    case(power_xy, (0.2, 3), (-2, 2)),
    case(floordiv_mix, (-3, 3), (0.5, 3), kinky=True),
    case(mod_mix, (-3, 3), (0.5, 3), kinky=True),
    case(unary_ops, (-3, 3)),
    case(mixed_int_constants, (-3, 3)),
    case(division_chain, (0.5, 3), (0.5, 3)),
    case(trig, (-2, 2)),
    case(inverse_trig, (-0.9, 0.9)),
    case(atan2_right, (-3, 3), (0.5, 3)),
    case(atan2_upper, (0.5, 3), (-3, 3)),
    case(hyperbolic, (-3, 3)),
    case(inverse_hyperbolic, (-1.5, 1.5)),
    case(exponentials, (-3, 3)),
    case(logarithms, (0.1, 5)),
    case(log_with_base, (0.1, 5), (1.5, 5)),
    case(root_times, (0.1, 5)),
    case(math_pow, (0.2, 3), (-2, 2)),
    case(hypot_fn, (0.5, 3), (-3, 3)),
    case(fabs_fn, (-3, 3), kinky=True),
    case(error_functions, (-2, 2)),
    case(rounding, (-3, 3), kinky=True),
    case(fmod_fn, (-3, 3), (0.5, 3), kinky=True),
    case(copysign_fn, (0.2, 3), (-3, 3), kinky=True),
    case(builtin_abs, (-3, 3), kinky=True),
    case(min_max_two, (-3, 3), (-3, 3), kinky=True),
    case(min_max_three, (-3, 3), (-3, 3), (-3, 3), kinky=True),
    case(relu_mix, (-3, 3), kinky=True),
    case(builtin_pow, (0.2, 3), (-2, 2)),
    case(float_int, (-3, 3), kinky=True),
    case(reuse, (-3, 3)),
    case(reassign, (-2, 2)),
    case(reassign_param, (-3, 3)),
    case(augmented_arith, (-3, 3), (-3, 3)),
    case(augmented_int_ops, (-3, 3), (0.5, 3), kinky=True),
    case(augmented_param, (-3, 3), (-3, 3)),
    case(tuple_unpack, (-3, 3), (-3, 3)),
    case(swap, (-3, 3), (-3, 3)),
    case(rotate_three, (-3, 3), (-3, 3), (-3, 3)),
    case(nested_unpack, (-3, 3), (-3, 3)),
    case(chained_assign, (-3, 3)),
    case(module_constants, (-3, 3)),
    case(math_constants, (-3, 3)),
    case(import_alias, (-3, 3)),
    case(from_import, (-3, 3)),
    case(from_import_alias, (-3, 3)),
    case(numpy_functions, (-3, 3)),
    case(numpy_tanh, (-3, 3)),
    case(numpy_more, (-3, 3), (-3, 3), kinky=True),
    case(local_named_math, (-3, 3)),
    case(helper_call, (-3, 3), (-3, 3)),
    case(helpers_nested, (0.2, 3)),
    case(helper_default, (-3, 3)),
    case(helper_keywords, (-3, 3), (-3, 3)),
    case(helper_reassigns_param, (-3, 3)),
    case(helper_early_return, (0.1, 4), kinky=True),
    case(unused_params, (-3, 3), (-3, 3), (-3, 3)),
    case(constant_result, (-3, 3)),
    case(keyword_default, (0.2, 3), (-2, 2)),
    case(integer_powers, (0.5, 3)),
    case(integer_powers_negative_base, (-3, -0.5)),
    case(zero_power, (-3, 3)),
    case(half_power, (0.1, 4)),
    case(constant_base, (-3, 3)),
    case(power_both, (0.2, 3), (0.2, 3)),
    case(f, (-3, 3), (-3, 3)),
    case(generated_names_two, (-3, 3), (-3, 3)),
    case(scale_by_2, (-3, 3), name="scaler_2"),
    case(scale_by_3, (-3, 3), name="scaler_3"),
    case(affine_closure, (-3, 3), (-3, 3), name="affine_closure"),
    case(deep_chain, (-3, 3)),
    case(sigmoid, (-5, 5)),
    case(softplus, (-5, 5)),
    case(gaussian, (-3, 3), (-1, 1), (0.5, 2)),
    case(horner, (-3, 3)),
    case(logistic_loss, (-2, 2), (-1, 1), (-2, 2)),
    case(long_expression, (-2, 2), (-2, 2)),
    case(param_overwritten_by_constant, (-3, 3), (-3, 3)),
    case(negative_constants, (0.2, 3)),
    case(reads_global_named_dx, (-3, 3)),
    case(helper_reads_global_named_dx, (-3, 3), (-3, 3)),
    case(annotated, (-2, 2), (-2, 2)),
]
