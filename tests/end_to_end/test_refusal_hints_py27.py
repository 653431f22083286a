"""Constructs still refused (issue 27; ``:=`` is read now: tests/lower/test_walrus.py): each refusal is located, names the construct, and its
hint works — the function rewritten as the hint says differentiates, checked against central
finite differences and, for the scalar forward-mode defaults, against the reverse gradient."""
import math

import pytest

import symdiff
from symdiff import SymdiffError, grad


def _fd(fn, *args, h=1e-6):
    out = []
    for i, a in enumerate(args):
        up = list(args); up[i] = a + h
        dn = list(args); dn[i] = a - h
        out.append((fn(*up) - fn(*dn)) / (2 * h))
    return out[0] if len(out) == 1 else tuple(out)


def _refused(fn, *args, construct):
    with pytest.raises(SymdiffError, match=construct) as refused:
        grad(fn)(*args)
    assert refused.value.lineno and refused.value.filename.endswith(".py")
    return refused.value


def product_of_args(*args):
    return args[0] * math.sin(args[1])


def product_of_tuple(args):
    return args[0] * math.sin(args[1])


def test_star_args_read_as_a_tuple_parameter_is():
    got = grad(product_of_args)(2.0, 3.0)  # (more: tests/end_to_end/test_star_args.py)
    assert type(got) is tuple and got == pytest.approx(_fd(product_of_args, 2.0, 3.0), rel=1e-6)
    assert got == pytest.approx(tuple(grad(product_of_tuple)((2.0, 3.0))), rel=1e-15)


def scaled(x, scale=1.0):
    return x * scale


def forwards_kw(x, **kw):
    return scaled(x, **kw) * x


def names_the_value(x, scale=1.0):
    return scaled(x, scale=scale) * x


def test_kw_forwarding_binds_the_keys_given_and_agrees_with_passing_by_name():
    for scale in (3.0, -0.5):
        assert grad(forwards_kw)(2.0, scale=scale) == pytest.approx(
            grad(names_the_value, wrt="x")(2.0, scale))
    assert grad(forwards_kw)(2.0) == pytest.approx(_fd(forwards_kw, 2.0))


def stored_lambda(x):
    acts = {"tanh": lambda v: math.tanh(v)}
    return acts["tanh"](x)


def _tanh(v):
    return math.tanh(v)


def called_by_name(x):
    return _tanh(x)


def test_lambda_in_a_dict_refused_and_a_def_called_by_name_works():
    _refused(stored_lambda, 0.5, construct=r"lambda")
    assert grad(called_by_name)(0.5) == pytest.approx(1 - math.tanh(0.5) ** 2)


def module_as_value(x, m=math):
    return m.sin(x)


def test_module_as_value_refused_and_the_module_by_name_works():
    _refused(module_as_value, 0.5, construct=r"m\.sin")
    assert grad(lambda_free_sin)(0.5) == pytest.approx(math.cos(0.5))


def lambda_free_sin(x):
    return math.sin(x)


def weighted_by_position(xs):
    idx = range(len(xs))
    return sum(xs[i] * i for i in idx)


def weighted_in_loop(xs):
    total = 0.0
    for i in range(len(xs)):
        total = total + xs[i] * i
    return total


def test_a_range_kept_in_a_name_is_read_as_the_for_loop_over_it():  # (it was refused)
    xs = [1.0, 2.0, 3.0]
    kept, looped = grad(weighted_by_position)(xs), grad(weighted_in_loop)(xs)
    assert list(kept) == list(looped)
    assert list(kept) == pytest.approx([_fd(lambda v: weighted_by_position(
        [v if j == i else x for j, x in enumerate(xs)]), xs[i]) for i in range(len(xs))])


def power(x, n=3):
    return x ** n


def test_forward_defaults_leave_out_an_int_parameter():
    assert symdiff.jacobian(power)(2.0, 3) == pytest.approx((12.0,))
    assert symdiff.hessian(power)(2.0, 3) == pytest.approx(12.0)
    assert grad(power)(2.0, 3) == pytest.approx(_fd(lambda x: power(x, 3), 2.0), rel=1e-6)
