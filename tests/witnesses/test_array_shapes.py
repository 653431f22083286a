"""The tape's shapes and indexing (``symdiff.witnesses.tape.array_shapes``): reads by
every kind of index, writes with copy semantics, reshapes, joins and ``where``, against
central finite differences along random directions."""

import pytest

from symdiff.witnesses.tape.arrays import ArrayValue

from .array_checks import check_grad, check_vjp, tape_vjp

np = pytest.importorskip("numpy")


def _x(shape=(3, 4), seed=0):
    return np.random.default_rng(seed).normal(size=shape)


READS = {
    "int": lambda x: x[1],
    "negative int": lambda x: x[-1],
    "two ints": lambda x: x[1, 2],
    "slice": lambda x: x[1:],
    "step": lambda x: x[::2, ::-1],
    "column": lambda x: x[:, 0],
    "none": lambda x: x[:, None],
    "ellipsis none": lambda x: x[..., None, 1],
    "ellipsis": lambda x: x[..., 1],
    "int array repeats": lambda x: x[[0, 0, 2]],
    "two int arrays": lambda x: x[[0, 2, 2], [1, 1, 3]],
    "int array and slice": lambda x: x[1:, [3, 0, 3]],
    "mask": lambda x: x[x > 0],
    "row mask": lambda x: x[np.array([True, False, True])],
    "index array of ints": lambda x: x[np.array([2, 1, 2])],
    "empty tuple": lambda x: x[()],
}


@pytest.mark.parametrize("name", READS)
def test_reads(name):
    check_vjp(READS[name], (_x(seed=len(name)),))


def test_repeated_indices_add_up():
    g = np.array([1.0, 2.0, 4.0])
    (vjp,) = tape_vjp(lambda x: x[[0, 0, 2]], (np.zeros(3),), (0,), g)
    assert np.array_equal(vjp, [3.0, 0.0, 4.0])


def test_iterating_over_rows_and_len():
    def f(x):
        total = 0.0
        for row in x:
            total = total + np.sum(row ** 2) * len(row)
        return total + len(x) + x.shape[0] + x.ndim + x.size
    check_grad(f, (_x(),), wrt=(0,))


def test_a_loop_over_the_first_axis_reads_each_step():
    def rnn(W, h, x):
        for t in range(x.shape[0]):
            h = np.tanh(W @ h + x[t])
        return np.sum(h)
    rng = np.random.default_rng(1)
    check_grad(rnn, (rng.normal(size=(3, 3)), rng.normal(size=3), rng.normal(size=(5, 3))),
               wrt=(0, 1, 2))


WRITES = {
    "element": lambda x, v: _written(x, (1, 2), v[0, 0]),
    "row": lambda x, v: _written(x, 0, v[0]),
    "broadcast row": lambda x, v: _written(x, slice(1, None), v[0]),
    "column of a number": lambda x, v: _written(x, (slice(None), 1), 2.0),
    "mask": lambda x, v: _written(x, x > 0, v[x > 0] * 3.0),
    "int array": lambda x, v: _written(x, [2, 0], v[:2]),
}


def _written(x, key, value):
    y = x.copy()
    y[key] = value
    return y * x          # reads x after y was written: x keeps its own value


@pytest.mark.parametrize("name", WRITES)
def test_writes(name):
    check_vjp(WRITES[name], (_x(seed=20), _x(seed=21)), wrt=(0, 1))


def test_in_place_add_to_a_slice_keeps_the_old_value_for_earlier_reads():
    def f(x, v):
        y = x * 1.0
        before = y[:, 0] * 2.0        # read before the write
        y[:, 0] += v
        y += 1.0
        y *= x
        return np.sum(before) + np.sum(y ** 2)
    check_vjp(f, (_x(seed=2), _x((3,), seed=3)), wrt=(0, 1))


def test_writing_into_zeros_like():
    def f(x):
        out = np.zeros_like(x)
        for i in range(x.shape[0]):
            out[i] = np.sin(x[i]) * x[i - 1]
        return out
    check_vjp(f, (_x(),))


def test_writing_a_value_into_a_plain_array_is_refused():
    x = ArrayValue(np.ones(3))
    out = np.zeros(3)
    with pytest.raises(TypeError, match="derivative would be lost"):
        out[0:3] = x


RESHAPES = {
    "reshape": lambda x: x.reshape(4, 3),
    "reshape tuple": lambda x: x.reshape((2, -1)),
    "np.reshape": lambda x: np.reshape(x, (12,)),
    "reshape F": lambda x: np.reshape(x, (4, 3), order="F"),
    "ravel": lambda x: x.ravel(),
    "np.ravel": lambda x: np.ravel(x),
    "flatten": lambda x: x.flatten(),
    "expand_dims": lambda x: np.expand_dims(x, 1),
    "squeeze": lambda x: np.squeeze(x[:, None, :]),
    "squeeze axis": lambda x: x[None].squeeze(0),
    "broadcast_to": lambda x: np.broadcast_to(x[:, :1], (2, 3, 4)),
    "copy": lambda x: x.copy() + np.copy(x),
    "astype": lambda x: x.astype(float) * x.astype(np.float64),
    "take": lambda x: np.take(x, [0, 2, 2], axis=1) + np.take(x, [5, 5, 1]).sum(),
    "take_along_axis": lambda x: np.take_along_axis(x, np.array([[0, 0, 3, 1, 1]] * 3), 1),
    "take_along_axis 0": lambda x: np.take_along_axis(x, np.argsort(x, axis=0)[::-1], 0),
    "take_along_axis none": lambda x: np.take_along_axis(x, np.array([11, 0, 0, 5]), None),
}


@pytest.mark.parametrize("name", RESHAPES)
def test_reshapes(name):
    check_vjp(RESHAPES[name], (_x(),))


JOINS = {
    "concatenate": lambda a, b: np.concatenate([a, b]),
    "concatenate axis": lambda a, b: np.concatenate((a, b[:, :2], a), axis=1),
    "concatenate none": lambda a, b: np.concatenate([a, b], axis=None),
    "stack": lambda a, b: np.stack([a, b, a * b]),
    "stack axis": lambda a, b: np.stack([a, b], axis=-1),
    "vstack": lambda a, b: np.vstack([a, b[0]]),
    "hstack": lambda a, b: np.hstack([a, b]),
    "hstack 1d": lambda a, b: np.hstack([a[0], b[1]]),
    "array of rows": lambda a, b: np.array([a[0], b[1], a[2] * 2.0]),
    "array of values": lambda a, b: np.array([[a[0, 0], b[1, 1]], [1.0, a[2, 3]]]),
    "asarray": lambda a, b: np.asarray([a[0, 0], b[0, 1], 3.0]) * np.asarray(a)[0, :3],
}


@pytest.mark.parametrize("name", JOINS)
def test_joins(name):
    check_vjp(JOINS[name], (_x(seed=4), _x(seed=5)), wrt=(0, 1))


def test_where_and_clip_under_broadcasting():
    rng = np.random.default_rng(6)
    x, y, mask = rng.normal(size=(3, 4)), rng.normal(size=(4,)), rng.random((3, 4)) > 0.5
    check_vjp(lambda x, y: np.where(mask, x - y, 0.0) ** 2, (x, y), wrt=(0, 1))
    check_vjp(lambda x, y: np.where(x > y, y, x), (x, y), wrt=(0, 1))
    check_vjp(lambda x: np.clip(x, -0.5, 0.5) + x.clip(-1.0, None), (x,))
    check_vjp(lambda x, y: np.clip(x, y - 1.0, y + 1.0), (x, y), wrt=(0, 1))


def test_the_like_constants_and_the_constructors():
    def f(x):
        return (x * np.ones_like(x) + np.full_like(x, 2.0) * np.zeros_like(x)
                + np.eye(3, 4) * x + np.arange(4.0) * x + np.linspace(0, 1, 4) * x
                + np.full((3, 4), 0.5) * np.ones((3, 4)) * x)
    check_vjp(f, (_x(seed=7),))


def test_item_and_float():
    def f(x):
        return float(x[1:2, 2:3]) * x[0, 0].item() if False else float(np.sum(x[0:1, 0:1])) * x.item(5)
    check_grad(f, (_x(seed=8),), wrt=(0,))
