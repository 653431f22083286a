"""Records: objects read by their fields, as one more kind of container.

Part of ``core``, beside ``types``.  A namedtuple, a dataclass or a plain instance a
function reads by attribute (``p.w``, ``self.k``, ``system.mass``) has the type
``Record``: a ``types.Dict`` whose keys are the fields holding numbers, containers or
arrays, so every container pass reads ``p.w`` as the element read ``p["w"]`` and gives
it an adjoint as a dict's; what makes it a record is its class (part of the type: an
instance of another class is another type, and a gradient built for one is never used
for the other) and the names of its other fields (``static``: strings, functions,
anything without a derivative, kept as they are).

A function passed as a value has the type ``Function``: the function itself, so its
calls are inlined per kind signature.

A list argument of unlike elements has the type ``Row``: a ``types.Tuple`` (typed
element by element) that is a list when it runs.

A NumPy random generator has the type ``Generator`` (data whose draws change it).

A NumPy float scalar narrower than a float (``np.float32``) has, for a compiled gradient,
the kind ``Scalar``: a float to the program, whose dtype the compiled text computes in.

Expects nothing; guarantees ``Record``, ``Row``, ``Function``, ``Generator``, ``Scalar`` and the questions asked of them: whether its class
is a namedtuple or a dataclass (``is_structured``: its gradient is an instance of the
same class, as JAX's registered pytrees give) or a plain class (``is_plain``: read as
data unless ``wrt`` names it, its gradient a dict of its number attributes, since its
constructor need not take them).

    >>> from collections import namedtuple
    >>> Params = namedtuple("Params", "w b")
    >>> str(Record((("w", FLOAT), ("b", FLOAT)), Params))
    'Params[w: float, b: float]'
"""

import dataclasses
import functools
import sys
import sysconfig
import types
from dataclasses import dataclass

from symdiff.core.types import FLOAT, Dict, Tuple, Type  # noqa: F401 (FLOAT: the doctest's)
from symdiff.core.types import table_values


@dataclass(frozen=True)
class Record(Dict):
    """An object read by its fields (see the module): ``items`` the fields with a kind,
    ``cls`` its class, ``static`` the names of its other fields, and ``constants``
    ``(name, value)`` of those holding a string, a bool or None (a flag, read as the
    constant it is: its value is part of the type, so another value is another type)."""

    cls: object = None
    static: tuple = ()
    constants: tuple = ()
    spelled: tuple = ()  # (field, name): a function built into the record, by the name
    # the generated module holds it by (``Layer(w, math.tanh)`` built in the function)

    def __str__(self):
        fields = ", ".join(f"{k}: {t}" for k, t in self.items)
        return f"{getattr(self.cls, '__qualname__', self.cls)}[{fields}]"


@dataclass(frozen=True)
class Row(Tuple):
    """A list argument whose elements differ in kind (``[W1, b1, W2, b2]``, layers whose
    last has one output): typed element by element, as a tuple is, its length part of
    the type; a list when it runs, and its gradient a list.  A loop over it, which would
    give one name unlike kinds, is refused as a tuple's is."""

    def __str__(self):
        return f"list[{', '.join(map(str, self.elts))}]"


def is_record(kind):
    return isinstance(kind, Record)


def is_structured(kind):
    """Whether ``kind`` is a record of a namedtuple or a dataclass: its fields are its
    whole state, and its class is built from them by keyword."""
    return is_record(kind) and (is_namedtuple_class(kind.cls) or dataclasses.is_dataclass(
        kind.cls))


def is_plain(kind):
    """Whether ``kind`` is a record of a plain instance (read as data by default)."""
    return is_record(kind) and not is_structured(kind)


def is_namedtuple_class(cls):
    return isinstance(cls, type) and issubclass(cls, tuple) and hasattr(cls, "_fields")


@dataclass(frozen=True)
class Function:
    """A function passed as a value (``euler(rhs, x0, dt, n)``): the function itself, by
    identity, so a gradient built for one is never used for another; its calls are
    inlined as any helper's."""

    fn: object

    def __str__(self):
        return f"function[{getattr(self.fn, '__qualname__', self.fn)}]"


def is_function(kind):
    return isinstance(kind, Function)


def is_instance_record(obj):
    """Whether the value ``obj`` is a namedtuple or dataclass instance."""
    return (isinstance(obj, tuple) and is_namedtuple_class(type(obj))) or (
        dataclasses.is_dataclass(obj) and not isinstance(obj, type))


def is_data_object(obj):
    """Whether the value ``obj`` (a module-level or closure object) is read by its fields
    as data: a namedtuple or dataclass instance, or an instance of a class of the user's
    (``is_users_class``) holding its fields in ``__dict__`` (not a module, a class, a
    function, a method)."""
    if is_instance_record(obj):
        return True
    return hasattr(obj, "__dict__") and is_users_class(type(obj)) and not isinstance(
        obj, (type, types.ModuleType, types.FunctionType, types.MethodType,
              functools.partial))


_LIBRARY_DIRS = tuple(sysconfig.get_paths()[key] for key in ("stdlib", "platstdlib",
                                                             "purelib", "platlib"))


def is_users_class(cls):
    """Whether ``cls`` is defined in the user's code: not a builtin, not a class of the
    standard library, of an installed library (``scipy.stats.norm``'s) or of symdiff."""
    module = sys.modules.get(cls.__module__)
    filename = getattr(module, "__file__", None) or ""
    return cls.__module__ != "builtins" and cls.__module__.partition(".")[0] != "symdiff" and (
        not filename.startswith(_LIBRARY_DIRS)) and "site-packages" not in filename and (
        "dist-packages" not in filename)


@dataclass(frozen=True, eq=False)
class ClassField:
    """A class attribute a build read through an instance (``self.G`` of ``class Body: G =
    9.81``), watched by what the class holds under that name (``watched_values``)."""

    cls: type
    attr: str


def watched_values(obj):
    """What a build that read the table or module-level object ``obj`` compares to know
    it is current: a table's numbers (``table_values``), a dataclass instance's number
    fields (they may be changed in place), the identity of what a class holds as a
    ``ClassField``."""
    if isinstance(obj, ClassField):
        return (id(vars(obj.cls).get(obj.attr)),)
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return tuple(v for v in (getattr(obj, f.name) for f in dataclasses.fields(obj))
                     if isinstance(v, (int, float)))
    return table_values(obj)


@dataclass(frozen=True)
class Generator(Type):
    """A NumPy random ``Generator`` passed as an argument or made by
    ``np.random.default_rng(seed)``: data, never differentiated; each draw from it changes
    its state (``primitives.random``), so the gradient draws what the function draws."""

    def __str__(self):
        return "np.random.Generator"


GENERATOR = Generator()


@dataclass(frozen=True)
class Scalar(Type):
    """The kind of a NumPy float scalar narrower than a Python float (``np.float32``)
    passed where the program reads a float: the program computes with it as a ``Float``
    (``Program.scalars`` keeps its dtype), and a compiled target, which types a float as
    64 bits, computes in its ``dtype`` as NumPy does."""

    dtype: str  # NumPy's name: "float32", "float16"

    def __str__(self):
        return f"np.{self.dtype}"


def is_generator(kind):
    return isinstance(kind, Generator)
