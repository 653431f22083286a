"""``np.tril`` and ``np.triu``: a matrix (or a stack of them) with the entries above
(below) the ``k``-th diagonal set to zero.

Expects argument types of ``symdiff.core.types``; ``k`` a constant int (``STATICS``).
Guarantees ``RECORDS``, one array record each: the operand's type (at least two axes),
its VJP the same triangle of ``g`` (the map is a projection, its own transpose), its JVP
the triangle of the tangent:

    L = np.tril(A)        dA = np.tril(g)
    U = np.triu(A, 1)     dA = np.triu(g, 1)
"""

from symdiff.core import types as t
from symdiff.primitives.arrays import _array
from symdiff.primitives.broadcasting import Text
from symdiff.primitives.record import table
from symdiff.primitives.tangents import linear


def _matrix(args, consts):
    x = args[0] if args else None
    return x if isinstance(x, t.Array) and x.ndim >= 2 else None


def _triangle(name):
    def vjp(args, out):
        return (Text(f"numpy.{name}(g, k=k)", ("x", "k")), None)
    return _array(name, f"numpy.{name}(x, k=k)", ("x", "k"), _matrix, vjp, defaults=(0,),
                  ints=("k",), numpy=(name,), total=True, jvp=linear())


RECORDS = table(_triangle("tril"), _triangle("triu"))
METHODS = {}
STATICS = {name: {"k": "int"} for name in RECORDS}
HINTS = {name: "it takes an array of two axes or more and a constant int k"
         for name in RECORDS}
