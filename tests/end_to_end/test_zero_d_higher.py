"""Second order and forward mode over 0-d arrays (``np.array(0.3)``), alone and mixed with
floats and vectors: ``hessian``, ``hvp``, ``jvp`` and ``grad`` of ``grad``, against the
tape (``symdiff.tape``, which states its own derivatives) and central differences of
the tape's gradient, at random points of each function.

- a derivative by a 0-d array is a 0-d array of its dtype (float32 kept), one by a
  float a float, as the gradient is;
- ``hessian`` is symmetric and each entry the difference of the tape's gradient;
  ``hvp`` along a random vector is the difference along it; ``jvp``'s value is the
  function's and its tangent the tape's gradient along the tangents;
- ``grad(grad(f, wrt=p), wrt=q)`` is the Hessian's entry (p, q);
- ``np.asarray`` and ``np.array`` of an active float or 0-d array are differentiated.
"""

import zlib

import numpy as np
import pytest

import symdiff

F32 = np.float32


def numbers_code(s, t):
    return np.exp(s) * t + s ** 2


def against_a_vector(s, X):
    return np.sum(X * s) * s


def looped(s):
    y = s * s
    for _ in range(3):
        y = np.sin(y) + s
    return y


def both_zero_d(s, t):
    return np.sum(np.tanh(s) * t) + s * t * t


def asarray_of_a_float(x):
    return np.sum(np.asarray(x) ** 3) + x


def array_of_a_value(x, y):
    return np.sum(np.sin(np.array(x)) * y) * x


def branched(s, t):
    if s > 0:
        return s * t * np.cos(t)
    return np.exp(s) - t * s


def through_float(s, t):
    return float(np.asarray(s) ** 3) * t + np.log1p(s * s) * t


def reduced_twice(s, X):
    m = np.mean(np.exp(s * X))
    return np.log(m) * s + np.max(X) * s * s


# (function, kinds of its parameters: "0d", "float" or the length of a vector)
CASES = [
    (numbers_code, ("0d", "float")),
    (numbers_code, ("0d", "0d")),
    (against_a_vector, ("0d", 3)),
    (looped, ("0d",)),
    (both_zero_d, ("0d", "0d")),
    (asarray_of_a_float, ("0d",)),
    (asarray_of_a_float, ("float",)),
    (array_of_a_value, ("0d", "float")),
    (array_of_a_value, ("float", "0d")),
    (branched, ("0d", "0d")),
    (branched, ("0d", "float")),
    (through_float, ("0d", "float")),
    (reduced_twice, ("0d", 4)),
]
IDS = [f"{fn.__name__}-{'-'.join(map(str, kinds))}" for fn, kinds in CASES]
POINTS = 6
STEP = 1e-5


def _points(fn, kinds, dtype=np.float64):
    rng = np.random.default_rng(zlib.crc32(f"{fn.__name__}{kinds}".encode()))
    for _ in range(POINTS):
        point = []
        for kind in kinds:
            if kind == "0d":
                point.append(np.array(rng.uniform(-1.2, 1.2), dtype=dtype))
            elif kind == "float":
                point.append(float(rng.uniform(-1.2, 1.2)))
            else:
                point.append(rng.uniform(-1.0, 1.0, kind).astype(dtype))
        yield tuple(point)


def _moved(point, index, direction, h):
    moved = list(point)
    value = point[index]
    if isinstance(value, np.ndarray):
        moved[index] = (value.astype(np.float64) + h * np.asarray(direction)).astype(value.dtype)
    else:
        moved[index] = value + h * float(direction)
    return tuple(moved)


def _tape_gradient(fn, point, index):
    return np.asarray(symdiff.tape.grad(fn, wrt=index)(*point), dtype=np.float64)


def _difference(fn, point, i, j, direction=1.0):
    """d/dh of the tape's gradient by parameter ``i`` along ``direction`` of ``j``."""
    ahead = _tape_gradient(fn, _moved(point, j, direction, STEP), i)
    behind = _tape_gradient(fn, _moved(point, j, direction, -STEP), i)
    return (ahead - behind) / (2 * STEP)


def _shaped_like(found, value):
    """A derivative by ``value`` is of its kind: a 0-d (or any) array of its dtype, a
    float for a float."""
    if isinstance(value, np.ndarray):
        assert type(found) is np.ndarray and found.shape == value.shape, (found, value)
        assert found.dtype == value.dtype, (found.dtype, value.dtype)
    else:
        assert type(found) is float, (type(found), found)


def _close(found, expected, rtol=1e-6, atol=1e-6):
    assert np.allclose(np.asarray(found, dtype=np.float64), expected, rtol=rtol, atol=atol), (
        found, expected)


def _scalars(kinds):
    return all(k in ("0d", "float") for k in kinds)


@pytest.mark.parametrize("fn, kinds", [c for c in CASES if _scalars(c[1])],
                         ids=[i for i, c in zip(IDS, CASES) if _scalars(c[1])])
def test_hessian_against_differences_of_the_tape(fn, kinds):
    hessian = symdiff.hessian(fn)
    for point in _points(fn, kinds):
        found = hessian(*point)
        rows = found if len(kinds) > 1 else ((found,),)
        for i in range(len(kinds)):
            for j in range(len(kinds)):
                entry = rows[i][j]
                if isinstance(point[i], np.ndarray) or isinstance(point[j], np.ndarray):
                    assert type(entry) is np.ndarray and entry.shape == (), entry
                else:
                    assert type(entry) is float
                _close(entry, _difference(fn, point, i, j))
                _close(entry, rows[j][i], rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("fn, kinds", CASES, ids=IDS)
def test_hvp_against_differences_of_the_tape(fn, kinds):
    hvp = symdiff.hvp(fn)
    rng = np.random.default_rng(zlib.crc32(fn.__name__.encode()))
    for point in _points(fn, kinds):
        vectors = [rng.standard_normal(np.shape(p)).astype(p.dtype) if isinstance(
            p, np.ndarray) else float(rng.standard_normal()) for p in point]
        found = hvp(*point, *vectors)
        found = found if len(kinds) > 1 else (found,)
        for i, value in enumerate(point):
            _shaped_like(found[i], value)
            expected = sum(_difference(fn, point, i, j, vectors[j]) for j in range(len(kinds)))
            _close(found[i], expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("fn, kinds", CASES, ids=IDS)
def test_jvp_against_the_tape(fn, kinds):
    jvp = symdiff.jvp(fn)
    rng = np.random.default_rng(zlib.crc32(fn.__name__.encode()) + 1)
    for point in _points(fn, kinds):
        tangents = [rng.standard_normal(np.shape(p)) if isinstance(p, np.ndarray)
                    else float(rng.standard_normal()) for p in point]
        value, along = jvp(*point, *tangents)
        _close(value, fn(*point), rtol=1e-12, atol=1e-12)
        expected = sum(float(np.sum(_tape_gradient(fn, point, i) * tangents[i]))
                       for i in range(len(kinds)))
        _close(along, expected, rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("fn, kinds", CASES, ids=IDS)
def test_grad_of_grad_is_the_hessian_entry(fn, kinds):
    params = fn.__code__.co_varnames[:len(kinds)]
    scalars = [i for i, k in enumerate(kinds) if k in ("0d", "float")]
    for p in scalars:
        for q in scalars:
            twice = symdiff.grad(symdiff.grad(fn, wrt=params[p]), wrt=params[q])
            for point in list(_points(fn, kinds))[:3]:
                found = twice(*point)
                _shaped_like(found, point[q])
                _close(found, _difference(fn, point, p, q))


@pytest.mark.parametrize("fn, kinds", CASES, ids=IDS)
def test_float32_is_kept_and_agrees(fn, kinds):
    """Given float32 0-d arrays (and vectors), every derivative by them is float32, close
    to the float64 build's at the same point."""
    if "0d" not in kinds:
        pytest.skip("no array of float32 to give")
    hvp = symdiff.hvp(fn)
    for narrow in list(_points(fn, kinds, F32))[:3]:
        wide = tuple(p.astype(np.float64) if isinstance(p, np.ndarray) else p
                     for p in narrow)
        ones = [np.ones_like(p) if isinstance(p, np.ndarray) else 1.0 for p in narrow]
        low, high = hvp(*narrow, *ones), hvp(*wide, *[np.asarray(v, np.float64) if isinstance(
            v, np.ndarray) else v for v in ones])
        low, high = (low, high) if len(kinds) > 1 else ((low,), (high,))
        for value, a, b in zip(narrow, low, high):
            _shaped_like(a, value)
            _close(a, np.asarray(b, dtype=np.float64), rtol=2e-3, atol=2e-3)
        by = kinds.index("0d")
        name = fn.__code__.co_varnames[by]
        again = symdiff.grad(symdiff.grad(fn, wrt=name), wrt=name)(*narrow)
        assert type(again) is np.ndarray and again.dtype == narrow[by].dtype
        _close(again, _difference(fn, wide, by, by), rtol=2e-3, atol=2e-3)


def test_the_gradient_of_a_zero_d_array_is_read_again_as_array_code():
    """The gradient by a 0-d array whose adjoint NumPy computes as its scalar (a sum)
    ends in ``np.asarray`` of it, which symdiff reads again: forward mode over it runs."""
    point = (np.array(0.3), np.array([0.5, -1.0, 2.0]))
    text = symdiff.source(against_a_vector, *point)
    assert "np.asarray(ds)" in text
    vector = (np.array(1.0), np.zeros(3))
    _close(symdiff.hvp(against_a_vector)(*point, *vector)[0],
           _difference(against_a_vector, point, 0, 0))


@pytest.mark.parametrize("make", [lambda x: x, np.array], ids=["float", "0-d array"])
def test_asarray_of_an_active_value_gives_its_adjoint_back_as_it_was(make):
    """``np.asarray(x)`` and ``np.array(x)`` of a float give a float back (``float(g)``),
    of a 0-d array a 0-d array; the values are the tape's."""
    x = make(0.7)
    for fn in (asarray_of_a_float, lambda x: np.sum(np.array(x) * np.asarray(x)) * x):
        found = symdiff.grad(fn)(x)
        _shaped_like(found, x)
        _close(found, _tape_gradient(fn, (x,), 0), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("fn, kinds", [c for c in CASES if _scalars(c[1])],
                         ids=[i for i, c in zip(IDS, CASES) if _scalars(c[1])])
def test_jacobian_of_a_number_is_the_tape_gradient(fn, kinds):
    """A function of one number: its Jacobian is its gradient, entry by entry, of the
    kinds of the gradient (a 0-d array by a 0-d array, a float by a float)."""
    jacobian = symdiff.jacobian(fn)
    for point in list(_points(fn, kinds))[:3]:
        found = jacobian(*point)
        found = found if len(kinds) > 1 else (found,)
        for i, value in enumerate(point):
            if isinstance(value, np.ndarray):
                assert type(found[i]) is np.ndarray and found[i].shape == ()
            else:
                assert type(found[i]) is float
            _close(found[i], _tape_gradient(fn, point, i), rtol=1e-9, atol=1e-9)
