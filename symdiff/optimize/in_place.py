"""In place: accumulations into array buffers that the gradient allocated and no other name
holds become ``d += g``, and a copy made only to be written (``y = x.copy()`` then
``y[i] = v``) is left out where nothing reads ``x``'s array again.

Expects a generated function as IR after the other passes reached their fixed point: the
driver runs ``write_copies_in_place`` then (and the passes again, for the names it freed)
and ``accumulate_in_place`` last of all, once (a later pass could make a name share
another's array).
Guarantees the same results, bit for bit, and the same exceptions:

- ``AddTo(d, g)`` on a float array ``d`` is marked ``owned`` (written ``d += g``, which
  adds the same numbers into ``d``'s own memory) when every binding of ``d`` makes a new
  array (an arithmetic operation, a NumPy function that computes one, ``*_like``, a
  copy) or is such an accumulation, ``g`` has ``d``'s dtype (``d + g`` would not change
  it), and no read of ``d`` lets its array escape: each is an operand of an operation
  that makes a new array, a shape read, the target of a write into ``d`` itself, or the
  value returned; never a name bound to it, a save on a stack, a view kept by a name;
- ``y = x.copy()`` becomes ``y = x`` where ``x`` and ``y`` hold arrays of their own
  (every binding of either makes a new array or binds one to the other, neither is a
  parameter, popped or a loop's variable, and neither's array escapes) and ``x``'s values
  are not read again before ``x`` is bound anew in the copy's block (a loop's
  ``out = y`` after the write), or, in the function's own block, never after the copy
  (``x.shape``, ``np.zeros_like(x)`` read only its shape, which a write keeps): the writes
  into ``y`` change an array nothing else reads.

    dU = np.zeros_like(U)                  dU = np.zeros_like(U)
    for t in ...:             ──►          for t in ...:
        dU = dU + np.outer(g, x)               dU += np.outer(g, x)
"""

from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.ir import sweeps as sw
from symdiff.optimize.arrays import WEAK, dtype_of
from symdiff.optimize.effects import NUMPY_ALLOCATING, NUMPY_PURE
from symdiff.optimize.walk import blocks, every_statement, statements, writes
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
            _visit(expr, kind in (sw.If, sw.While, sw.For, sw.Try), found, context)
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
    """``y = x.copy()`` as ``y = x`` where nothing needs ``x``'s array as it was."""
    changed = False
    for block in blocks(function):
        for at, stmt in enumerate(block):
            if _elidable(function, block, at, context):
                stmt.value = stmt.value.func.value
                changed = True
    return changed


def _elidable(function, block, at, context):
    """Whether the copy ``block[at]`` (``y = x.copy()``) may be ``y = x``: ``x`` and
    ``y`` hold new arrays of their own (bound to new arrays, to each other, or by this
    copy), neither's array escapes, and ``x``'s value is not read again before ``x`` is
    bound anew in this block (or, in the function's own block, is never read again)."""
    stmt = block[at]
    if type(stmt) is not sw.Let or type(stmt.target) is not str or not _copy_of(
            stmt.value, getattr(getattr(stmt.value, "func", None), "value", False)):
        return False
    x, y = stmt.value.func.value, stmt.target
    if type(x) is not ex.Name or x.id == y or not all(
            _float_array(context.types.get(n)) for n in (x.id, y)):
        return False
    pair = {x.id, y}
    if pair & set(function.params) or not _owns_pair(function, pair, stmt, context):
        return False
    for later in block[at + 1:]:
        if _reads_value(later, x.id, context):
            return False
        if type(later) is sw.Let and later.target == x.id:
            return True  # bound anew: its old array is no longer needed
    if block is not function.body:
        return False
    return all(_before(function.body, at, s) for s in every_statement(function)
               if s is not stmt and _reads_value(s, x.id, context))


def _float_array(kind):
    return isinstance(kind, t.Array) and kind.dtype.startswith("float")


def _is_alias(stmt, pair):
    return type(stmt) is sw.Let and type(stmt.value) is ex.Name and (
        {stmt.target, stmt.value.id} & pair)


def _owns_pair(function, pair, copy, context):
    """Whether every binding of the names of ``pair`` makes a new array or binds one of
    them to the other, and none of their arrays escapes but into the other."""
    for stmt in every_statement(function):
        if stmt is copy:
            continue
        if _is_alias(stmt, pair):
            if not {stmt.target, stmt.value.id} <= pair:
                return False
            continue
        if type(stmt) is sw.Let and stmt.target in pair and not _makes_new(
                stmt.value, context):
            return False
        if type(stmt) not in (sw.Let, sw.AddTo) and set(writes(stmt)) & pair:
            return False  # a pop, a loop's variable
        if _escaping(stmt, context) & pair:
            return False
    return True


def _reads_value(stmt, name, context):
    """Whether ``stmt`` (or one nested in it) reads ``name``'s values, not only its shape."""
    found = {}
    for inner in statements([stmt]):
        for expr in sw.expressions(inner):
            _value_reads(expr, {name}, inner, found, context)
        if type(inner) in (sw.Let, sw.AddTo) and sw.is_place(inner.target) and (
                sw.target_name(inner.target) == name):
            return True  # a write into it
    return bool(found)


def _before(body, at, stmt):
    """Whether ``stmt`` is one of the statements before ``body[at]`` (or in one)."""
    return any(stmt is inner for inner in statements(body[:at]))


def _copy_of(expr, name):
    """Whether ``expr`` is ``name.copy()``."""
    func = getattr(expr, "func", None)
    return type(expr) is ex.Call and not expr.args and not expr.keywords and type(
        func) is ex.Attribute and func.attr == "copy" and func.value == name


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
    for child in ex.children(expr):
        _value_reads(child, names, stmt, found, context)
