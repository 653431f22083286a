"""Specialized: a gradient generated per kind of the arguments it is called with.

A function that reads a parameter as a container (indexes it, measures it, unpacks,
loops over or reduces it) cannot be generated before the containers' kinds are known:
a list of three numbers and a dict of two lists read differently.  (One that reads them
only as tables of data, none of them in ``wrt``, is built at once, as any function.)
``per_kinds`` says which, from the source, before anything is built.  ``Specialized``
builds the gradient on each call for the kinds of that call's arguments
(``frontend.kinds``: number; tuple or list of a length and element kinds; dict of keys
and value kinds) through ``api.build``, whose cache serves every later call of the same
kinds: a new signature costs one build, a known one a dictionary look-up.

    @grad
    def loss(params, x):        loss([0.5, 1.5], 2.0)   -> built for list[float, 2]
        w, b = params           loss.source             -> the text of that build
        return (w * x + b) ** 2

``source`` and ``graph`` are those of the last build; before any call, a located
``SymdiffError`` says to call the gradient or to use ``symdiff.source(f, *args)``.
"""

import dataclasses
import inspect
import linecache
import operator

from symdiff.backend.travel import Travels, carried, with_reread
from symdiff.errors import SymdiffError
from symdiff.core import types as t
from symdiff.frontend.guards import guard
from symdiff.frontend.kinds import kind_of, scalar_kind, uses_containers
from symdiff.frontend.object_methods import reaches_arrays
from symdiff.frontend.table_reads import (forwarded_kwargs, forwarded_kwargs_name,
                                         read_as_tables, reading_of)
from symdiff.frontend.wrt import choose
from symdiff.core.records import Function, Generator
from symdiff.core.types import is_container


def per_kinds(fn, wrt):
    """Whether the gradient of ``fn`` by ``wrt`` is generated per kind of the arguments
    of each call (``Specialized``) rather than once, when ``grad`` is applied.

    It is when ``fn`` reads a parameter as a container (``frontend.kinds``:
    ``uses_containers``) and that parameter is differentiated, or is read other than as
    a table of data (``read_as_tables``).  Decided from the source alone, before
    anything is built: a ``wrt`` that names no parameter is refused here, for any kinds.
    False when the source cannot be read: the build then says why, as for any function.
    """
    return bool(read_per_kinds(fn, wrt))


def read_per_kinds(fn, wrt):
    """The parameters that make ``fn``'s gradient by ``wrt`` generated per kind of the
    arguments (``per_kinds``), in order: those read as containers, or all of them
    where it computes with arrays; ``[]`` for none."""
    readings = {}  # function -> its reading: each helper read once, however often called
    reading = reading_of(fn, readings)
    if reading is None:
        return []
    parsed, params, helper = reading
    vararg = parsed.tree.args.vararg  # ``*args``: a tuple of the call's length, always
    star = [vararg.arg] if vararg is not None else []  # read per kinds
    if reaches_arrays(parsed):  # (or a method it calls on an object does: ``model(x)``)
        return list(params) + star
    forwarded = forwarded_kwargs(parsed.tree)
    if not uses_containers(parsed.tree, params, helper):  # most functions: one look
        return forwarded + star
    read = [p for p in params if uses_containers(parsed.tree, [p], helper)]
    chosen = choose(wrt, parsed).names
    return [p for p in read if p in chosen or not read_as_tables(parsed.tree, p, helper)
            ] + forwarded + star


def examples_needed(fn, wrt, how):
    """The located ``SymdiffError`` saying ``fn`` reads a parameter as a container, so
    its text is generated for example arguments (``how``: the way to give them, as
    ``symdiff.source(f, params, x)`` or ``--at``); None when it needs none."""
    read = read_per_kinds(fn, wrt)
    reading = reading_of(fn, {}) if read else None
    if reading is None or (not reaches_arrays(reading[0]) and all(
            read_as_tables(reading[0].tree, p, reading[2]) for p in read)):
        return None  # (read as tables of data: the build itself says why, and how)
    code = fn.__code__
    params = ", ".join({p.VAR_POSITIONAL: "*", p.VAR_KEYWORD: "**"}.get(p.kind, "") + name
                       for name, p in inspect.signature(fn).parameters.items())
    what = ("computes with arrays" if computes_with_arrays(fn) else
            f"reads {', '.join(read)} as {'a container' if len(read) == 1 else 'containers'}")
    return SymdiffError(
        f"{fn.__name__} {what}: its gradient is generated for the kinds of example "
        "arguments, and none were given", filename=code.co_filename,
        lineno=code.co_firstlineno, col_offset=0, source_line=linecache.getline(
            code.co_filename, code.co_firstlineno).rstrip("\n") or None,
        hint=how.format(name=fn.__name__, params=params))


def computes_with_arrays(fn):
    """Whether ``fn``'s source computes with NumPy arrays (``frontend.kinds``:
    ``uses_arrays``); False when it cannot be read."""
    reading = reading_of(fn, {}, depth=0)
    return reading is not None and reaches_arrays(reading[0])


def split_call(signature, args, kwargs):
    """A call's arguments as the forward-mode functions take them: the positional
    parameters' values in order (the defaults of those left out filled in, as the
    derivatives' vectors follow them; the arguments ``*args`` gathers as one tuple, as
    those functions take it) and ``{name: value}`` of the keyword-only and ``**kwargs``
    ones given (the generated function keeps their defaults).  A call Python would refuse
    raises its ``TypeError``."""
    arguments = signature.bind(*args, **kwargs).arguments
    point, named = [], {}
    for name, parameter in signature.parameters.items():
        if parameter.kind in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD):
            point.append(arguments.get(name, parameter.default))
        elif parameter.kind is parameter.KEYWORD_ONLY and name in arguments:
            named[name] = arguments[name]
        elif parameter.kind is parameter.VAR_KEYWORD:
            named.update(arguments.get(name, {}))
        elif parameter.kind is parameter.VAR_POSITIONAL:
            point.append(tuple(arguments.get(name, ())))
    return tuple(point), named


def spread_call(signature, point):
    """The positional arguments of the call that ``split_call`` gave as ``point``: the
    tuple of a ``*args`` parameter spread out again, as ``fn`` itself takes them."""
    kinds = [p.kind for p in signature.parameters.values()]  # (the positional ones first)
    if inspect.Parameter.VAR_POSITIONAL not in kinds:
        return tuple(point)
    named = kinds.index(inspect.Parameter.VAR_POSITIONAL)
    return (*point[:named], *point[named])


def chosen_values(signature, names, point, named):
    """The values of the parameters ``names`` in a call ``split_call`` gave as ``point``
    and ``named`` (a keyword-only one left out: its default)."""
    positional = [name for name, parameter in signature.parameters.items() if parameter.kind
                  in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD,
                      parameter.VAR_POSITIONAL)]
    return [point[positional.index(name)] if name in positional else
            named.get(name, signature.parameters[name].default) for name in names]


def container_kinds(fn, args, kwargs=None, signature=None, scalars=False):
    """``{parameter: type}`` for the arguments of a call that are containers, the
    defaults of the parameters it leaves out too (``signature``: ``fn``'s, when the
    caller keeps it); with ``scalars`` (a compiled gradient), those that are NumPy
    scalars of a narrow dtype too (``frontend.kinds.scalar_kind``)."""
    signature = signature or inspect.signature(fn)
    if kwargs or any(p.kind is p.VAR_POSITIONAL for p in signature.parameters.values()):
        try:
            arguments = signature.bind_partial(*args, **(kwargs or {})).arguments
        except TypeError:
            return {}  # the call itself is wrong: the generated function says so, as Python
    else:  # positional only: no binding needed
        names = list(signature.parameters)
        arguments = dict(zip(names, args))
    for name, parameter in signature.parameters.items():
        if name not in arguments and parameter.default is not parameter.empty:
            arguments[name] = parameter.default  # a container default is read as it is
        elif name not in arguments and parameter.kind is parameter.VAR_KEYWORD:
            arguments[name] = {}
        elif name not in arguments and parameter.kind is parameter.VAR_POSITIONAL:
            arguments[name] = ()  # no extra argument: ``*args`` is an empty tuple
    kinds = {}
    forwarded = forwarded_kwargs_name(fn)
    for name, value in arguments.items():
        kind = kind_of(value)
        if kind is None and name == forwarded and value == {}:
            kind = t.Dict(())  # no keyword given: ``core(x, **kwargs)`` passes none
        if kind is None and type(value) is list:  # arrays of unlike kinds, say
            refuse_unlike_list(fn, name, value)
        if is_container(kind) or isinstance(kind, (t.Array, Function, Generator)):
            kinds[name] = without_lengths(kind)
        elif scalars and scalar_kind(value) is not None:
            kinds[name] = scalar_kind(value)
    return kinds


def refuse_unlike_list(fn, name, value):
    """A located error for a list argument whose elements are arrays of unlike kinds (one
    of another dtype, number of axes, or axes of size one: ``[W1, W2]`` of a last layer
    with one output): a list has one element type, which the gradient is written for."""
    if not any(type(v).__name__ == "ndarray" for v in value):
        return
    kinds = [kind_of(v) for v in value]
    if not any(isinstance(k, t.Array) for k in kinds):
        return
    reading = reading_of(fn, {}, depth=0)
    if reading is None:
        return
    parsed = reading[0]
    where = next((a for a in parsed.tree.args.args + parsed.tree.args.kwonlyargs
                  if a.arg == name), parsed.tree)
    shown = ", ".join(dict.fromkeys(str(k) for k in kinds))
    raise parsed.error(SymdiffError, where, f"{name} is a list of unlike elements ({shown}), "
                       "and a list's elements are read as one kind",
                       "pass a tuple or a dict, whose elements may differ, or make the "
                       "arrays alike (one dtype, number of axes and axes of size one)")


def without_lengths(kind):
    """``kind`` with the lengths of its lists left out: generated code measures a list
    with ``len`` when it runs, so a list of another length needs no new build (a tuple's
    length stays: its elements may differ in kind)."""
    if isinstance(kind, t.List):
        return t.List(without_lengths(kind.elem), None)
    if isinstance(kind, t.Tuple):  # (a ``Row`` too: a list typed element by element)
        return dataclasses.replace(kind, elts=tuple(without_lengths(e) for e in kind.elts))
    if isinstance(kind, t.Dict):
        return t.with_items(kind, tuple((k, without_lengths(v)) for k, v in kind.items))
    return kind


class BuiltLater(Travels):
    """A gradient built after ``grad`` returns: ``source``, ``graph``, pickling and display
    read the ``Gradient`` that ``_built_gradient()`` gives (``fn`` and ``_options``, the
    ``(wrt, with_value, optimize)`` it is built with, are the subclass's)."""

    @property
    def source(self):
        return self._built_gradient().source

    @property
    def graph(self):
        return self._built_gradient().graph

    def _recipe(self):
        wrt, with_value, optimize = self._options
        jit = getattr(self, "_jit", None)  # the compiled target, when one was asked for
        return ("value_and_grad" if with_value else "grad", self.fn,
                {"wrt": wrt, "optimize": optimize, **({"jit": jit} if jit else {})})

    def _carried(self):
        gradient = self._built_gradient()
        state = carried(gradient.function, gradient.source, self._recipe()[0], self.__name__,
                        self.fn.__qualname__)
        reread = getattr(self, "_reread", None)  # a gradient built on first use has one
        return state if reread is None else with_reread(state, reread(), gradient.source)


class Specialized(BuiltLater):
    def __init__(self, fn, wrt, with_value, optimize, build, jit=None):
        self.fn = fn
        self._build = build  # ``api.build`` (with its ``jit`` option bound, when given)
        self._jit = jit
        self._options = (wrt, with_value, optimize)
        self._last = None
        self._signature = self.__signature__ = inspect.signature(fn)  # f's, as its text has
        self._by_kinds = {}  # kinds -> the Gradient built for them
        self._guards = {}  # (number of arguments, kinds) -> (Gradient, its dispatch)
        self._dispatch = self._anew  # what a call runs: the guard of the last call's kinds
        self._vararg = next((n for n, p in self._signature.parameters.items()
                             if p.kind is p.VAR_POSITIONAL), None)  # ``*args``'s name
        self._named = list(self._signature.parameters).index(self._vararg) if (
            self._vararg is not None) else None  # the positional parameters before it
        self.__name__ = self.__qualname__ = f"grad_{fn.__name__}"
        self.__doc__ = f"Gradient of {fn.__name__}, generated by symdiff for each kind of " \
                       "arguments."

    # A call runs ``_dispatch`` itself, found by a C getter, with no method of its own in
    # between: the guard of the last positional call's kinds, which calls the gradient
    # built for them when the arguments fit and ``_called`` when they do not.
    __call__ = property(operator.attrgetter("_dispatch"))

    def _anew(self, *args, **kwargs):
        return self._called(args, kwargs)

    def _called(self, args, kwargs):
        """A call whose kinds the last guard did not fit: its build found (or made)."""
        return self._gradient(args, kwargs).function(*args, **kwargs)

    def _gradient(self, args=(), kwargs=None):
        kinds = container_kinds(self.fn, args, kwargs, self._signature,
                                scalars=getattr(self, "_jit", None) is not None)
        key = tuple(sorted(kinds.items()))
        known = self._by_kinds.get(key)
        if known is None or not known.is_current():  # built, or built again from new values
            wrt, with_value, optimize = self._options
            known = self._by_kinds[key] = self._build(
                self.fn, wrt, with_value=with_value, optimize=optimize, kinds=kinds)
        self._dispatch = self._anew if kwargs else self._guard(len(args), key, kinds, known)
        self._last = known
        return known

    def _guard(self, count, key, kinds, known):
        """The dispatch of ``count`` positional arguments of kinds ``kinds`` (``key``) to
        the gradient ``known`` built for them: it checks that ``known`` is current too."""
        built, dispatch = self._guards.get((count, key), (None, None))
        if built is not known:
            names, star = list(self._signature.parameters)[:count], None
            if self._vararg is not None:  # the named ones, then the tuple ``*args`` holds
                names = list(self._signature.parameters)[:self._named]
                star = self._vararg if count >= len(names) else None
                if star is None:  # a default left out: the kinds read the long way
                    return self._anew
            dispatch = guard(kinds, names, known.watched(), (known.function, self._called),
                             star)
            self._guards[count, key] = (known, dispatch)
        return dispatch

    def _built_gradient(self):
        if self._last is None:
            raise SymdiffError(
                f"the gradient of {self.fn.__name__} is generated for the kinds of its "
                "arguments (it reads a parameter as a container), and it has not been "
                "called yet", hint=f"call it once, or use symdiff.source("
                f"{self.fn.__name__}, *example_args) to see the text for given arguments")
        return self._last

    def __repr__(self):
        return f"<symdiff gradient of {self.fn.__qualname__}, per kind of arguments>"


class SpecializedOfGradient(Specialized):
    """The gradient of a gradient generated per kind of the arguments (``grad(grad(f))``
    of code computing with arrays): per kind too, each build (``build``) the gradient of
    the text the inner one (``inner``) generates for those kinds."""

    def __init__(self, inner, wrt, with_value, optimize, build):
        super().__init__(inner.fn, wrt, with_value, optimize, build)
        self._inner = inner
        self.__name__ = self.__qualname__ = f"grad_{inner.__name__}"
        self.__doc__ = f"Gradient of {inner.__name__}, generated by symdiff for each kind " \
                       "of arguments."

    def _recipe(self):
        wrt, with_value, optimize = self._options
        return ("value_and_grad" if with_value else "grad", self._inner,
                {"wrt": wrt, "optimize": optimize})

    def __repr__(self):
        return f"<symdiff gradient of {self._inner.__name__}, per kind of arguments>"


def bound_instance(fn):
    """``(function, instance)`` when ``fn`` is a method bound to an instance
    (``model.loss``) or an instance whose class defines ``__call__`` in Python
    (``spring``), else None."""
    if inspect.ismethod(fn) and inspect.isfunction(fn.__func__) and not isinstance(
            fn.__self__, type):
        return fn.__func__, fn.__self__
    call = getattr(type(fn), "__call__", None)
    if not inspect.isroutine(fn) and inspect.isfunction(call) and not isinstance(
            fn, type) and not type(fn).__module__.startswith("symdiff"):
        return call, fn
    return None


def method_wrt(function, wrt):
    """The ``wrt`` of ``function`` (its first parameter the instance) for the ``wrt`` a
    caller gave its bound method: an index counts the method's own parameters (as the
    caller sees them); None is every one of them that ``wrt=None`` takes, never the
    instance, which is data unless named (``wrt="self"``)."""
    params = list(inspect.signature(function).parameters)
    if wrt is None:
        reading = reading_of(function, {})
        chosen = [n for n in (choose(None, reading[0]).names if reading else params)
                  if n != params[0]]
        if not chosen:
            return params[0]  # a method of the instance alone: by it
        return chosen[0] if len(chosen) == 1 else tuple(chosen)
    single = not isinstance(wrt, (list, tuple))
    items = [_shifted(w) for w in ([wrt] if single else wrt)]
    return items[0] if single else type(wrt)(items)


def _shifted(item):
    if type(item) is int:
        return item + 1 if item >= 0 else item
    return item


class MethodGradient:
    """The gradient of a bound method or a callable instance: the gradient of its
    function, with the instance as its first argument, read as data (its attributes are
    parameters of the kind signature, read on every call, never constants of a build);
    ``wrt`` names the method's parameters, and the instance by its name (``"self"``).
    ``kind`` names another entry point ``make`` builds the same way (``"jvp"``,
    ``"hessian"``...): its tangents and vectors follow the method's own arguments."""

    def __init__(self, function, instance, wrt, make, kind="grad"):
        self.fn, self.instance, self.kind = function, instance, kind
        self.gradient = make(function, method_wrt(function, wrt))
        self.__name__ = self.__qualname__ = f"{kind}_{function.__name__}"
        what = "Gradient" if kind == "grad" else kind
        self.__doc__ = f"{what} of {function.__qualname__}, generated by symdiff."

    def __call__(self, *args, **kwargs):
        return self.gradient(self.instance, *args, **kwargs)

    @property
    def source(self):
        return self.gradient.source

    def __repr__(self):
        what = "gradient" if self.kind == "grad" else self.kind
        return f"<symdiff {what} of the method {self.fn.__qualname__}>"
