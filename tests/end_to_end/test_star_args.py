"""The differentiated function's ``*args`` (issue 27): read as a tuple parameter whose
length and element kinds are the call's, so its gradient is generated per kinds; the
generated function keeps ``*args`` in its signature, and the gradient of ``args`` is the
tuple of its elements' gradients, where a tuple parameter's would be.  Checked against the
tape engine (which takes ``*args`` the same way) and central finite differences at many
points, with 0, 1 and 3 extra arguments, ``args`` spread into a helper, looped over and
measured with ``len``.  Forward mode, second order and ``vjp`` of ``*args`` are
``test_star_args_higher``'s; ``check`` of it is ``tests/checking/test_check_star_args``'s."""
import math
import random

import numpy as np
import pytest

import symdiff
import symdiff.tape
from symdiff import grad


def product_of_args(*args):
    return args[0] * math.sin(args[1])


def loops_over_rest(x, *rest):
    s = x
    for r in rest:
        s = s * r + math.cos(r)
    return s * (len(rest) + 1)


def _helper(a, b, c):
    return a * math.exp(b) - c * c


def spreads_into_a_helper(*args):
    return _helper(*args) + args[2]


def indexes_by_position(x, *rest):
    total = x * x
    for i in range(len(rest)):
        total = total + rest[i] * (i + 1.0) * x
    return total


def _central(fn, point, h=1e-6):
    """d fn / d point[i] for each i, by central differences."""
    out = []
    for i, _ in enumerate(point):
        up, down = list(point), list(point)
        up[i] += h
        down[i] -= h
        out.append((fn(*up) - fn(*down)) / (2 * h))
    return out


def _shaped(flat, named):
    """``flat`` (one number per argument) as ``grad`` returns it: one per named parameter,
    then the tuple of ``*args``; bare when the function takes ``*args`` alone."""
    if not named:
        return tuple(flat)
    return (*flat[:named], tuple(flat[named:]))


def _flat(value):
    """The numbers of a gradient, nested tuples spread out, with its nesting (to compare)."""
    if type(value) is tuple:
        parts = [_flat(v) for v in value]
        return [n for numbers, _ in parts for n in numbers], tuple(shape for _, shape in parts)
    return [value], None


def _close(got, want, rel=1e-12, abs=1e-12):
    (got_numbers, got_shape), (want_numbers, want_shape) = _flat(got), _flat(want)
    return got_shape == want_shape and got_numbers == pytest.approx(want_numbers, rel=rel,
                                                                    abs=abs)


def _points(count, rng):
    return [tuple(rng.uniform(-1.5, 1.5) for _ in range(count)) for _ in range(12)]


@pytest.mark.parametrize("fn, named, counts", [
    (product_of_args, 0, (2, 3)),
    (loops_over_rest, 1, (1, 2, 4)),  # 0, 1 and 3 extra arguments
    (spreads_into_a_helper, 0, (3,)),
    (indexes_by_position, 1, (1, 2, 4)),
])
def test_star_args_agree_with_the_tape_and_finite_differences(fn, named, counts):
    rng = random.Random(27)
    differentiated = grad(fn)
    for count in counts:
        for point in _points(count, rng):
            got = differentiated(*point)
            assert _close(got, symdiff.tape.grad(fn)(*point))
            assert _close(got, _shaped(_central(fn, point), named), rel=1e-5, abs=1e-6)


def test_the_gradient_of_args_is_shaped_as_a_tuple_parameters():
    got = grad(product_of_args)(2.0, 3.0)
    assert type(got) is tuple and len(got) == 2
    assert got == pytest.approx((math.sin(3.0), 2.0 * math.cos(3.0)))
    dx, drest = grad(loops_over_rest)(2.0, 3.0, 4.0)
    assert type(dx) is float and type(drest) is tuple and len(drest) == 2
    assert _close(grad(loops_over_rest)(2.0), (1.0, ()))


def test_wrt_names_args():
    point = (0.7, -0.4, 1.3)
    dx, drest = symdiff.tape.grad(loops_over_rest)(*point)
    assert grad(loops_over_rest, wrt="rest")(*point) == pytest.approx(drest, rel=1e-12)
    assert grad(loops_over_rest, wrt=-1)(*point) == pytest.approx(drest, rel=1e-12)
    assert grad(loops_over_rest, wrt="x")(*point) == pytest.approx(dx, rel=1e-12)
    both = grad(loops_over_rest, wrt=("rest", "x"))(*point)
    assert _close(both, (drest, dx))
    assert symdiff.tape.grad(loops_over_rest, wrt="rest")(*point) == pytest.approx(drest)


def test_the_generated_function_keeps_star_args():
    source = symdiff.source(loops_over_rest, 2.0, 3.0, 4.0)
    assert "def grad_loops_over_rest(x, *rest):" in source
    assert "def grad_product_of_args(*args):" in symdiff.source(product_of_args, 2.0, 3.0)


def test_a_call_of_another_length_builds_again_and_each_stays_right():
    differentiated = grad(indexes_by_position)
    for point in [(1.0, 2.0), (1.0, 2.0, 3.0, 4.0), (1.0, 2.0), (0.5,)]:
        assert _close(differentiated(*point), symdiff.tape.grad(indexes_by_position)(*point))


def test_a_constant_index_past_the_arguments_given_is_located():
    with pytest.raises(symdiff.SymdiffError, match="out of range") as refused:
        grad(product_of_args)(2.0)  # as for a tuple parameter of one element
    assert refused.value.filename == __file__ and refused.value.lineno


def test_value_and_grad_reads_star_args():
    value, gradient = symdiff.value_and_grad(loops_over_rest)(0.3, 1.1, -0.7)
    assert value == pytest.approx(loops_over_rest(0.3, 1.1, -0.7), rel=1e-15)
    assert _close(gradient, symdiff.tape.grad(loops_over_rest)(0.3, 1.1, -0.7))


def weighs_arrays(*arrays):
    return np.sum(arrays[0] * np.sin(arrays[1]))


def reads_containers(x, *ps):
    return x * ps[0][1] + ps[1]["a"] * x


def sums_squares(*xs):
    return sum(x * x for x in xs)


def test_star_args_of_arrays_and_containers_agree_with_the_tape():
    rng = np.random.default_rng(27)
    for _ in range(5):
        a, b = rng.normal(size=3), rng.normal(size=3)
        got, want = grad(weighs_arrays)(a, b), symdiff.tape.grad(weighs_arrays)(a, b)
        assert type(got) is tuple and len(got) == 2
        for g, w in zip(got, want):
            assert np.allclose(g, w, rtol=1e-12, atol=0)
        point = (float(rng.normal()), [float(rng.normal()), float(rng.normal())],
                 {"a": float(rng.normal())})
        got = grad(reads_containers)(*point)
        assert got == symdiff.tape.grad(reads_containers)(*point)
        assert type(got[1][0]) is list and type(got[1][1]) is dict


def test_star_args_of_none_and_of_many_summed():
    assert grad(sums_squares)() == symdiff.tape.grad(sums_squares)() == ()
    for count in (1, 3, 6):
        point = tuple(0.5 * k - 1.0 for k in range(count))
        assert _close(grad(sums_squares)(*point), _shaped(_central(
            sums_squares, point), 0), rel=1e-6, abs=1e-8)


def test_calls_of_changing_lengths_and_kinds_through_one_gradient_stay_right():
    differentiated = grad(reads_containers)
    calls = [(1.0, [1.0, 2.0], {"a": 3.0}), (1.0, [1.0, 2.0, 5.0], {"a": 3.0}),
             (2.0, (1.0, 2.0), {"a": 3.0}), (1.0, [1.0, 2.0], {"a": 3.0}, 7.0),
             (1.0, [1.0, 2.0], {"a": 3.0})]
    for point in calls * 2:  # each kind again, through the guard the last call left
        assert differentiated(*point) == symdiff.tape.grad(reads_containers)(*point)
    sums = grad(sums_squares)
    for point in [(1.0, 2.0), (1.0, 2.0, 3.0), (1.0, 2.0), (), (4.0,), (1, 2.5)] * 2:
        assert sums(*point) == symdiff.tape.grad(sums_squares)(*point)
