"""Array facts: the shapes and dtypes the optimizer can prove of array expressions.

Expects IR expressions (``core.expr``) of a function typed by ``analysis.sweep_types``
(a name's ``Array(dtype, ndim, unit axes)`` type) and the ``Context`` of the optimizer's
run.  Guarantees answers that are certain:

- ``shape_class(e, context)``: a name whose array has the shape of ``e``'s value
  whenever both are computed (``SCALAR``: a number, which broadcasts against any array;
  None: not known).  Only names bound once, outside every branch and loop, and the
  array parameters have a class, so the name's value is there wherever ``e`` is read
  after it: the class of a name bound to an elementwise function of arrays of one class
  (or of numbers) is theirs, ``np.full_like(x, c)``, ``np.zeros_like(x)``, ``x.copy()``
  take ``x``'s; any other array is a class of its own (its root is the first name of
  the class to be bound);
- ``dtype_of(e, context)``: the float dtype of an array expression (``WEAK``: a Python
  number, which takes the array's dtype; None: not known, or not a float array);
- ``numpy_floats(context)``: the names bound once to a NumPy float (``s = np.sum(x)``)
  and their dtype; ``lengths(context)``: those bound once to an array's length, size or
  number of axes (ints far too small to overflow a float);
- ``seeds(context)``: the names bound to an array of one number (``np.full_like(x,
  1.0)``), read from their binding as it is when asked.

Whether an operation on arrays may raise, from these facts, is ``array_steps``'.

    y = -x                shape_class(y) = "x"       y = x @ w    shape_class(y) = "y"
    z = np.exp(y) * x     shape_class(z) = "x"       so ``z + y`` cannot raise
"""

from symdiff.analysis.value_types import UNKNOWN, value_type_from
from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.ir import sweeps as sw
from symdiff.optimize.walk import every_statement, name_reads, writes
from symdiff.primitives.registry import array_names, names, rule_of, typed

SCALAR = "<scalar>"  # the class of a number: it broadcasts against every array
WEAK = "<weak>"  # the dtype of a Python number: it takes the array's
ARITHMETIC = frozenset(("+", "-", "*", "/", "**"))
LIKE = frozenset(("zeros_like", "ones_like", "full_like", "empty_like"))
_REDUCTION_KEYWORDS = frozenset(("axis", "keepdims"))
_VIEWS = frozenset(("expand_dims", "squeeze", "ravel", "transpose"))
_PRODUCTS = frozenset(("outer", "inner", "dot", "matmul"))
_WEAK_TYPES = (t.FLOAT, t.INT, t.BOOL, t.NUMBER)


def _kind(expr, context):
    """The type ``expr`` certainly has (``facts.type_of``'s, in the table it keeps)."""
    if type(expr) is ex.Name:
        kind = context.types.get(expr.id)
        return None if kind is UNKNOWN else kind
    return context.remember("type", expr, lambda e: value_type_from(
        e, lambda sub: _kind(sub, context), context.types, context.module))


def classes(context):
    """``{name: root}`` of the names with a shape class, found once per run: the array
    parameters never rebound and the arrays bound once in the function's own block."""
    found = context.tables.get("shape classes")
    if found is None:
        found = context.tables["shape classes"] = {}
        context.tables["seeds"] = Seeds(context)
        context.tables["numpy floats"] = {}
        context.tables["lengths"] = []
        _find_classes(context, found)
    return found


def _find_classes(context, found):
    function = context.function
    bound = {p: 1 for p in function.params}  # whole bindings (a write to a place keeps
    for stmt in every_statement(function):   # its array's shape)
        if type(stmt) in (sw.Let, sw.AddTo) and sw.is_place(stmt.target):
            continue
        for name in writes(stmt):
            bound[name] = bound.get(name, 0) + 1
    types = context.types
    for name in function.params:
        if bound[name] == 1 and _float_array(types.get(name)):
            found[name] = name
    for stmt in function.body:
        target = getattr(stmt, "target", None)
        if type(stmt) is sw.Let and type(target) is str and bound.get(target) == 1 and (
                isinstance(types.get(target), t.Array)):
            root = shape_class(stmt.value, context)
            found[target] = root if root not in (None, SCALAR) else target
            seeds(context).bindings[target] = stmt
        elif type(stmt) is sw.Let and type(target) is str and bound.get(target) == 1 and (
                t.is_number(types.get(target))):
            if is_numpy_scalar(stmt.value, context):
                numpy_floats(context)[target] = dtype_of(stmt.value, context)
            elif _length(stmt.value, context):
                context.tables["lengths"].append(target)


def _length(expr, context):
    """``x.shape[k]``, ``x.size``, ``x.ndim`` of an array ``x``: an int below 2**63."""
    if type(expr) is ex.Subscript:
        shape = expr.value
        return type(shape) is ex.Attribute and shape.attr == "shape" and isinstance(
            array_type_of(shape.value, context), t.Array)
    return type(expr) is ex.Attribute and expr.attr in ("size", "ndim") and isinstance(
        array_type_of(expr.value, context), t.Array)


def lengths(context):
    """The names bound once, in the function's own block, to an array's length, size or
    number of axes (``n = x.shape[0]``): ints far too small to overflow a float."""
    classes(context)
    return context.tables.setdefault("lengths", [])


def numpy_floats(context):
    """``{name: dtype}`` of the names bound once, in the function's own block, to a NumPy
    float (``s = np.sum(x)``, ``m = 0.5 * s``): arithmetic on them raises nothing."""
    classes(context)
    return context.tables.setdefault("numpy floats", {})


def seeds(context):
    """``{name: np.full_like(x, c)}`` of the names with a shape class bound to an array
    of one number written out (``ones_like`` too): the name stands for that call."""
    classes(context)
    return context.tables["seeds"]


class Seeds:
    """The seeds of ``seeds``, each read from its name's binding as it is when asked (a
    pass may have made it one since the classes were found: ``np.full_like(x, dz)``
    becomes ``np.full_like(x, 1.0)`` once ``dz = 1.0`` is propagated)."""

    def __init__(self, context):
        self.context, self.bindings = context, {}  # name -> its one ``Let``

    def get(self, name, default=None):
        stmt = self.bindings.get(name)
        if stmt is None or not _constant_seed(stmt.value, self.context):
            return default
        return stmt.value

    def __getitem__(self, name):
        found = self.get(name)
        if found is None:
            raise KeyError(name)
        return found


def _constant_seed(value, context):
    return type(value) is ex.Call and numpy_call(value, context) in (
        "full_like", "ones_like") and like_arguments(value, context) and all(
        type(a) is ex.Const and type(a.value) in (int, float) for a in value.args[1:])


def _float_array(kind):
    return isinstance(kind, t.Array) and kind.dtype.startswith("float")


def numpy_call(expr, context):
    """The attribute a call of numpy's calls (``np.exp(x)``: ``"exp"``), else None."""
    func = expr.func
    if type(func) is ex.Attribute and type(func.value) is ex.Name and (
            func.value.id in context.module.numpy):
        return func.attr
    return None


def method_of_array(expr, context, method):
    func = expr.func
    return (type(func) is ex.Attribute and func.attr == method and not expr.args
            and not expr.keywords and _float_array(array_type_of(func.value, context)))


def array_type_of(expr, context):
    return context.types.get(expr.id) if type(expr) is ex.Name else None


def is_scalar(expr, context):
    """Whether ``expr`` is certainly a number (an array's ``.size``, ``.shape[k]`` too)."""
    if t.is_number(_kind(expr, context)):
        return True
    if type(expr) is ex.Attribute and expr.attr in ("size", "ndim"):
        return isinstance(array_type_of(expr.value, context), t.Array)
    if type(expr) is ex.Subscript and type(expr.value) is ex.Attribute and (
            expr.value.attr == "shape"):
        return isinstance(array_type_of(expr.value.value, context), t.Array)
    if type(expr) is ex.BinOp and expr.op in ARITHMETIC:
        return is_scalar(expr.left, context) and is_scalar(expr.right, context)
    return type(expr) is ex.UnaryOp and expr.op == "-" and is_scalar(expr.operand, context)


def _combine(found):
    if None in found:
        return None
    arrays = set(found) - {SCALAR}
    if not arrays:
        return SCALAR
    return arrays.pop() if len(arrays) == 1 else None


def elementwise_op(expr, context):
    """The registry's op of an elementwise numpy call (``np.exp(x)``) taking its
    arguments as written, else None."""
    attr = numpy_call(expr, context)
    op = names("numpy").get(attr) if attr is not None else None
    if op is None or expr.keywords or rule_of(op).arity != len(expr.args):
        return None
    return op


def shape_class(expr, context):
    """The shape class of ``expr`` (see the module's docstring)."""
    kind = type(expr)
    if kind is ex.Name:
        found = classes(context).get(expr.id)
        return found if found is not None else (SCALAR if is_scalar(expr, context) else None)
    if is_scalar(expr, context) or kind is ex.Const and type(expr.value) in (int, float):
        return SCALAR
    if kind is ex.BinOp and expr.op in ARITHMETIC:
        return _combine((shape_class(expr.left, context), shape_class(expr.right, context)))
    if kind is ex.UnaryOp and expr.op == "-":
        return shape_class(expr.operand, context)
    if kind is not ex.Call:
        return None
    if method_of_array(expr, context, "copy"):
        return shape_class(expr.func.value, context)
    attr = numpy_call(expr, context)
    if attr in LIKE and like_arguments(expr, context):
        return shape_class(expr.args[0], context)
    if elementwise_op(expr, context) is not None:
        return _combine(tuple(shape_class(a, context) for a in expr.args))
    return SCALAR if _full_reduction(expr, context) else None


def _full_reduction(expr, context):
    """``np.sum(e)`` of a float array over all its axes: a NumPy float."""
    attr = numpy_call(expr, context)
    return attr is not None and not expr.keywords and reduction_step(
        expr, context, array_names()["functions"].get(attr)) is not False


def array_kind(expr, context):
    """The ``Array`` type of the float array ``expr`` where its class and dtype are
    proven (its class's ndim and unit axes: the same shape), else None."""
    if type(expr) is ex.Name:
        found = context.types.get(expr.id)
        return found if _float_array(found) else None
    root, dtype = shape_class(expr, context), dtype_of(expr, context)
    if root in (None, SCALAR) or dtype in (None, WEAK):
        return None
    base = context.types.get(root)
    return t.Array(dtype, base.ndim, base.unit_axes) if isinstance(base, t.Array) else None


def like_arguments(expr, context):
    """``np.zeros_like(x)``, ``np.full_like(x, c)`` of a float array ``x`` and a number."""
    if expr.keywords or not expr.args or not _float_array(array_type_of(expr.args[0], context)):
        return False
    wanted = 2 if expr.func.attr == "full_like" else 1
    return len(expr.args) == wanted and all(is_scalar(a, context) for a in expr.args[1:])


def dtype_of(expr, context):
    """The float dtype of ``expr``'s value (``WEAK``: a Python number; None: not known)."""
    kind = type(expr)
    if kind is ex.Name and expr.id in numpy_floats(context):
        return numpy_floats(context)[expr.id]
    if kind is ex.BinOp or kind is ex.UnaryOp:  # of its operands (a NumPy float's too)
        found = _operation_dtype(expr, context)
        if found is not None or not is_scalar(expr, context):
            return found
    if kind is ex.Name or is_scalar(expr, context):
        found = _kind(expr, context) if kind is not ex.Name else context.types.get(expr.id)
        if _float_array(found):
            return found.dtype
        if type(expr) is not ex.Name and not t.is_number(found):
            return WEAK  # an array's size or length: a Python int
        return WEAK if found in _WEAK_TYPES else "float64" if found == t.NUMPY_FLOAT else None
    if kind is ex.Const:
        return WEAK if type(expr.value) in (int, float) else None
    if kind is ex.Attribute and expr.attr == "T" or kind is ex.Subscript:
        found = array_type_of(expr.value, context)  # a view, or an element: of its dtype
        return found.dtype if _float_array(found) else None
    if kind is not ex.Call:
        return None
    if method_of_array(expr, context, "copy"):
        return dtype_of(expr.func.value, context)
    if numpy_call(expr, context) in LIKE and like_arguments(expr, context):
        return dtype_of(expr.args[0], context)
    attr = numpy_call(expr, context)
    if attr in _VIEWS and expr.args and all(
            type(a) is ex.Const for a in expr.args[1:]) and not expr.keywords:
        return dtype_of(expr.args[0], context)  # a view of an array: of its dtype
    if elementwise_op(expr, context) is not None or attr in _PRODUCTS and not expr.keywords:
        return _promote(tuple(dtype_of(a, context) for a in expr.args))
    if attr is not None and reduction_step(expr, context, array_names()["functions"].get(
            attr)):  # a sum of float arrays keeps their dtype (a scalar of it: as strong)
        return array_kind(expr.args[0], context).dtype
    return None


def _operation_dtype(expr, context):
    if type(expr) is ex.BinOp and (expr.op in ARITHMETIC or expr.op == "@"):
        return _promote((dtype_of(expr.left, context), dtype_of(expr.right, context)))
    if type(expr) is ex.UnaryOp and expr.op == "-":
        return dtype_of(expr.operand, context)
    return None


def _promote(dtypes):
    """NumPy's result dtype of float arrays and numbers (a NumPy scalar counts as the
    float64 it may be: known only beside a float64 array)."""
    if None in dtypes:
        return None
    arrays = [d for d in dtypes if d != WEAK]
    if not arrays:
        return WEAK
    return "float64" if "float64" in arrays else arrays[0] if len(set(arrays)) == 1 else None


def is_array(expr, context):
    """Whether ``expr`` certainly evaluates to a float array of a known class."""
    return shape_class(expr, context) not in (None, SCALAR) and dtype_of(
        expr, context) not in (None, WEAK)


def is_numpy_scalar(expr, context):
    """Whether ``expr`` is arithmetic of numbers one of which at least is a NumPy float
    (``0.5 * np.sum(x)``): NumPy's scalars give inf or nan where Python's raise."""
    if not _may_read_numpy(expr, context):
        return False
    return shape_class(expr, context) == SCALAR and dtype_of(expr, context) not in (
        None, WEAK)


def _may_read_numpy(expr, context):
    """Whether ``expr`` reads a name that may hold one of NumPy's values: a NumPy float,
    an array, numpy itself, or any name whose type is not a Python number (``math`` aside).
    An expression reading none has no NumPy dtype: ``dtype_of`` finds one only from such
    a name (checked first: it is the cheaper question, and most numbers read no array)."""
    types, floats, module = context.types, numpy_floats(context), context.module
    math_name = module.math if module.math not in module.numpy else None
    for name in name_reads(expr, context):
        if name in floats or (name != math_name and types.get(name) not in _WEAK_TYPES):
            return True
    return False


def reduction_step(expr, context, op):
    """``np.sum(x, axis=k, keepdims=b)`` of a float array: a record ``total`` on arrays,
    its axis within ``x``'s and its flags constants."""
    if op is None or len(expr.args) != 1:
        return False
    array = array_kind(expr.args[0], context)
    keywords = dict(expr.keywords)
    if not _float_array(array) or not set(keywords) <= _REDUCTION_KEYWORDS:
        return False
    axis, keepdims = keywords.get("axis", ex.Const(None)), keywords.get("keepdims",
                                                                        ex.Const(False))
    if type(axis) is not ex.Const or type(keepdims) is not ex.Const or (
            type(keepdims.value) is not bool):
        return False
    if axis.value is not None and not (type(axis.value) is int and (
            -array.ndim <= axis.value < array.ndim)):
        return False
    record = rule_of(op)
    consts = (None, axis.value, keepdims.value)[:record.arity]
    rule = typed(op, (array,) + (None,) * (record.arity - 1), consts)
    return (expr.args[0],) if rule.result is not None and not rule.may_raise else False
