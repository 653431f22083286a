"""The tape's rearrangements (``symdiff.witnesses.tape.array_arrangements``) against
central finite differences along random directions."""

import pytest

from .array_checks import check_vjp

np = pytest.importorskip("numpy")

CALLS = {
    "flip": lambda x: np.flip(x), "flip axis": lambda x: np.flip(x, 1),
    "roll": lambda x: np.roll(x, 2), "roll axis": lambda x: np.roll(x, (1, -1), (0, 1)),
    "sort": lambda x: np.sort(x), "sort axis 0": lambda x: np.sort(x, axis=0),
    "sort flat": lambda x: np.sort(x, axis=None),
    "tile": lambda x: np.tile(x, 2), "tile 3d": lambda x: np.tile(x, (2, 1, 2)),
    "repeat": lambda x: np.repeat(x, 2), "repeat axis": lambda x: np.repeat(x, [1, 0, 3], 0),
    "pad": lambda x: np.pad(x, 1), "pad widths": lambda x: np.pad(x, ((1, 0), (2, 1))),
    "pad edge": lambda x: np.pad(x, 2, mode="edge"),
    "pad wrap": lambda x: np.pad(x, ((3, 1), (1, 2)), mode="wrap"),
    "pad reflect": lambda x: np.pad(x, 2, mode="reflect"),
    "triu": lambda x: np.triu(x, 1), "tril": lambda x: np.tril(x),
    "atleast_2d": lambda x: np.atleast_2d(x[0]), "atleast_1d": lambda x: np.atleast_1d(x),
    "average": lambda x: np.average(x, axis=1),
    "average weights": lambda x: np.average(x, axis=1, weights=np.arange(1.0, 5.0)),
    "average full weights": lambda x: np.average(x, weights=np.abs(x) + 1.0),
    "tensordot": lambda x: np.tensordot(x, x.T, axes=1),
    "tensordot 2": lambda x: np.tensordot(x, x * 2.0),
    "tensordot pairs": lambda x: np.tensordot(x, x, axes=([0], [0])),
    "sinc": lambda x: np.sinc(x),
    "matrix_power": lambda x: np.linalg.matrix_power(x[:, :3], 3),
    "polyval": lambda x: np.polyval(x[0], x[1:]),
    "polyval of a number": lambda x: np.polyval(x[:, 0], 0.7),
    "polyder": lambda x: np.polyder(x[0]) * np.sum(np.polyder(x[1], 2)),
    "add.outer": lambda x: np.add.outer(x[0], x[1:]),
    "subtract.outer": lambda x: np.subtract.outer(x, x[0]),
    "multiply.outer": lambda x: np.multiply.outer(x[:, 1], x),
    "divide.outer": lambda x: np.divide.outer(x[0], x[1] ** 2 + 1.0),
    "maximum.outer": lambda x: np.maximum.outer(x[0], x[1]) + np.minimum.outer(x[2], x[0]),
}


@pytest.mark.parametrize("name", CALLS)
def test_rearrangement_vjp(name):
    x = np.random.default_rng(len(name)).normal(size=(3, 4))
    check_vjp(CALLS[name], (x,))
