"""The tape's vector-Jacobian products of a user function: ``vjp``.

Expects a user function returning a number, an array, or a tuple, list or dict of them,
nested, and the parameters to differentiate by (as ``grad`` takes them).  Guarantees
``vjp(fn, wrt)(*args)``: ``(value, pullback)``, where ``value`` is what ``fn`` returned
with its numbers as floats and its arrays as plain arrays, and ``pullback(cotangent)``
(a cotangent of ``value``'s structure and shapes) returns the gradient of
``<cotangent, fn(...)>`` shaped as ``grad`` shapes it.  ``fn`` runs once, unchanged; the
pullback may be called any number of times.

    def f(x):                        value, pullback = vjp(f)(np.array([1.0, 2.0]))
        return x * x                 pullback(np.array([1.0, 0.5]))  -> array([2., 2.])
"""

import inspect
import numbers

from symdiff.errors import SymdiffError
from symdiff.witnesses.tape.arrays import ArrayValue, Node, is_ndarray, numpy
from symdiff.witnesses.tape.gradients import (
    _gradients,
    _on_values,
    _resolve_wrt,
    _restructured,
)
from symdiff.witnesses.tape.running import on_values
from symdiff.witnesses.tape.value import Value, _walk


def _plain(out):
    """``out`` with its tape values as their numbers (floats, arrays), in its structure."""
    if type(out) is dict:
        return {key: _plain(item) for key, item in out.items()}
    if type(out) in (tuple, list):
        return type(out)(_plain(item) for item in out)
    if isinstance(out, ArrayValue):
        return out.data.copy()
    if isinstance(out, Value):
        return float(out.data)
    return out


def _edges(label, out, cotangent, path=()):
    """``(node, its cotangent)`` pairs for the tape values of ``out``, flat."""
    if type(out) is dict:
        return [e for key in out for e in _edges(label, out[key], cotangent[key], path + (key,))]
    if type(out) in (tuple, list):
        if len(out) != len(cotangent):
            raise SymdiffError(f"the cotangent of {label}'s result{_at(path)} has "
                               f"{len(cotangent)} entries, the result {len(out)}")
        return [e for i, (o, c) in enumerate(zip(out, cotangent))
                for e in _edges(label, o, c, path + (i,))]
    if isinstance(out, ArrayValue):
        c = numpy().asarray(cotangent, dtype=float)
        if c.shape != out.shape:
            raise SymdiffError(f"the cotangent of {label}'s result{_at(path)} has shape "
                               f"{c.shape}, the result {out.shape}")
        return [(out._node, c)]
    if isinstance(out, Value):
        return [(out, float(cotangent))]
    if isinstance(out, numbers.Real) or is_ndarray(out):
        return []  # does not depend on the parameters
    raise SymdiffError(f"{label} returned a {type(out).__name__}{_at(path)}",
                       hint="the tape's vjp takes numbers, arrays and containers of them")


def _at(path):
    return "".join(f"[{key!r}]" for key in path) and " at " + "".join(
        f"[{key!r}]" for key in path)


class _Cotangent:
    """A local derivative giving back a fixed cotangent: ``1.0 * _Cotangent(c)`` is ``c``."""

    __slots__ = ("value",)
    __array_ufunc__ = None

    def __init__(self, value):
        self.value = value

    def __rmul__(self, g):
        return self.value


def vjp(fn, wrt=None):
    """A function returning ``(value, pullback)`` of ``fn`` at its arguments, by the tape."""
    label, signature = getattr(fn, "__name__", repr(fn)), inspect.signature(fn)
    names, single = _resolve_wrt(label, signature, wrt)

    def at(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        inputs = {}
        for name in names:
            inputs[name] = _on_values(label, name, (), bound.arguments[name])
            bound.arguments[name] = _restructured(inputs[name])
        out = on_values(fn)(*bound.args, **bound.kwargs)

        def pullback(cotangent):
            edges = ()
            for node, c in _edges(label, out, cotangent):
                edges += (node, _Cotangent(c))
            _walk(Node(0.0, edges), 1.0)
            grads = tuple(_gradients(inputs[name]) for name in names)
            return grads[0] if single else grads
        return _plain(out), pullback

    at.__name__ = at.__qualname__ = f"vjp_{label}"
    return at
