"""The optimizer on array gradients: each rewrite shown on generated text, before (not
optimized) and after, and every optimized array gradient equal to the unoptimized one to
the last bit (nan matching nan, -0.0 told from 0.0, dtypes and shapes the same, the same
exception) on the array corpus and on these functions, at their points, with nan, inf and
-0.0 put in, and at empty arrays; the gradients here also against central differences
along random directions (autograd's ``check_vjp``).
"""

import warnings

import numpy as np
import pytest

import symdiff

try:
    from corpus.arrays import ARRAY_CASES
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests.corpus.arrays import ARRAY_CASES

RNG = np.random.default_rng(26)


def normal(*shape, dtype=np.float64):
    return RNG.normal(size=shape).astype(dtype)


# --- the functions ----------------------------------------------------------------------

def logistic(w, X, y):
    return np.mean(np.log1p(np.exp(-y * (X @ w))))


def squares(p, y):
    return np.mean((p - y) ** 2)


def softmax_loss(W, X):
    s = X @ W
    return np.sum(s - np.log(np.sum(np.exp(s), axis=1, keepdims=True)))


def recurrence(W, U, xs):
    h = np.zeros(W.shape[0])
    for t in range(xs.shape[0]):
        h = np.tanh(W @ h + U @ xs[t])
    return np.sum(h)


def fill(x, w):
    out = np.zeros(x.shape[0])
    for i in range(x.shape[0]):
        out[i] = np.tanh(w * x[i])
    return np.sum(out ** 2)


def smoothed(u, dt):
    new = u.copy()
    new[1:-1] = u[1:-1] + dt * (u[2:] - 2.0 * u[1:-1] + u[:-2])
    return np.sum(new ** 2)


def old_value_needed(x):
    y = np.exp(x)
    y[0] = 0.0
    return np.sum(y * x)


def saved_in_loop(x, W):
    h = x * 1.0
    for t in range(3):
        h = np.sin(W @ h)
        h[0] = h[1] * 2.0
    return np.sum(h * h)


def mixed_dtypes(w, X):
    return np.sum(np.tanh(X @ w)) + np.sum(w * w)


def centered(x):
    mu = np.mean(x, axis=-1, keepdims=True)
    var = np.var(x, axis=-1, keepdims=True)
    return np.sum((x - mu) ** 2 / (var + 1.0))


def pairwise(X):
    sq = np.sum(X ** 2, axis=1)
    D = sq[:, None] + sq[None, :] - 2.0 * X @ X.T
    return np.sum(D * D)


def repeated_sums(x):
    s = 0.0
    for _ in range(3):
        s = s + np.sum(x * x)
    return s


CASES = [
    (logistic, (normal(3), normal(5, 3), np.sign(normal(5))), "w"),
    (squares, (normal(6), normal(6)), ("p", "y")),
    (softmax_loss, (normal(3, 4), normal(5, 3)), "W"),
    (recurrence, (normal(4, 4) / 2, normal(4, 2), normal(6, 2)), ("W", "U")),
    (fill, (normal(5), 0.3), ("x", "w")),
    (smoothed, (normal(7), 0.1), None),
    (old_value_needed, (normal(4),), "x"),
    (saved_in_loop, (normal(3), normal(3, 3)), ("x", "W")),
    (centered, (normal(3, 4),), "x"),
    (pairwise, (normal(4, 2),), "X"),
    (repeated_sums, (normal(4),), "x"),
    (mixed_dtypes, (normal(3, dtype=np.float32), normal(5, 3, dtype=np.float32)), "w"),
]


def source(f, args, wrt, optimize):
    """The generated text, without its comments (which quote the user's lines)."""
    built = symdiff.grad(f, wrt=wrt, optimize=optimize)
    built(*args)
    forward, _, reverse = built.source.partition("# reverse sweep")
    return "\n".join(line for line in forward.splitlines() + ["# reverse sweep"]
                     + reverse.splitlines()
                     if not line.strip().startswith("#") or "reverse sweep" in line)


def forward_and_reverse(text):
    forward, _, reverse = text.partition("# reverse sweep")
    return forward, reverse


# --- each rewrite, before and after ----------------------------------------------------

def test_dead_forward_array_statements_go():
    before = source(logistic, CASES[0][1], "w", False)
    after = source(logistic, CASES[0][1], "w", True)
    assert ".mean()" in before and ".mean(" not in after and "np.mean(" not in after
    assert "log1p_result = " in before and "log1p_result = " not in after


def test_a_running_sum_only_the_value_needs_goes_from_a_loop():
    """``s = s + np.sum(x * x)`` in a loop: a float plus NumPy's float, which the sweeps
    type from the reduction's record, raises nothing, so the forward loop goes."""
    point = (normal(4),)
    forward, _ = forward_and_reverse(source(repeated_sums, point, "x", True))
    assert "for " not in forward and ".sum(" not in forward and "np.sum(" not in forward
    assert "for " in forward_and_reverse(source(repeated_sums, point, "x", False))[0]


def test_seed_arrays_go():
    for f, args, wrt in CASES[:2]:
        before, after = source(f, args, wrt, False), source(f, args, wrt, True)
        assert "np.full_like(" in before and "np.full_like(" not in after, f.__name__
    after = source(squares, CASES[1][1], ("p", "y"), True)
    assert "1.0 / sub_result.size * (2 * sub_result)" in after  # the size, from p - y


def test_no_multiply_by_a_ones_array():
    before = source(softmax_loss, CASES[2][1], "W", False)
    after = source(softmax_loss, CASES[2][1], "W", True)
    assert "np.ones_like(" in before and "np.ones_like(" not in after


def test_forward_reductions_are_reused():
    args = next(a for f, a, w in CASES if f is centered)
    forward, reverse = forward_and_reverse(source(centered, args, "x", True))
    assert "x.mean(axis=-1, keepdims=True)" in forward
    assert ".mean(" not in reverse and "np.mean(" not in reverse  # the variance's VJP reads ``mu``, not a new mean
    before = forward_and_reverse(source(centered, args, "x", False))[1]
    assert "x.mean(axis=-1, keepdims=True)" in before


def test_ones_after_a_spread_go():
    args = next(a for f, a, w in CASES if f is pairwise)
    before, after = source(pairwise, args, "X", False), source(pairwise, args, "X", True)
    assert "np.ones_like(pow_sq)" in before and "np.ones_like(" not in after
    assert "dX += dsq[:, None] * (2 * X)" in after


def test_accumulation_in_place_into_owned_buffers():
    before = source(recurrence, CASES[3][1], ("W", "U"), False)
    after = source(recurrence, CASES[3][1], ("W", "U"), True)
    assert "dU = dU + np.outer(" in before and "dW = dW + np.outer(" in before
    assert "dU += np.outer(" in after and "dW += np.outer(" in after


def test_an_adjoint_bound_to_another_is_not_added_into():
    after = source(softmax_loss, CASES[2][1], "W", True)
    for line in after.splitlines():
        assert not line.strip().startswith("ds += "), line  # ``ds`` is another's array


def test_accumulation_of_another_dtype_stays_out_of_place():
    w, X = CASES[-1][1]
    got = symdiff.grad(mixed_dtypes, wrt="w")(w, X.astype(np.float64))
    want = symdiff.grad(mixed_dtypes, wrt="w", optimize=False)(w, X.astype(np.float64))
    assert got.dtype == want.dtype and same(got, want)


def test_a_copy_made_only_to_be_written_goes():
    before = forward_and_reverse(source(fill, CASES[4][1], ("x", "w"), False))[0]
    after = forward_and_reverse(source(fill, CASES[4][1], ("x", "w"), True))[0]
    assert "out.copy()" in before and ".copy()" not in after  # one copy per step, gone
    before = forward_and_reverse(source(smoothed, CASES[5][1], None, False))[0]
    after = forward_and_reverse(source(smoothed, CASES[5][1], None, True))[0]
    assert "new_1 = new.copy()" in before and "new_1 = new\n" in after + "\n"


@pytest.mark.parametrize("f", [old_value_needed, saved_in_loop],
                         ids=lambda f: f.__name__)
def test_a_copy_stays_where_the_old_array_is_read(f):
    args, wrt = next((a, w) for g, a, w in CASES if g is f)
    forward = forward_and_reverse(source(f, args, wrt, True))[0]
    assert ".copy()" in forward


# --- numbers ------------------------------------------------------------------------------

def flat(value):
    if isinstance(value, dict):
        return [x for k in sorted(value) for x in flat(value[k])]
    if isinstance(value, (tuple, list)):
        return [x for e in value for x in flat(e)]
    return [value]


def same(a, b):
    """Equal to the last bit: nan matching nan, -0.0 told from 0.0, dtype and shape."""
    if type(a) is not type(b) and not (isinstance(a, np.ndarray) or isinstance(b, np.ndarray)):
        return False
    fa, fb = flat(a), flat(b)
    if len(fa) != len(fb):
        return False
    for x, y in zip(fa, fb):
        x, y = np.asarray(x), np.asarray(y)
        if x.dtype != y.dtype or x.shape != y.shape:
            return False
        nx, ny = np.isnan(x), np.isnan(y)
        if not (np.array_equal(nx, ny) and np.array_equal(np.where(nx, 0, x), np.where(ny, 0, y))
                and np.array_equal(np.signbit(x) & ~nx, np.signbit(y) & ~ny)):
            return False
    return True


def outcome(g, point):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return "value", g(*point)
        except Exception as error:  # the same exception either way, not a value
            return "raises", type(error)


def special_points(point):
    """``point`` with nan, inf and -0.0 in each float array in turn, and with each float
    array emptied (along its first axis)."""
    found = []
    for i, arg in enumerate(point):
        if isinstance(arg, np.ndarray) and arg.dtype.kind == "f" and arg.size:
            changed = arg.copy()
            flat_view = changed.reshape(-1)
            flat_view[:3] = [np.nan, np.inf, -0.0][:flat_view.size]
            found.append(point[:i] + (changed,) + point[i + 1:])
            if arg.ndim:
                found.append(point[:i] + (arg[:0],) + point[i + 1:])
    return found


def assert_same_gradients(f, points, wrt):
    optimized = symdiff.grad(f, wrt=wrt)
    plain = symdiff.grad(f, wrt=wrt, optimize=False)
    for point in list(points) + [q for p in points for q in special_points(p)]:
        got, want = outcome(optimized, point), outcome(plain, point)
        assert got[0] == want[0], (f.__name__, got, want)
        assert same(got[1], want[1]) if got[0] == "value" else got[1] is want[1], (
            f.__name__, got, want)


@pytest.mark.parametrize("f, args, wrt", CASES, ids=[c[0].__name__ for c in CASES])
def test_optimized_equals_unoptimized(f, args, wrt):
    assert_same_gradients(f, [args], wrt)


def numerical_vjp(f, args, i, direction, eps=1e-6):
    def at(step):
        moved = list(args)
        moved[i] = args[i] + step * direction
        return float(f(*moved))
    return (at(eps) - at(-eps)) / (2 * eps)


@pytest.mark.parametrize("f, args, wrt", [
    pytest.param(*c, id=c[0].__name__) for c in CASES if c[1][0].dtype == np.float64])
def test_against_finite_differences(f, args, wrt):
    params = f.__code__.co_varnames[:f.__code__.co_argcount]
    names = params if wrt is None else (wrt,) if isinstance(wrt, str) else wrt
    got = symdiff.grad(f, wrt=wrt)(*args)
    got = got if len(names) > 1 else (got,)
    for name, gradient in zip(names, got):
        i = params.index(name)
        for _ in range(3):
            v = RNG.normal(size=np.shape(args[i]))
            expected = numerical_vjp(f, args, i, v)
            assert np.isclose(np.sum(gradient * v), expected, rtol=1e-6, atol=1e-6), (
                f.__name__, name)


def _corpus_cases():
    found = []
    for name, case in ARRAY_CASES.items():
        try:
            symdiff.grad(case.fn, wrt=case.wrt)
        except symdiff.SymdiffError:
            continue
        found.append(pytest.param(case, id=name))
    return found


@pytest.mark.parametrize("case", _corpus_cases())
def test_corpus_optimized_equals_unoptimized(case):
    assert_same_gradients(case.fn, case.points, case.wrt)
