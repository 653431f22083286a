"""Arrays: what the user's code does with a NumPy array besides calling NumPy's
functions, one operation per statement.

Expects a ``Frame`` of a function generated for the kinds of its arguments, some of
them arrays (``Unit.arrays``).  Guarantees, for an expression that reads an array
through an attribute or a method, its operand (None where ``node`` is not one, so the
caller goes on as before):

- ``x.T`` is the record ``transpose`` of ``x`` (``attribute``);
- ``x.shape``, ``x.shape[k]``, ``x.ndim``, ``x.size`` and ``len(x)`` are integers read
  when the gradient runs (``Compute``), never differentiated (``attribute``,
  ``subscript``, ``length``);
- ``x.sum(axis=0)``, ``x.mean()``, ``x.dot(y)``, ``x.transpose()`` are the records of
  ``numpy.sum``, ``numpy.mean``, ``numpy.dot``, ``numpy.transpose`` with ``x`` first
  (``method_call``).

    y = X.T @ w            ->   transpose_y = X.T
                                y = transpose_y @ w
    n = X.shape[0]         ->   n = X.shape[0]            (an int, read as it runs)
"""

import ast

import sys

from symdiff.core import types as t
from symdiff.errors import UnsupportedSyntaxError
from symdiff.frontend.resolve import lookup
from symdiff.ir import nodes as ir
from symdiff.lower import casts, dtypes, operands
from symdiff.lower.array_calls import written_out
from symdiff.lower.bounds import bounded
from symdiff.lower.changes import not_held
from symdiff.lower.containers import container_of, held_array, index_operand
from symdiff.lower.element_names import element_name
from symdiff.lower.names import meaning_of, scope_of
from symdiff.lower.operands import reads_of
from symdiff.primitives.indexing import add_at_op, index_op, index_pattern, write_op
from symdiff.primitives.registry import array_names, rule_of

MEASURES = ("shape", "ndim", "size")  # an array's measures: integers, read as it runs


def _on_module(frame, node):
    """Whether the attribute chain ``node`` starts at a module (``np.linalg``)."""
    root = node
    while isinstance(root, ast.Attribute):
        root = root.value
    if not isinstance(root, ast.Name):
        return False
    return scope_of(frame, root.id) is None and meaning_of(frame, root.id, root).kind == (
        "module")


def attribute(frame, node, target):
    """``x.T``, or an array's measure (``x.shape``, ``x.ndim``, ``x.size``); None for
    an attribute of a module."""
    if not frame.unit.array_code or _on_module(frame, node):
        return None
    op = array_names()["attributes"].get(node.attr)
    if op is not None:
        return operands.emit_op(frame, op, (frame.value(node.value),), target)
    if node.attr in MEASURES:
        return _measured(frame, node.value, lambda o: ast.Attribute(o, node.attr, ast.Load()),
                         target, node.attr)
    return None


def subscript(frame, node, target):
    """``x.shape[k]``: one axis's size, an integer read as the gradient runs."""
    value = node.value
    if not (frame.unit.array_code and isinstance(value, ast.Attribute) and value.attr == "shape"
            and not _on_module(frame, value)):
        return None
    if not (isinstance(node.slice, ast.Constant) and type(node.slice.value) is int or (
            isinstance(node.slice, ast.UnaryOp) and isinstance(node.slice.operand,
                                                                ast.Constant))):
        raise frame.error(UnsupportedSyntaxError, node, "an array's shape is read by a "
                          "constant axis here", "write x.shape[0], x.shape[-1], ...")
    axis = node.slice.value if isinstance(node.slice, ast.Constant) else None
    hint = "length" if axis == 0 else f"axis{axis}" if axis is not None else "size"
    return _measured(frame, value.value, lambda o: ast.Subscript(
        ast.Attribute(o, "shape", ast.Load()), node.slice, ast.Load()), target, hint)


def element(frame, node, target):
    """``x[i]``, ``x[:, j]``, ``x[1:-1]``, ``x[:, None]``, ``x[mask]``, ``x[idx]`` of an
    array (a parameter passed one, or any value that is not a container or a table the
    module holds): the record of its index's pattern (``arrays.index_pattern``); None
    for anything else."""
    value = node.value
    if not frame.unit.array_code or isinstance(value, ast.Name) and (
            value.id not in frame.unit.arrays and scope_of(frame, value.id) is None
            and _global_array(frame, value) is None) or (
            isinstance(value, ast.Attribute) and _on_module(frame, value)):
        return None
    array = frame.value(value)
    parts, operands_ = _index(frame, node.slice)
    op = index_op(index_pattern(parts))
    name = getattr(array, "name", "array")
    return operands.emit_op(frame, op, (array, *operands_),
                            target or frame.namer.fresh(f"{name}_{_index_hint(node.slice)}"))


def global_array(frame, node):
    """A NumPy array of the module read whole in a function that computes with arrays
    (``X_train`` as data): its name in the generated module, typed as the array it
    holds when the gradient is built; None for any other name."""
    found = _global_array(frame, node) if frame.unit.array_code else None
    if found is None:
        return None
    name = frame.unit.global_name(node.id, found[0])
    frame.unit.arrays[name] = found[1]
    meaning_of(frame, node.id, node)  # (read: a later rebinding builds again)
    return ir.Var(name)


def _global_array(frame, node):
    """``(value, type)`` of a global ``node`` names that is an array, or None."""
    if scope_of(frame, node.id) is not None:
        return None
    try:
        value = lookup(node.id, frame.parsed.closure, frame.parsed.globals)
    except KeyError:
        return None
    kind = t.array_type(value)
    return None if kind is None else (value, kind)


def assign_element(frame, target, value_node):
    """``x[index] = v`` of an array (a parameter passed one, or a local value that is
    not a container): ``x`` bound to the record of the write (``indexing.write_op``);
    of an array a container holds, the entry set to that write of it (``held_write``);
    False for anything else."""
    array = target.value
    if frame.unit.array_code and isinstance(array, ast.Subscript):
        return held_write(frame, target, value_node)
    if not frame.unit.array_code or not isinstance(array, ast.Name) or (
            array.id not in frame.unit.arrays and scope_of(frame, array.id) is None) or (
            container_of(frame, array, filling=True) is not None):
        return False
    current = frame.value(array)
    if not isinstance(current, ir.Var) or current.name in frame.unit.containers:
        return False
    parts, index = _index(frame, target.slice)
    return _rebound(frame, array, write_op(index_pattern(parts)), current, value_node, index)


def held_write(frame, target, value_node):
    """``c[k][index] = v`` where ``c[k]`` is an entry of a container holding an array
    (``containers.held_array``: ``dparams["w"][0] += g``): the entry read, the record of
    the write into it, and the entry set to the array written; False for anything else.

        dparams["w"][0] = g     ->   dparams_w = dparams['w']
                                     setitem_dparams = setitem_0(dparams_w, g, 0)
                                     dparams['w'] = setitem_dparams
    """
    entry = target.value
    outer = container_of(frame, entry.value, filling=True)
    if outer is None:
        return False
    name, path = outer
    path = path + (index_operand(frame, entry, name, path),)
    if not held_array(frame, name, path):
        return False
    not_held(frame, target, name)
    value = frame.value(value_node)
    frame.hint = name
    current = frame.namer.fresh(element_name(entry, path))
    frame.emit(ir.Item(current, name, path, frame.origin))
    parts, index = _index(frame, target.slice)
    written = operands.emit_op(frame, write_op(index_pattern(parts)),
                               (ir.Var(current), value, *index), None)
    frame.emit(ir.SetItem(name, path, written, frame.origin))
    return True


def add_at(frame, call):
    """``numpy.add.at(x, index, v)`` of a local array ``x`` (a statement): ``x`` bound to
    the record adding ``v`` at ``index`` (``indexing.add_at_op``), its index read as a
    subscript's, ``slice(a, b, c)`` as ``a:b:c``; False for any other call."""
    func = call.func
    if not frame.unit.array_code or not (
            isinstance(func, ast.Attribute) and func.attr == "at" and isinstance(
                func.value, ast.Attribute) and func.value.attr == "add" and _is_numpy(
                frame, func.value.value)) or len(call.args) != 3 or call.keywords:
        return False
    array, index_node, value_node = call.args
    if not isinstance(array, ast.Name) or (
            array.id not in frame.unit.arrays and scope_of(frame, array.id) is None):
        return False
    current = frame.value(array)
    items = index_node.elts if isinstance(index_node, ast.Tuple) else [index_node]
    parts, index = _index(frame, ast.Tuple([_as_slice(frame, i) for i in items], ast.Load())
                          if isinstance(index_node, ast.Tuple) else _as_slice(frame, index_node))
    return _rebound(frame, array, add_at_op(index_pattern(parts)), current, value_node, index)


def _rebound(frame, array, op, current, value_node, index):
    """``array`` (a name) bound to the record ``op`` writing the value of ``value_node``
    into ``current`` at ``index``: a new version of the array; True."""
    value = frame.value(value_node)
    name = frame.target_name(array.id)
    frame.hint = array.id
    written = operands.emit_op(frame, op, (current, value, *index), name)
    if written != ir.Var(name):
        frame.emit(ir.Assign(name, "copy", (written,), frame.origin))
    frame.mapping[array.id] = ir.Var(name)
    return True


def _is_numpy(frame, node):
    """Whether ``node`` names the module numpy."""
    return isinstance(node, ast.Name) and _on_module(frame, node) and (
        meaning_of(frame, node.id, node).value == "numpy")  # (a module's meaning: its name)


def _as_slice(frame, node):
    """``a:b:c`` for a call ``slice(a, b, c)`` of the builtin (``None`` for a bound left
    out), ``node`` itself for anything else."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords
            and 1 <= len(node.args) <= 3 and scope_of(frame, node.func.id) is None):
        return node
    try:
        if lookup(node.func.id, frame.parsed.closure, frame.parsed.globals) is not slice:
            return node
    except KeyError:
        return node
    bounds = [None if isinstance(a, ast.Constant) and a.value is None else a for a in node.args]
    bounds = [None] + bounds if len(bounds) == 1 else bounds  # ``slice(stop)``
    return ast.Slice(*(bounds + [None] * (3 - len(bounds))))


def _index(frame, index):
    """``(parts, operands)`` of an index (``indexing.index_pattern``'s parts), its
    operands evaluated in order."""
    parts, found = [], []
    for part in index.elts if isinstance(index, ast.Tuple) else [index]:
        if isinstance(part, ast.Slice):
            bounds = (part.lower, part.upper, part.step)
            width = _width(part.lower, part.upper)
            parts.append(("s",) + tuple(b is not None for b in bounds) + (
                () if width is None else (width,)))
            found += [frame.value(b) for b in bounds if b is not None]
        elif isinstance(part, ast.Constant) and part.value is None or (
                isinstance(part, ast.Attribute) and part.attr == "newaxis"
                and _is_numpy(frame, part.value)):  # ``np.newaxis`` is None
            parts.append("n")
        elif isinstance(part, ast.Constant) and part.value is Ellipsis:
            parts.append("e")
        else:
            parts.append("v")
            found.append(frame.value(part))
    return parts, found


def _width(lower, upper):
    """How far apart the bounds of a slice are where the same name, shifted by integer
    constants, gives both (``k:k + 1`` is 1, ``i - 2:i`` is 2); else None."""
    if lower is None or upper is None:
        return None
    (base, low), (top, high) = _shifted(lower), _shifted(upper)
    return high - low if base is not None and base == top else None


def _shifted(bound):
    """``(name, offset)`` of a bound ``name``, ``name + c``, ``c + name`` or ``name - c``
    (``c`` an integer constant); ``(None, 0)`` of anything else."""
    if isinstance(bound, ast.Name):
        return bound.id, 0
    if isinstance(bound, ast.BinOp) and isinstance(bound.op, (ast.Add, ast.Sub)):
        pairs = [(bound.left, bound.right)] + (
            [(bound.right, bound.left)] if isinstance(bound.op, ast.Add) else [])
        for name, constant in pairs:
            if isinstance(name, ast.Name) and isinstance(constant, ast.Constant) and (
                    type(constant.value) is int):
                sign = -1 if isinstance(bound.op, ast.Sub) else 1
                return name.id, sign * constant.value
    return None, 0


def _index_hint(index):
    """A name for what an index picks: ``i`` for ``x[i]``, ``row`` otherwise."""
    if isinstance(index, ast.Name):
        return index.id
    if isinstance(index, ast.Constant) and type(index.value) is int and index.value >= 0:
        return str(index.value)
    return "part"


def length(frame, node, target):
    """``len(x)`` of an array parameter or of a local value: its first axis's size, read
    as the gradient runs; ``len(x.shape)``: its number of axes (``unpacking``'s check of
    ``n, m = x.shape``), known now for an array the call passes; None for anything else
    (a table of the module)."""
    if frame.unit.array_code and isinstance(node, ast.Attribute) and (
            node.attr == "shape") and not _on_module(frame, node):
        operand = frame.value(node.value)
        kind = frame.unit.arrays.get(getattr(operand, "name", None))
        if kind is not None:
            return ir.Const(kind.ndim)
        return _measured(frame, node.value, lambda o: ast.Attribute(o, "ndim", ast.Load()),
                         target, "ndim")
    if not frame.unit.array_code or not isinstance(node, ast.Name) or (
            node.id not in frame.unit.arrays and scope_of(frame, node.id) is None):
        return None
    return _measured(frame, node, lambda o: ast.Call(ast.Name("len", ast.Load()), [o], []),
                     target, "length")


def method_call(frame, node, target, bind):
    """``x.sum(axis=0)`` and the other array methods: the record of the NumPy function
    of the same name, ``x`` its first argument (``bind(frame, rule, call, shown)``: the
    operands of a call of a record); None for a call of a module's function."""
    func = node.func
    if not frame.unit.array_code or _on_module(frame, func) or "numpy" not in sys.modules:
        return None  # (a method of an array, where numpy was never imported, is none)
    if func.attr == "astype":  # ``x.astype(np.float32)``: a cast of a float dtype
        op, call = casts.astype(frame, node)
    else:
        op = array_names()["methods"].get(func.attr)
        if op is None:
            return None
        call = ast.Call(ast.Attribute(ast.Name("numpy", ast.Load()), func.attr, ast.Load()),
                        [func.value] + list(node.args), node.keywords)
        ast.copy_location(call, node)
    shown = f"the method {func.attr}"
    op, call = written_out(frame, op, call, shown) or (op, call)
    op, call = bounded(op, call, method=True)  # ``x.clip(max=hi)``: ``np.minimum(x, hi)``
    call, like = dtypes.dtype_keyword(frame, op, call, shown)  # ``dtype=y.dtype``
    args = bind(frame, rule_of(op), call, shown)
    op, args = dtypes.with_dtype(frame, op, args, like, call, shown)
    rule = rule_of(op)
    module = frame.unit.global_name("np", sys.modules["numpy"])
    spelled = None if rule.array_vjp is not None else f"{module}.{call.func.attr}"  # x.clip
    return operands.emit_op(frame, op, args, target, family="numpy", module=module,
                            call=spelled)


def _measured(frame, array, make, target, hint):
    """The integer ``make(array)`` computes (an ``ast`` expression of the array's
    operand), read when the gradient runs."""
    operand = frame.value(array)
    name = target or frame.namer.fresh(f"{getattr(operand, 'name', 'array')}_{hint}")
    return ir.Var(frame.compute(name, make(operands.operand_ast(operand)),
                                reads_of(operand)))
