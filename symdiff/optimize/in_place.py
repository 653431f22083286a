"""In place: accumulations into array buffers that the gradient allocated and no other name
holds become ``d += g``, and a copy made only to be written (``y = x.copy()`` then
``y[i] = v``) is left out where nothing reads ``x``'s array again.

Expects a generated function as IR after the other passes reached their fixed point (the
driver runs these last, once: a later pass could make a name share another's array).
Guarantees the same results, bit for bit, and the same exceptions:

- ``AddTo(d, g)`` on a float array ``d`` is marked ``owned`` (written ``d += g``, which
  adds the same numbers into ``d``'s own memory) when every binding of ``d`` makes a new
  array (an arithmetic operation, a NumPy function that computes one, ``*_like``, a
  copy) or is such an accumulation, ``g`` has ``d``'s dtype (``d + g`` would not change
  it), and no read of ``d`` lets its array escape: each is an operand of an operation
  that makes a new array, a shape read, the target of a write into ``d`` itself, or the
  value returned; never a name bound to it, a save on a stack, a view kept by a name;
- ``y = x.copy()`` becomes ``y = x`` where ``x`` is bound once, to a new array, in the
  function's own block, and every other read of ``x`` anywhere only reads its shape
  (``x.shape``, ``np.zeros_like(x)``): the writes into ``y`` change an array nothing
  else reads.

    dU = np.zeros_like(U)                  dU = np.zeros_like(U)
    for t in ...:             ──►          for t in ...:
        dU = dU + np.outer(g, x)               dU += np.outer(g, x)
"""

from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.ir import sweeps as sw
from symdiff.optimize.arrays import WEAK, dtype_of
from symdiff.optimize.effects import NUMPY_ALLOCATING, NUMPY_PURE
from symdiff.optimize.walk import every_statement, writes
from symdiff.primitives.registry import names

_SHAPE = frozenset(("shape", "size", "ndim", "dtype"))
_NEW = frozenset(("+", "-", "*", "/", "**", "@"))


def accumulate_in_place(function, context):
    """Mark the accumulations into owned array buffers ``owned`` (see the module)."""
    types = context.types
    arrays = {name for name, kind in types.items()
              if isinstance(kind, t.Array) and kind.dtype.startswith("float")}
    if not arrays:
        return False
    candidates = arrays - set(function.params) - _not_owned(function, context, arrays)
    changed = False
    for stmt in every_statement(function):
        if type(stmt) is sw.AddTo and type(stmt.target) is str and (
                stmt.target in candidates) and not stmt.owned and (
                dtype_of(stmt.value, context) in (WEAK, types[stmt.target].dtype)):
            stmt.owned = changed = True
    return changed


def _not_owned(function, context, arrays):
    """The arrays bound other than to a new array, or whose array may escape."""
    found = set()
    for stmt in every_statement(function):
        kind = type(stmt)
        if kind is sw.Let and type(stmt.target) is str and not _makes_new(
                stmt.value, context):
            found.add(stmt.target)
        elif kind not in (sw.Let, sw.AddTo):
            found.update(n for n in writes(stmt) if n in arrays)  # a pop, a loop's variable
        found.update(_escaping(stmt, context))
    return found


def _numpy_function(call, context):
    func = call.func
    if type(func) is ex.Attribute and type(func.value) is ex.Name and (
            func.value.id in context.module.numpy):
        return func.attr
    return None


def _makes_new(value, context):
    """Whether evaluating ``value`` gives an array no name holds yet."""
    kind = type(value)
    if kind is ex.BinOp:
        return value.op in _NEW
    if kind is ex.UnaryOp:
        return value.op == "-"
    if kind is not ex.Call:
        return False
    attr = _numpy_function(value, context)
    if attr is not None:
        return attr in NUMPY_ALLOCATING or attr in NUMPY_PURE or attr in names("numpy")
    func = value.func
    return type(func) is ex.Attribute and func.attr == "copy" and not value.args


def _escaping(stmt, context):
    """The names whose array ``stmt`` may let another name (or a stack) hold."""
    kind = type(stmt)
    found = set()
    if kind is sw.Let or kind is sw.AddTo:
        place = sw.is_place(stmt.target)
        if place:
            _visit(stmt.target.index, True, found, context)
        into_array = place and isinstance(context.types.get(sw.target_name(stmt.target)),
                                          t.Array)  # (a list or dict would hold it)
        _visit(stmt.value, into_array or kind is sw.AddTo, found, context)
    elif kind is sw.Return:
        _visit(stmt.value, True, found, context, returned=True)
    elif kind is sw.Do and type(stmt.value) is ex.Call and _adds_at(stmt.value, context):
        for arg in stmt.value.args:
            _visit(arg, True, found, context)
    else:
        for expr in sw.expressions(stmt):
            _visit(expr, kind in (sw.If, sw.While, sw.For), found, context)
    return found


def _adds_at(call, context):
    """``np.add.at(d, index, g)``: it adds into ``d``, keeps none of its arguments."""
    func = call.func
    return type(func) is ex.Attribute and func.attr == "at" and type(
        func.value) is ex.Attribute and func.value.attr == "add" and type(
        func.value.value) is ex.Name and func.value.value.id in context.module.numpy


def _visit(expr, consumed, found, context, returned=False):
    """Add to ``found`` the names read in ``expr`` whose array its value may hold
    (``consumed``: the value is used up by an operation making a new one)."""
    kind = type(expr)
    if kind is ex.Name:
        if not consumed:
            found.add(expr.id)
    elif kind in (ex.BinOp, ex.UnaryOp, ex.Compare):
        for child in ex.children(expr):
            _visit(child, True, found, context)
    elif kind is ex.Subscript:  # a view of the array: held where the subscript is
        _visit(expr.value, consumed, found, context)
        _visit(expr.index, True, found, context)
    elif kind is ex.Attribute:
        _visit(expr.value, consumed or expr.attr in _SHAPE, found, context)
    elif kind is ex.Call:
        _visit_call(expr, found, context)
    elif kind in (ex.Tuple, ex.List, ex.Dict) and returned:
        for child in ex.children(expr):
            _visit(child, True, found, context, returned=True)
    else:
        for child in ex.children(expr):
            _visit(child, False, found, context)


def _visit_call(expr, found, context):
    attr = _numpy_function(expr, context)
    func = expr.func
    method = type(func) is ex.Attribute and func.attr == "copy" and not expr.args
    uses_up = method or attr is not None and (
        attr in NUMPY_ALLOCATING or attr in NUMPY_PURE or attr in names("numpy"))
    if method:
        _visit(func.value, True, found, context)
    elif attr is None:
        _visit(func, False, found, context)
    for child in expr.args + tuple(v for _, v in expr.keywords):
        _visit(child, uses_up, found, context)


def write_copies_in_place(function, context):
    """``y = x.copy()`` as ``y = x`` where only shapes of ``x`` are read elsewhere."""
    bound = {}
    for stmt in every_statement(function):
        for name in writes(stmt):
            bound[name] = bound.get(name, 0) + 1
    fresh = {stmt.target for stmt in function.body
             if type(stmt) is sw.Let and type(stmt.target) is str and bound.get(
                 stmt.target) == 1 and stmt.target not in function.params and _makes_new(
                 stmt.value, context) and isinstance(context.types.get(stmt.target), t.Array)}
    reads = {}  # name -> [(statement, whole read)] of the reads that are not of shapes
    for stmt in every_statement(function):
        for expr in sw.expressions(stmt):
            _value_reads(expr, fresh, stmt, reads, context)
    changed = False
    for name in fresh:
        found = reads.get(name, [])
        if len(found) == 1 and _copy_of(found[0][1], name) and type(found[0][0]) is sw.Let and (
                found[0][0].value is found[0][1]) and type(found[0][0].target) is str:
            found[0][0].value = ex.Name(name)
            changed = True
    return changed


def _copy_of(expr, name):
    func = getattr(expr, "func", None)
    return type(expr) is ex.Call and not expr.args and not expr.keywords and type(
        func) is ex.Attribute and func.attr == "copy" and func.value == ex.Name(name)


def _value_reads(expr, names, stmt, found, context):
    """Record in ``found`` each read of one of ``names`` in ``expr`` other than of its
    shape (``x.shape``, ``x.size``, ``np.zeros_like(x)``), with the expression read."""
    if type(expr) is ex.Name:
        if expr.id in names:
            found.setdefault(expr.id, []).append((stmt, expr))
        return
    if type(expr) is ex.Attribute and expr.attr in _SHAPE and type(expr.value) is ex.Name:
        return
    if type(expr) is ex.Call and _numpy_function(expr, context) in (
            "zeros_like", "ones_like", "empty_like") and len(expr.args) == 1 and (
            type(expr.args[0]) is ex.Name) and not expr.keywords:
        return
    if _copy_of(expr, getattr(getattr(expr, "func", None), "value", ex.Name("")).id
                if type(getattr(getattr(expr, "func", None), "value", None)) is ex.Name
                else "") and expr.func.value.id in names:
        found.setdefault(expr.func.value.id, []).append((stmt, expr))
        return
    for child in ex.children(expr):
        _value_reads(child, names, stmt, found, context)
