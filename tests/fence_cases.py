"""Functions symdiff must refuse, for ``test_fence.py``.

Each offending line carries a trailing marker comment ``# FENCE <case> at <text>``:
the error of that case must point at this line, at the column where ``<text>``
first occurs in it (at the first non-blank character when there is no ``at``).  The test reads the markers from this file, so lines can move
freely.  Nothing here is ever called with numbers: symdiff only reads the source.
"""

import math

COUNTER = 0.0
SCALE = 2.5
TABLE = (0.5, 1.5, 2.5)


def uses_try(x):
    try:
        y = x * 2.0
    except ValueError:
        y = 0.0
    finally:
        return y  # FENCE try at return


def uses_with(x):
    with open(__file__) as handle:  # FENCE with
        y = x * len(handle.name)
    return y


def uses_raise(x):
    if x < 0.0:
        raise  # FENCE raise
    return x


def uses_assert(x):
    def positive(t):
        return t > 0.0
    assert positive(x), "x must be positive"  # FENCE assert at positive
    return x


def uses_import(x):
    import symdiff_has_no_such_module  # FENCE import
    return x + symdiff_has_no_such_module.SCALE


def uses_import_from(x):
    from math import no_such_function  # FENCE import_from
    return no_such_function(x)


def uses_global(x):
    global COUNTER  # FENCE global
    return x + COUNTER


def make_uses_nonlocal():
    total = 1.0

    def uses_nonlocal(x):
        nonlocal total  # FENCE nonlocal
        return x * total

    return uses_nonlocal


def uses_lambda(x):
    return (lambda t: t * t)(x)  # FENCE lambda at lambda


def uses_dict_comp(x):
    ys = {k: x for k in range(3)}  # FENCE dict_comp at {k
    return ys


def uses_set_comp(x):
    ys = {x * k for k in range(3)}  # FENCE set_comp at {x
    return ys


def uses_yield(x):
    y = yield x  # FENCE yield at yield
    return y


def uses_yield_from(x):
    y = yield from range(3)  # FENCE yield_from at yield
    return y + x


async def uses_async(x):  # FENCE async at async
    return x


async def uses_await(x):  # FENCE await at async
    y = await x
    return y


def uses_del(x):
    y = x * 2.0
    del y  # FENCE del
    return x


def uses_subscript(x):
    y = x[0]  # FENCE subscript at x[0]
    return y


def uses_slice(x):
    return x[1:2]  # FENCE slice at 1:2


def uses_attribute_read(x):
    return x.real  # FENCE attribute_read at x.real


def uses_attribute_assign(x):
    x.value = 2.0  # FENCE attribute_assign at x.value
    return x


def uses_subscript_assign(x):
    x[0] = 1.0  # FENCE subscript_assign at x[0]
    return x


def uses_starred_call(x):
    return max(*x)  # FENCE starred_call at *x


def uses_list_literal(x):
    ys = [x, x]
    return ys  # FENCE list_literal at ys


def uses_dict_literal(x):
    ys = {"x": x}
    return ys  # FENCE dict_literal at ys


def uses_fstring(x):
    label = f"{x}"  # FENCE fstring at f"
    return label


def uses_string(x):
    return "x"  # FENCE string at "x"


def uses_bytes(x):
    y = b"x"  # FENCE bytes at b"x"
    return y


def uses_is(x):
    if x is SCALE:  # FENCE is at x is
        return 0.0
    return x


def uses_is_not(x):
    if x is not SCALE:  # FENCE is_not at x is
        return x
    return 0.0


def uses_in(x):
    if x in (1.0, 2.0):  # FENCE in at x in
        return 0.0
    return x


def uses_not_in(x):
    if x not in (1.0, 2.0):  # FENCE not_in at x not
        return 0.0
    return x


def uses_bit_and(x):
    return x & 1  # FENCE bit_and at x &


def uses_bit_or(x):
    return x | 1  # FENCE bit_or at x |


def uses_bit_xor(x):
    return x ^ 2  # FENCE bit_xor at x ^


def uses_shift_left(x):
    return x << 1  # FENCE shift_left at x <<


def uses_shift_right(x):
    return x >> 1  # FENCE shift_right at x >>


def uses_invert(x):
    return ~x  # FENCE invert at ~x


def uses_matmul(x):
    return x @ x  # FENCE matmul at x @


def loops_over_a_number(x):
    for c in SCALE:  # FENCE for_number at SCALE
        x = x * c
    return x


def indexes_a_table_with_a_float(x):
    return x * TABLE[1.5]  # FENCE table_float_index at TABLE[1.5]


def uses_for_unpacking(x):
    y = x
    for i, j in range(3):  # FENCE for_unpacking at i, j
        y = y * i
    return y


def uses_for_else(x):
    y = x
    for j in range(2):
        for i in range(3):
            y = y * x
        else:
            break  # FENCE for_else at break
    return y


def uses_while_else(x):
    y = x
    for j in range(2):
        while y < 10.0:
            y = y * 2.0
        else:
            continue  # FENCE while_else at continue
    return y


def uses_kwargs(x, **options):
    return x * options  # FENCE kwargs at options


def uses_kwargs_key(x, **options):
    return x * options[x]  # FENCE kwargs_key at x]


def takes_kwargs(t, **options):
    return t * options["scale"]


def calls_kwargs_helper(x):  # a flag into a helper's **options (a dict of numbers)
    return takes_kwargs(x, mode="big", scale=2.0)  # FENCE kwargs_helper at "big"


def uses_fstring_in_helper_check(x):
    def label(t):
        return t
    if x < 0.0:
        raise ValueError(f"{label(x)} is negative")  # FENCE check_nested at label
    return x


def uses_keyword_only(x):
    def scaled(t, *, k):  # FENCE keyword_only at k
        return t * k
    return scaled(x, k=2.0)


def uses_nested_def_as_value(x):
    def inner(t):
        return t * t
    f = inner  # FENCE nested_def at inner
    return f(x)


def uses_decorated_nested_def(x):
    @staticmethod  # FENCE nested_decorator at staticmethod
    def inner(t):
        return t * t
    return inner(x)


def uses_nested_default_not_a_number(x):
    def inner(t, k=x):  # FENCE nested_default at x)
        return t * k
    return inner(x)


def uses_nested_name_twice(x):
    def inner(t):
        return t * t
    inner = 2.0  # noqa: F811 # FENCE nested_reassigned at inner =
    return x * inner


def uses_nested_defined_twice(x):
    g = lambda t: t * 2.0  # noqa: E731
    def g(t):  # noqa: F811 # FENCE nested_twice at def g
        return t * 3.0
    return g(x)


def uses_nested_recursion(x):
    def down(t):
        if t < 1.0:
            return t
        return down(t * 0.5)  # FENCE nested_recursion at down(t
    return down(x)


def uses_nested_def_in_if(x):
    if x > 0.0:
        def inner(t):  # FENCE nested_def_in_if at def
            return t * t
    return x


def uses_class(x):
    class Box:  # FENCE class at class
        size = 1.0
    return x * Box.size


def uses_match(x):
    match x:  # FENCE match at match
        case 0.0:
            return 1.0
        case _:
            return x


def uses_annotated_attribute(x):
    x.scale: float = 2.0  # FENCE annotation at x.scale
    return x


def uses_expression_statement(x):
    math.sin(x)  # FENCE expression_statement at math
    return x  # (a print, a log line or a warning is called: tests/end_to_end/test_reports)


def uses_bare_expression(x):
    x * 2.0  # FENCE bare_expression at x * 2.0
    return x


def uses_print_value(x):
    y = print(x)  # FENCE print at print(
    return y


def uses_round(x):
    return sorted(x) + x  # FENCE round at sorted(


def uses_unknown_math(x):
    return math.gcd(x, 4)  # FENCE unknown_math at math.gcd


def uses_undefined(x):
    return x + not_defined_anywhere  # noqa: F821  # FENCE undefined at not_defined_anywhere


def uses_before_assignment(x):
    y = z * x  # noqa: F821  # FENCE before_assignment at z *
    z = 1.0
    return y + z


def recursive(x):
    if x > 1.0:
        return recursive(x - 1.0)  # FENCE recursion at recursive(
    return x


def ping(x):
    if x > 1.0:
        return pong(x - 1.0)
    return x


def pong(x):
    return 2.0 * ping(x * 0.5)  # FENCE mutual_recursion at ping(


def returns_tuple(x):
    return x, x * 2.0  # FENCE return_tuple at x, x


def _one_value(x):
    return x * 2.0  # FENCE unpack_one_value at x * 2.0


def unpacks_one_value(x):
    a, b = _one_value(x)
    return a * b


def _three_values(x):
    if x > 0.0:
        return x, x, x  # FENCE unpack_three_values at x, x, x
    return x, x


def unpacks_three_values(x):
    a, b = _three_values(x)
    return a * b


def unpacks_a_math_call(x):
    a, b = math.sin(x)  # FENCE unpack_math_call at math.sin
    return a * b


def never_returns(x):  # FENCE never_returns at def
    y = x * 2.0
    y = y + 1.0


def bare_return(x):
    if x > 0.0:
        return  # FENCE bare_return at return
    return x


pair_lambda = lambda x: (x, 2.0 * x)  # FENCE lambda_returns_tuple at (x, 2.0


class Model:
    def loss(self, x):  # a bound method: differentiated by x (tests/frontend/test_fence.py)
        return x * x


class Holder:
    """Functions defined inside a method, so their source is indented."""

    def make_try(self):
        def inner_try(x):
            try:
                for i in range(2):  # FENCE indented_try at for
                    x = math.log(x) * 2.0
            except ValueError:
                x = 0.0
            return x
        return inner_try

    def make_subscript(self):
        def inner_subscript(x):
            y = x * 2.0
            return y + x[1]  # FENCE indented_subscript at x[1]
        return inner_subscript

    def make_unknown(self):
        def inner_unknown(x):
            if x > 0.0:
                y = sorted(x)  # FENCE indented_round at sorted(
            else:
                y = x
            return y
        return inner_unknown
