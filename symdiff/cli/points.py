"""Points: what ``--at`` gives, read as Python literals.

Expects the text of one ``--at``: values separated by commas, as the arguments of a call
are written, each a Python literal read by ``ast.literal_eval`` (a number, a string, or a
tuple, list or dict of them, nested), positional in parameter order or named
(``xs=[1.0, 2.0], y=3``); ``inf`` and ``nan`` are the floats; an array is a call of one
of NumPy's constructors with such literals (``np.array([[1.0, 2.0]], dtype="float32")``,
``np.ones((2, 3))``, ``np.linspace(0, 1, 5)``; ``np.`` or ``numpy.`` may be left out),
anywhere a value goes, inside a dict too.  Guarantees ``read(text)``:
a tuple of the values when all are positional (whole numbers stay ints, for ``range``),
else a ``Named`` point; a text that is not such a list of literals raises ``ValueError``
with the reason.  ``Named.bind(fn)`` gives the positional tuple for the function's
parameters.

    read("1.5,3")                   -> (1.5, 3)
    read("[1.0, 2.0], 3")           -> ([1.0, 2.0], 3)
    read('p={"w": 1.0}, x=2')       -> Named((), {"p": {"w": 1.0}, "x": 2})
    read("np.zeros(2), 0.5")        -> (array([0., 0.]), 0.5)
"""

import ast
import inspect
import math
from dataclasses import dataclass, field

_FLOAT_NAMES = {"inf": math.inf, "infinity": math.inf, "nan": math.nan}


@dataclass
class Named:
    """A point with some values named: ``args`` in order, then ``keywords``."""

    args: tuple
    keywords: dict = field(default_factory=dict)

    def bind(self, fn):
        """The point as positional values in the order of ``fn``'s parameters (those left
        out of the text keep their defaults)."""
        try:
            bound = inspect.signature(fn).bind(*self.args, **self.keywords)
        except TypeError as exc:
            raise ValueError(f"{fn.__name__} does not take this point: {exc}") from None
        bound.apply_defaults()
        return tuple(bound.arguments.values())

    def __len__(self):
        return len(self.args) + len(self.keywords)


class _Floats(ast.NodeTransformer):
    """``inf`` and ``nan`` (any case) as float constants, so ``literal_eval`` takes them."""

    def visit_Name(self, node):
        value = _FLOAT_NAMES.get(node.id.lower())
        if value is None:
            raise ValueError(f"{node.id} is not a literal (write strings in quotes)")
        return ast.copy_location(ast.Constant(value), node)


def read(text):
    """The values of one ``--at`` text (see the module)."""
    try:
        call = ast.parse(f"point({text})", mode="eval").body
    except SyntaxError as exc:
        raise ValueError(f"it is not Python: {exc.msg}") from None
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
            and call.func.id == "point") or len(call.args) + len(call.keywords) == 0:
        raise ValueError("give at least one value")
    if any(isinstance(arg, ast.Starred) for arg in call.args) or any(
            keyword.arg is None for keyword in call.keywords):
        raise ValueError("* and ** are not literals")
    args = tuple(_literal(arg) for arg in call.args)
    keywords = {keyword.arg: _literal(keyword.value) for keyword in call.keywords}
    return Named(args, keywords) if keywords else args


def _literal(node):
    if isinstance(node, ast.Call):
        return _array(node)
    if isinstance(node, (ast.List, ast.Tuple)):
        values = [_literal(element) for element in node.elts]
        return values if isinstance(node, ast.List) else tuple(values)
    if isinstance(node, ast.Dict) and None not in node.keys:
        return {_literal(key): _literal(value) for key, value in zip(node.keys, node.values)}
    try:
        return ast.literal_eval(_Floats().visit(node))
    except ValueError as exc:
        if "literal" in str(exc) and "malformed" not in str(exc):
            raise
        raise ValueError(f"`{ast.unparse(node)}` is not a literal") from None


_CONSTRUCTORS = ("array", "asarray", "zeros", "ones", "full", "eye", "linspace", "arange")
_DTYPES = ("float64", "float32", "float16", "int64", "int32", "int8", "bool_", "float",
           "int", "bool")


def _array(node):
    """The array a call of one of NumPy's constructors with literals makes."""
    name = _dotted(node.func)
    function = name.removeprefix("np.").removeprefix("numpy.") if name else None
    if function not in _CONSTRUCTORS or any(isinstance(a, ast.Starred) for a in node.args):
        raise ValueError(f"`{ast.unparse(node)}` is not a literal (arrays are written as "
                         f"np.array([...]) or another of NumPy's {', '.join(_CONSTRUCTORS)})")
    try:
        import numpy
    except ImportError:
        raise ValueError("an array needs NumPy, which is not installed") from None
    args = [_literal(arg) for arg in node.args]
    keywords = {k.arg: _dtype(k.value) if k.arg == "dtype" else _literal(k.value)
                for k in node.keywords}
    try:
        return getattr(numpy, function)(*args, **keywords)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"`{ast.unparse(node)}`: {exc}") from None


def _dtype(node):
    """A dtype written as a string or a name (``"float32"``, ``np.float32``, ``float``)."""
    name = node.value if isinstance(node, ast.Constant) else _dotted(node)
    name = name.removeprefix("np.").removeprefix("numpy.") if isinstance(name, str) else None
    if name not in _DTYPES:
        raise ValueError(f"`{ast.unparse(node)}` is not a dtype: give one of "
                         f"{', '.join(_DTYPES)}")
    return name


def _dotted(node):
    """``np.array`` of a name or an attribute of names; None for anything else."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return None if base is None else f"{base}.{node.attr}"
    return None
