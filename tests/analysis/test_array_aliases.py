"""A write into an array that another name still holds and reads (a view, or the same array
under another name) is refused at the write; writes nothing else shares are differentiated,
checked against central differences along random directions."""

import numpy as np
import pytest

import symdiff
from symdiff import SymdiffError

try:
    import array_oracles as oracles
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import array_oracles as oracles

RNG = np.random.default_rng(11)


def kept_view(x):
    y = x * 2.0
    head = y[:2]
    y[0] = 5.0
    return np.sum(head * y[1:3])


def same_array_by_name(x):
    y = x * 2.0
    z = y
    y[0] = 5.0
    return np.sum(z * y)


def transposed_view(x):
    y = np.outer(x, x)
    t = y.T
    y[0, 1] = 5.0
    return np.sum(t * 1.5)


def view_read_in_the_loop(x):
    y = x * 2.0
    head = y[:2]
    s = 0.0
    for i in range(3):
        s = s + np.sum(head)
        y[0] = y[0] * 2.0
    return s


def reshaped_view(x):
    y = x * 1.0
    m = y.reshape(2, 2)
    y[3] = 0.0
    return np.sum(m ** 2)


def parameter_held_by_a_dict(x):
    q = {"w": x, "u": x * 2.0}
    q["w"][0] = 5.0 * x[1]
    return np.sum(x * q["u"])


def array_held_by_a_list(x):
    h = np.sin(x)
    q = [h, x]
    q[0][0] = 5.0 * x[1]
    return np.sum(h * x)


def entry_read_out_before_the_write(x):
    q = [np.sin(x), x]
    e = q[0]
    q[0][0] = 5.0 * x[1]
    return np.sum(e * x)


@pytest.mark.parametrize("f", [kept_view, same_array_by_name, transposed_view,
                               view_read_in_the_loop, reshaped_view, parameter_held_by_a_dict,
                               array_held_by_a_list, entry_read_out_before_the_write],
                         ids=lambda f: f.__name__)
def test_a_write_another_name_sees_is_refused_at_the_write(f):
    with pytest.raises(SymdiffError, match="shares its memory") as refused:
        symdiff.grad(f)(RNG.normal(size=4))
    error = refused.value
    assert error.source_line.strip().startswith(("y[", "q["))
    assert "copy" in str(error)


def written_twice(x):
    y = x * 2.0
    y[0] = 5.0
    y[1] = y[0] * x[1]
    return np.sum(y)


def rows_written_in_a_loop(x):
    y = np.zeros((3, 4))
    for i in range(3):
        row = y[i]
        y[i] = row + x * (i + 1.0)
    return np.sum(y ** 2)


def view_copied(x):
    y = x * 1.0
    head = y[:2].copy()
    y[0] = 5.0
    return np.sum(head) * np.sum(y ** 2)


def view_taken_after(x):
    y = x * 1.0
    y[0] = 5.0
    head = y[:2]
    return np.sum(head * x[:2])


def indexed_by_an_array(x):
    y = x * 1.0
    picked = y[np.array([0, 2])]  # a copy: NumPy's advanced indexing
    y[0] = 5.0
    return np.sum(picked * y[1:3])


def entry_written_and_read_through_its_list(x):
    q = [np.sin(x), x * 2.0]
    q[0][0] = 5.0 * x[1]
    return np.sum(q[0] * q[1])


@pytest.mark.parametrize("f", [written_twice, rows_written_in_a_loop, view_copied,
                               view_taken_after, indexed_by_an_array,
                               entry_written_and_read_through_its_list],
                         ids=lambda f: f.__name__)
def test_writes_nothing_else_shares_are_differentiated(f):
    x = RNG.normal(size=4)
    gradient = symdiff.grad(f)(x)
    for _ in range(3):
        v = RNG.normal(size=4)
        assert np.isclose(np.sum(gradient * v), oracles.directional(f, (x,), 0, v), rtol=1e-6, atol=1e-6)
