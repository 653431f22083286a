"""Guards: a check, per kind signature, that a call's arguments have exactly those kinds.

Expects the kinds a gradient was built for (``{parameter: kind}``, the containers'
kinds without their lists' lengths, as ``specialized.container_kinds`` gives them) and
the parameter names of the call's positional arguments.  Guarantees a function
``fits(args)`` that is True only when ``container_kinds`` of ``args`` would give the same
kinds, so the gradient built for them serves the call: each container is checked once
(its type, its length for a tuple, its keys in order for a dict, ``ndim``, ``dtype`` and
axes of size one for an array; a namedtuple's or a dataclass's class, fields and flags,
a function passed by identity), the numbers of a list or tuple of numbers at C speed
(``set(map(type, xs))``), never through ``kind_of``'s ABC test per number.  A False is
no verdict: the caller then finds the kinds the long way (a NumPy float, a subclass of
list or a list of mixed kinds are read there).

    >>> fits = guard({"xs": t.List(t.FLOAT)}, ["xs", "y"])
    >>> fits(([1.0, 2, 3.5], 2.0)), fits(([1.0, "a"], 2.0)), fits(((1.0, 2.0), 2.0))
    (True, False, False)

The check is written as the text of one function per signature and compiled once:
a list of containers is one loop that unpacks each, as the function itself does; a
list of tuples of numbers (data, most often, the same from call to call) is checked so
once, then only for holding the same tuples as at the last check, which the guard keeps.
"""

import itertools
import operator

from symdiff.core import types as t
from symdiff.core.records import Function, Row, Scalar, is_record, is_structured

PLAIN = frozenset({float, int})  # the numbers whose kind is a float, by exact type
SCALARS = frozenset({float, int, bool, str, type(None)})  # never a container's kind


def guard(kinds, names, watched=None, calls=None, star=None):
    """``fits(args)`` for arguments bound, in order, to parameters ``names`` and whose
    containers have ``kinds`` (any parameter not in ``kinds`` holds no container).
    ``watched``: ``(scopes, names, objects, current)``, names that must still be bound
    in their scopes to those objects, and a function asked last when not None (the
    gradient's check of the tables it read): False when one is not.

    ``calls``: ``(function, otherwise)``; the guard is then ``call(*args, **kwargs)``,
    which returns ``function(*args)`` where ``fits(args)`` is True and there are no
    keywords, and ``otherwise(args, kwargs)`` elsewhere: a call through it costs one
    Python call, not two.  ``star``: the name of a ``*args`` parameter, after ``names``,
    holding the arguments past them as a tuple (its kind, in ``kinds``, gives its length)."""
    fresh = _Fresh()
    params = [next(fresh) for _ in names]
    lines = [f"def fits(args, {_LOCALS}):"]  # args of another length: unpacking raises
    if calls is not None:  # (no defaults for the builtins: a keyword must reach kwargs)
        lines = ["def call(*args, **kwargs):", "    if kwargs:", "        return False"]
    if star is not None:  # the arguments past the named ones: the tuple ``*args`` holds
        named = len(names)  # (fewer arguments than that: unpacking raises)
        names, params = list(names) + [star], params + [next(fresh)]
        lines += ["    try:", f"        {', '.join(params[:-1])}, = args[:{named}]" if named
                  else "        pass", f"        {params[-1]} = args[{named}:]"]
    else:
        lines += ["    try:", f"        {', '.join(params)}, = args"] if params else [
            "    if args:", "        return False", "    try:", "        pass"]
    numbers = []
    for name, var in zip(names, params):
        if name in kinds:
            lines += _checks(kinds[name], var, "        ", fresh, numbers)
        else:
            lines += _fail(f"type({var}) not in SCALARS", "        ")
    lines += _numbers_checks(numbers, "        ")
    lines += ["    except ValueError:", "        return False"]
    namespace = {"PLAIN": PLAIN, "SCALARS": SCALARS, "ndarray": _ndarray(kinds.values()),
                 "chain": itertools.chain.from_iterable, "is_": operator.is_,
                 **_dtypes(kinds.values())}
    namespace.update((f"seen_{var}", [()]) for var in fresh.remembered)
    namespace.update((f"OBJECT_{i}", obj) for i, obj in enumerate(fresh.objects))
    lines += _watched_checks(watched, namespace)
    lines.append("    return True")
    text = "\n".join(lines) + "\n"
    if calls is not None:
        namespace["function"], namespace["otherwise"] = calls
        text = text.replace("return False", "return otherwise(args, kwargs)").replace(
            "return True", "return function(*args)")
    exec(compile(text, "<symdiff guard>", "exec"), namespace)
    return namespace["call" if calls is not None else "fits"]


def _watched_checks(watched, namespace):
    """Lines that return False unless each watched name is bound to its object."""
    if watched is None:
        return []
    scopes, names, objects, current = watched
    tests = []
    for i, (scope, name, obj) in enumerate(zip(scopes, names, objects)):
        namespace[f"scope{i}"], namespace[f"object{i}"] = scope, obj
        tests.append(f"scope{i}.get({name!r}) is not object{i}")
    if current is not None:
        namespace["current"] = current
        tests.append("not current()")
    return _fail(" or ".join(tests), "    ") if tests else []


_LOCALS = "type=type, float=float, tuple=tuple, list=list, PLAIN=PLAIN"  # read as locals


def _numbers_checks(numbers, indent):
    """One test that ``numbers`` are floats, and when one is not, that each is a float
    or an int (so a float costs one call of ``type``)."""
    if not numbers:
        return []
    floats = " or ".join(f"type({n}) is not float" for n in numbers)
    plain = " or ".join(f"type({n}) not in PLAIN" for n in numbers)
    return [f"{indent}if {floats}:"] + _fail(plain, indent + "    ")


class _Fresh:
    """Fresh variable names (``next``), and the lists whose last elements are kept."""

    def __init__(self):
        self.count, self.remembered = itertools.count(), []
        self.objects = []  # the classes and functions the checks compare with, by identity

    def object(self, obj):
        """The name the checks read ``obj`` by."""
        self.objects.append(obj)
        return f"OBJECT_{len(self.objects) - 1}"

    def __next__(self):
        return f"v{next(self.count)}"


def _fail(condition, indent):
    return [f"{indent}if {condition}:", f"{indent}    return False"]


def _checks(kind, var, indent, fresh, numbers):
    """Lines that return False unless ``var`` has the kind ``kind``; a number is left in
    ``numbers``, for ``_numbers_checks`` after the lines of its loop or function."""
    if kind == t.FLOAT:
        numbers.append(var)
        return []
    if isinstance(kind, t.Array):
        return _array_checks(kind, var, indent)
    if isinstance(kind, Scalar):  # a NumPy scalar of that dtype (``_dtypes``)
        return _fail(f"type({var}) is not scalar_{kind.dtype}", indent)
    if isinstance(kind, t.Tuple):
        return _tuple_checks(kind, var, indent, fresh, numbers)
    if isinstance(kind, t.List):
        return _list_checks(kind, var, indent, fresh)
    if isinstance(kind, Function):  # the very function the gradient inlines
        return _fail(f"{var} is not {fresh.object(kind.fn)}", indent)
    if is_record(kind):
        return _record_checks(kind, var, indent, fresh, numbers)
    if isinstance(kind, t.Dict):
        keys = tuple(k for k, _ in kind.items)
        lines = _fail(f"type({var}) is not dict or tuple({var}) != {keys!r}", indent)
        for key, value in kind.items:
            item = next(fresh)
            lines += [f"{indent}{item} = {var}[{key!r}]"] + _checks(
                value, item, indent, fresh, numbers)
        return lines
    return _fail("True", indent)  # a kind no argument is built for: the long way


def _record_checks(kind, var, indent, fresh, numbers):
    """A namedtuple or a dataclass by its class, its fields' kinds and its flags' values;
    a plain instance (whose attributes may come and go), or one with a static field
    other than a flag (which could hold a number next time), the long way."""
    if not is_structured(kind) or len(kind.constants) != len(kind.static):
        return _fail("True", indent)
    lines = _fail(f"type({var}) is not {fresh.object(kind.cls)}", indent)
    for name, value in kind.constants:
        field = f"{var}.{name}"
        lines += _fail(f"{field} is not {fresh.object(value)}" if callable(value) else
                       f"{field} is not {value!r}" if not isinstance(value, str) else
                       f"type({field}) is not str or {field} != {value!r}", indent)
    for name, value in kind.items:
        item = next(fresh)
        lines += [f"{indent}{item} = {var}.{name}"] + _checks(value, item, indent, fresh,
                                                              numbers)
    return lines


def _tuple_checks(kind, var, indent, fresh, numbers):
    """A tuple unpacked (in ``guard``'s ``try``), or its numbers checked at C speed."""
    size = len(kind.elts)
    if size == 0 or size > 4 and all(e == t.FLOAT for e in kind.elts):
        return _fail(f"type({var}) is not tuple or len({var}) != {size} or not set(map("
                     f"type, {var})) <= PLAIN", indent)
    lines = _fail(f"type({var}) is not {'list' if isinstance(kind, Row) else 'tuple'}", indent)
    items = [next(fresh) for _ in kind.elts]
    lines.append(f"{indent}{', '.join(items)}, = {var}")
    for elt, item in zip(kind.elts, items):
        lines += _checks(elt, item, indent, fresh, numbers)
    return lines


def _list_checks(kind, var, indent, fresh):
    """A list of numbers at C speed (an empty list is one of numbers); a list of lists of
    numbers too, through its elements chained; any other list one loop over it."""
    elem = kind.elem
    if elem == t.FLOAT:
        return _fail(f"type({var}) is not list or not set(map(type, {var})) <= PLAIN", indent)
    lines = _fail(f"type({var}) is not list or not {var}", indent)
    if elem == t.List(t.FLOAT):
        return lines + _fail(f"set(map(type, {var})) != {{list}} or not set(map(type, "
                             f"chain({var}))) <= PLAIN", indent)
    if _immutable(elem):  # the elements checked last time, unchanged: nothing to check
        fresh.remembered.append(var)
        seen = f"seen_{var}"
        lines += [f"{indent}if len({seen}[0]) != len({var}) or not all(map(is_, {var}, "
                  f"{seen}[0])):"]
        return lines + _loop_checks(elem, var, indent + "    ", fresh) + [
            f"{indent}    {seen}[0] = tuple({var})"]
    return lines + _loop_checks(elem, var, indent, fresh)


def _loop_checks(elem, var, indent, fresh):
    item, inner = next(fresh), indent + "    "
    numbers = []
    body = _checks(elem, item, inner, fresh, numbers)
    return [f"{indent}for {item} in {var}:"] + body + _numbers_checks(numbers, inner)


def _immutable(kind):
    """Whether a value of ``kind`` holds only tuples and numbers: the same object is of
    the same kind on every call (a list's elements of such a kind are checked once, and
    then only that they are the same objects, at C speed; the guard keeps them)."""
    if kind == t.FLOAT:
        return True
    return isinstance(kind, t.Tuple) and all(_immutable(e) for e in kind.elts)


def _array_checks(kind, var, indent):
    """An array by its type, dtype, number of axes and which axes have size one.  The
    dtype is NumPy's own object for the name (``dtype_float64``, from ``_dtypes``), met by
    identity: ``.dtype.name`` builds its string in Python, microseconds a call, and a
    dtype that is not that object (another byte order) takes the long way."""
    lines = _fail(f"type({var}) is not ndarray or {var}.dtype is not dtype_{kind.dtype} or "
                  f"{var}.ndim != {kind.ndim}", indent)
    sizes = [f"({var}.shape[{axis}] == 1) is not {axis in kind.unit_axes}"
             for axis in range(kind.ndim)]
    return lines + (_fail(" or ".join(sizes), indent) if sizes else [])


def _ndarray(kinds):
    """NumPy's array type when some kind is an array's (NumPy is then imported already:
    an argument was an array); None otherwise, which no argument's type is."""
    if any(_arrays(kind) for kind in kinds):
        import numpy
        return numpy.ndarray
    return None


def _dtypes(kinds):
    """``{"dtype_<name>": numpy.dtype(name)}`` for the dtypes of the array kinds, and
    ``{"scalar_<name>": numpy.<name>}`` for those of the scalar kinds."""
    names = {array.dtype for kind in kinds for array in _arrays(kind)}
    scalars = {kind.dtype for kind in kinds if isinstance(kind, Scalar)}
    if not names and not scalars:
        return {}
    import numpy
    return {**{f"dtype_{name}": numpy.dtype(name) for name in names},
            **{f"scalar_{name}": getattr(numpy, name) for name in scalars}}


def _arrays(kind):
    """The array kinds inside ``kind``."""
    if isinstance(kind, t.Array):
        return [kind]
    if isinstance(kind, t.Tuple):
        return [a for e in kind.elts for a in _arrays(e)]
    if isinstance(kind, t.List):
        return _arrays(kind.elem)
    if isinstance(kind, t.Dict):
        return [a for _, v in kind.items for a in _arrays(v)]
    return []
