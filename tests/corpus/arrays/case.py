"""The record of one array corpus function and the seeded data its points are made of.

A corpus module (``elementwise.py``, ``models.py``, ...) writes functions over
``np.ndarray`` and lists them as

    at(fn, point, point, ..., wrt=None, kinky=False)

where each point is a tuple of arguments.  ``wrt`` names the parameters differentiated
when not all of them are (a data matrix ``X``, labels ``y``, a mask, an index array): a
string for one (the gradient is that parameter's alone), a tuple for several (a tuple of
gradients).  ``kinky`` marks a function with a kink on its inputs (``max``, ``abs``,
``np.where`` on a value, ``np.maximum``): finite differences are not trusted near one.

The data helpers make the same arrays in every run from a string seed:

    normal("w", 3)                 -> float64 array of shape (3,), standard normal
    normal("X", 7, 3, dtype=F32)   -> float32 array of shape (7, 3)
    positive("d", 4)               -> float64 in (0.5, 2.0)
    signs("y", 7)                  -> float64 labels in {-1.0, 1.0}
    classes("c", 7, 4)             -> int64 labels in range(4)
    mask("m", 3, 4)                -> bool array with at least one True and one False
    spd("K", 3)                    -> a symmetric positive definite float64 matrix
"""

import zlib
from dataclasses import dataclass

import numpy as np

F32 = np.float32
F64 = np.float64


@dataclass(frozen=True)
class Case:
    """A function, the argument tuples to test it at, and what to differentiate by."""

    fn: object
    points: tuple
    wrt: object = None
    kinky: bool = False
    name: str = None

    def __post_init__(self):
        count = self.fn.__code__.co_argcount
        if not self.points:
            raise ValueError(f"{self.label}: no points")
        for point in self.points:
            if not isinstance(point, tuple) or len(point) != count:
                raise ValueError(f"{self.label}: a point of {len(point)} for {count} parameters")
        unknown = [name for name in self.differentiated if name not in self.params]
        if unknown:
            raise ValueError(f"{self.label}: wrt names {unknown}, not parameters")

    @property
    def label(self):
        return self.name or self.fn.__name__

    @property
    def params(self):
        code = self.fn.__code__
        return code.co_varnames[:code.co_argcount]

    @property
    def differentiated(self):
        """The names of the parameters differentiated, in the gradient's order."""
        if self.wrt is None:
            return list(self.params)
        return [self.wrt] if isinstance(self.wrt, str) else list(self.wrt)


def at(fn, *points, wrt=None, kinky=False, name=None):
    """A ``Case`` with its points given positionally, each a tuple of arguments."""
    return Case(fn, tuple(points), wrt=wrt, kinky=kinky, name=name)


def generator(seed):
    """A NumPy generator seeded by a string, the same in every run."""
    return np.random.default_rng(zlib.crc32(seed.encode()))


def normal(seed, *shape, dtype=F64, scale=1.0):
    return np.asarray(scale * generator(seed).standard_normal(shape), dtype=dtype)


def uniform(seed, *shape, lo=-1.0, hi=1.0, dtype=F64):
    return np.asarray(generator(seed).uniform(lo, hi, shape), dtype=dtype)


def positive(seed, *shape, dtype=F64):
    return uniform(seed, *shape, lo=0.5, hi=2.0, dtype=dtype)


def signs(seed, n, dtype=F64):
    found = np.where(generator(seed).random(n) < 0.5, -1.0, 1.0).astype(dtype)
    found[0] = 1.0
    if n > 1:
        found[-1] = -1.0
    return found


def classes(seed, n, k):
    return generator(seed).integers(0, k, size=n).astype(np.int64)


def mask(seed, *shape):
    found = generator(seed).random(shape) < 0.5
    flat = found.reshape(-1)
    flat[0] = True
    if flat.size > 1:
        flat[-1] = False
    return found


def spd(seed, n, dtype=F64):
    a = normal(seed, n, n)
    return np.asarray(a @ a.T / n + np.eye(n), dtype=dtype)


def well_conditioned(seed, n, dtype=F64):
    """A square matrix near ``2 I``: invertible, with a determinant of one sign nearby."""
    return np.asarray(2.0 * np.eye(n) + 0.3 * normal(seed, n, n), dtype=dtype)


def batches(make, sizes=(1, 3, 7)):
    """``make(n)`` for each batch size: the points of a function of a batch."""
    return tuple(make(n) for n in sizes)
