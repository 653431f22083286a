"""``vjp``: the vector-Jacobian product of a function returning numbers, arrays or
containers of them, generated as ``grad`` is.

``vjp(f)`` is the generated function ``vjp_f(*args, cotangent) -> (value, gradient)``:
``f``'s arguments as ``grad`` takes them (a parameter with a default may be left out, or
given by name), then the cotangent as the last positional argument, as ``jvp``'s
tangents are (``symdiff.higher``).  The cotangent has the structure of ``f``'s result: a
number for a number, an array of the result's shape for an array, a tuple, list or dict
of those (nested) for a container.  ``value`` is what ``f`` returns; ``gradient`` is the
gradient of ``<cotangent, f(*args)>``, shaped as ``grad``'s (one parameter bare, a tuple
for several, a container or an array as its parameter).  So ``vjp`` of a function
returning one number with cotangent ``1.0`` is ``value_and_grad``.  A ``*args`` of
``f`` gathers the arguments past the named ones, as in ``f``'s call; the generated
``vjp_f(x, args, cotangent)`` takes them as the tuple they are, and its gradient is a
tuple of that length, as ``grad``'s.

    @symdiff.vjp(wrt="params")
    def step(params, x):                       new, dparams = step(params, x, dnew)
        return {"w": params["w"] - 0.1 * x}

The reverse sweep is grad's, seeded by the cotangent instead of 1.0 (``ad.seed``); the
result's kind is type inference's, never found by running ``f``.  A function that reads a
parameter as a container or computes with arrays is generated per kind of its arguments
(the cotangent's kind is not part of the key: it is the result's), as ``grad`` is
(``specialized``).  JAX's ``jax.vjp(f, *primals)`` returns ``(value, pullback)`` and
autograd's ``make_vjp`` ``(pullback, value)``: here one generated function takes the point
and the cotangent together, so its text is the whole computation, standalone.

A cotangent whose structure or shapes differ from the result's is refused with a
``TypeError`` naming the place (it would otherwise broadcast into a wrong gradient).
"""

import functools
import inspect
import numbers

from symdiff.api import _unwrap, build
from symdiff.backend.travel import Travels, carried
from symdiff.core import types as t
from symdiff.errors import SymdiffError, UndefinedNameError
from symdiff.frontend.guards import guard
from symdiff.higher import bind_arguments, signature
from symdiff.specialized import container_kinds, per_kinds


def vjp(fn=None, *, wrt=None, optimize=True):
    """The vector-Jacobian product of ``fn``: ``vjp_f(*args, cotangent) -> (value,
    gradient)``; ``@vjp``, ``@vjp(wrt="params")`` or ``vjp(f, wrt=(0, 1))``."""
    if fn is None:
        return functools.partial(vjp, wrt=wrt, optimize=optimize)
    fn = _unwrap(fn)
    product = VectorJacobianProduct(fn, wrt, optimize)
    if not per_kinds(fn, wrt):  # built now, for numbers, as grad is
        try:
            product.for_numbers = build(fn, wrt, with_value=True, optimize=optimize,
                                        mode="vjp")
        except UndefinedNameError:  # a helper defined further down: built on the first call
            pass
    return product


def described(program):
    """What ``checked_product`` reads of ``program``: its signature (``higher.signature``)
    and its result's type."""
    found = signature(program)
    found.kwonly, found.kw_defaults = tuple(program.kwonly), dict(program.kw_defaults)
    result = program.result
    found.result_kind = program.types.get(result.name) if hasattr(result, "name") else None
    return found


def checked_product(function, program, name, *args, **kwargs):
    """``function(*point, cotangent)`` with ``program``'s defaults filled in for the
    arguments left out (``args`` ends with the cotangent), the cotangent checked against
    the value's structure and shapes."""
    point, named = bind_arguments(program, args[:-1], kwargs, name)
    return checked_call(function, program, name, point, named, args[-1])


def checked_call(function, program, name, point, named, cotangent):
    """``function(*point, cotangent, **named)``, the cotangent checked against the
    result's type before and against its value after."""
    _refuse(name, structure_mismatch(program.result_kind, cotangent))  # before it is read
    value, gradient = function(*point, cotangent, **named)
    _refuse(name, mismatch_of(value, cotangent))  # the lengths and shapes the call gave
    return value, gradient


def _refuse(name, mismatch):
    if mismatch is not None:
        raise TypeError(f"{name}(): the cotangent {mismatch}: give one of the result's "
                        "structure (a number for a number, an array of its shape for an "
                        "array, the same keys and lengths for a container)")


def structure_mismatch(kind, cotangent, path=""):
    """Where ``cotangent`` differs from the containers of the result's type ``kind``
    (dicts' keys, tuples' lengths), said in words; None where it fits.  What the
    containers hold is left to ``mismatch_of``, on the value."""
    at = f" at {path}" if path else ""
    if isinstance(kind, t.Dict):
        keys = [k for k, _ in kind.items]
        if not isinstance(cotangent, dict) or set(cotangent) != set(keys):
            return f"is not a dict with the keys {keys}{at}"
        for key, item in kind.items:
            found = structure_mismatch(item, cotangent[key], f"{path}[{key!r}]")
            if found is not None:
                return found
    elif isinstance(kind, (t.Tuple, t.List)):
        if not isinstance(cotangent, (tuple, list)):
            return f"is not a tuple or list{at}"
        elts = kind.elts if isinstance(kind, t.Tuple) else [kind.elem] * len(cotangent)
        if len(cotangent) != len(elts):
            return f"is not a tuple or list of {len(elts)} entries{at}"
        for i, (item, c) in enumerate(zip(elts, cotangent)):
            found = structure_mismatch(item, c, f"{path}[{i}]")
            if found is not None:
                return found
    return None


def mismatch_of(value, cotangent, path=""):
    """Where ``cotangent`` differs from ``value`` in structure or shape, said in words;
    None where it fits."""
    at = f" at {path}" if path else ""
    if isinstance(value, dict):
        if not isinstance(cotangent, dict) or set(cotangent) != set(value):
            return f"is not a dict with the keys {list(value)}{at}"
        for key in value:
            found = mismatch_of(value[key], cotangent[key], f"{path}[{key!r}]")
            if found is not None:
                return found
        return None
    if isinstance(value, (tuple, list)):
        if not isinstance(cotangent, (tuple, list)) or len(cotangent) != len(value):
            return f"is not a tuple or list of {len(value)} entries{at}"
        for i, (v, c) in enumerate(zip(value, cotangent)):
            found = mismatch_of(v, c, f"{path}[{i}]")
            if found is not None:
                return found
        return None
    shape = getattr(value, "shape", None)
    if shape is not None and shape != ():
        if getattr(cotangent, "shape", None) != shape:
            return f"has shape {getattr(cotangent, 'shape', ())}{at}, the result {shape}"
        return None
    if not (isinstance(cotangent, numbers.Real) or getattr(cotangent, "shape", None) == ()):
        return f"is a {type(cotangent).__name__}{at}, where the result is a number"
    return None


def _NO_GUARD(args):
    return False  # before a call: no kinds known


class VectorJacobianProduct(Travels):
    """The vector-Jacobian product of ``fn``, generated per kind of the arguments of each
    call (``specialized``: containers, arrays; the cotangent, the last argument, is not
    part of the key).  A function of numbers is built when ``vjp`` is applied
    (``for_numbers``), and that build serves every call whose arguments are numbers; an
    array passed to it builds for arrays (its source may not show that it takes them).

    A call giving every positional parameter, none by name, is checked first against the
    kinds of the last such call by a guard (``frontend.guards``, as ``Specialized``
    does): the same kinds and a build still current cost no look-up."""

    def __init__(self, fn, wrt, optimize):
        self.fn = fn
        self._options = {"wrt": wrt, "optimize": optimize}
        self._signature = inspect.signature(fn)
        self._positional = [name for name, p in self._signature.parameters.items()
                            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        self.for_numbers = None  # the build for arguments that are all numbers
        self._last = None
        self._recent = (_NO_GUARD, None, None)  # (guard, function, described program)
        self.__name__ = self.__qualname__ = f"vjp_{fn.__name__}"
        self.__doc__ = f"Vector-Jacobian product of {fn.__name__}, generated by symdiff."

    def __call__(self, *args, **kwargs):
        if not args:
            raise TypeError(f"{self.__name__}() takes the function's arguments followed by "
                            "a cotangent of its result")
        fits, function, program = self._recent
        if not kwargs and fits(args[:-1]):  # the kinds of the last call: its build serves
            return checked_call(function, program, self.__name__, args[:-1], {}, args[-1])
        kinds = container_kinds(self.fn, args[:-1], kwargs, self._signature)
        gradient = self.for_numbers
        if kinds or gradient is None or not gradient.is_current():
            gradient = build(self.fn, self._options["wrt"], with_value=True,
                             optimize=self._options["optimize"], mode="vjp", kinds=kinds)
        self._last, program = gradient, described(gradient.program)
        if not kwargs and len(args) - 1 == len(self._positional) and not getattr(
                gradient.program, "vararg", None):  # (``*args``: bound by name below)
            self._recent = (guard(kinds, self._positional, gradient.watched()),
                            gradient.function, program)
        return checked_product(gradient.function, program, self.__name__, *args, **kwargs)

    def _built(self):
        if self._last is None and self.for_numbers is not None:
            return self.for_numbers
        if self._last is None:
            raise SymdiffError(
                f"the vjp of {self.fn.__name__} is generated for the kinds of its arguments "
                "(it reads a parameter as a container or computes with arrays), and it has "
                "not been called yet", hint="call it once with example arguments and a "
                "cotangent")
        return self._last

    @property
    def source(self):
        return self._built().source

    @property
    def graph(self):
        return self._built().graph

    def _recipe(self):
        return "vjp", self.fn, dict(self._options)

    def _carried(self):
        gradient = self._built()
        return carried(gradient.function, gradient.source, "vjp", self.__name__,
                       self.fn.__qualname__)

    def __repr__(self):
        return f"<symdiff vjp of {self.fn.__qualname__}>"
