"""Tables: tuples and lists of numbers, indexed and measured; ``**kwargs`` entries.

Expects a ``Frame``.  A table is a module-level (or closure) tuple or list of numbers,
one written out of constants, or a helper's parameter bound to one; its elements and
its length are values with no derivative, read by a ``Compute``.  A constant index of
a known table is read now.

    T[i]           ->  T_entry = T[i]
    len(T)         ->  Const(3)               (a table known now)
    kwargs["k"]    ->  k = kwargs['k']
"""

import ast
from dataclasses import dataclass

from symdiff.errors import UnsupportedSyntaxError
from symdiff.frontend.exits import own_nodes
from symdiff.ir import nodes as ir
from symdiff.core.types import table_values
from symdiff.lower import names, ranges
from symdiff.lower.operands import operand_ast, reads_of


@dataclass(frozen=True)
class Table:
    """A table bound to a helper's parameter: the name generated code reads it by, and
    its values (None for one known only when the gradient runs)."""

    name: str
    values: tuple = None


def table_uses(tree, index=None):
    """The names a function uses as tables: indexed, measured by ``len``, looped over
    (``index``: the tree's ``NodeIndex``, when at hand)."""
    found = set()
    for node in own_nodes(tree) if index is None else index.own:
        if isinstance(node, ast.Subscript):
            found.add(node.value)
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) in (
                "len", "enumerate", "zip"):
            found.update(node.args)
        elif isinstance(node, ast.For) and not isinstance(node.iter, ast.Call):
            found.add(node.iter)
    return {n.id for n in found if isinstance(n, ast.Name)}


def table(frame, node):
    """``(name generated code uses, values)`` of a table: a module-level (or closure)
    tuple or list of numbers, or one written out of constants.  A parameter used as a
    table is one known only when the gradient runs: its values are None."""
    if isinstance(node, ast.Name) and node.id in frame.tables:
        return frame.tables[node.id]  # a helper's parameter, bound to a table
    written = None if isinstance(node, ast.Name) else ranges.written_range(frame, node)
    if written is not None:
        return written, None  # ``len(range(n))``: the range, computed first
    if isinstance(node, ast.Name) and names.meaning_of(frame, node.id, node).kind == "local":
        operand = names.name_operand(frame, node)
        if isinstance(operand, ir.Var) and operand.name in frame.unit.ranges:
            return operand.name, None  # a range, read-only (``ranges``)
        if isinstance(operand, ir.Var) and operand.name not in frame.unit.params:
            raise frame.error(UnsupportedSyntaxError, node, f"{node.id} is indexed here, "
                              "but holds no list or tuple at this point",
                              "build the list before it is read (before the loop), or index "
                              "a parameter or a table defined at module level")
        if isinstance(operand, ir.Var):
            frame.unit.table_names.setdefault(operand.name, frame.error(
                UnsupportedSyntaxError, node, f"{node.id} is read as a table of numbers "
                "here, so the gradient cannot be taken with respect to it",
                "name the parameters to differentiate by in wrt"))
            return operand.name, None
    if isinstance(node, (ast.Tuple, ast.List)):
        elements = [frame.value(element) for element in node.elts]
        if not all(isinstance(o, ir.Const) for o in elements):
            raise frame.error(UnsupportedSyntaxError, node,
                              "a table of values that are not all constants is not supported",
                              "loop over range(...) and compute each value in the loop")
        values = tuple(o.value for o in elements)
        return frame.unit.global_name("table", values), values
    if isinstance(node, ast.Name):
        meaning, preferred = names.meaning_of(frame, node.id, node), node.id
    elif isinstance(node, ast.Attribute):  # (a field of an object: ``system_coeffs``)
        meaning = names.module_member(frame, node)
        preferred = meaning.name or node.attr
    else:
        meaning, preferred = None, None
    if meaning is not None and meaning.kind in ("other", "constant"):
        nested = names.is_nested_table(meaning.value)
        raise frame.error(UnsupportedSyntaxError, node,
                          f"`{ast.unparse(node)}` is {names.describe(meaning.value)}, not a table "
                          "of numbers", "a table of tables is not supported: flatten it into "
                          "one table and index it as T[i * width + j]" if nested else
                          "index or loop over a tuple or list of numbers")
    if meaning is None or meaning.kind != "table":
        raise frame.error(UnsupportedSyntaxError, node,
                          f"`{ast.unparse(node)}` is not a tuple or list of numbers",
                          "only tables of numbers defined at module level (or written out) "
                          "can be indexed or looped over")
    return frame.unit.global_name(preferred, meaning.value), table_values(meaning.value)


def kwargs_entry(frame, node, key, default, target):
    """``kwargs["dose"]`` or ``kwargs.get("k", default)``: read when the gradient runs."""
    if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
        raise frame.error(UnsupportedSyntaxError, key, "a keyword argument read with a key "
                          "that is not a string constant", 'write the key out: kwargs["k"]')
    kwargs = ast.Name(frame.mapping[frame.parsed.tree.args.kwarg.arg].name, ast.Load())
    reads = (kwargs.id,)
    if default is None:
        expr = ast.Subscript(kwargs, ast.Constant(key.value), ast.Load())
    else:
        fallback = names.comparand(frame, default)  # a number, None or a string
        reads += reads_of(fallback)
        expr = ast.Call(ast.Attribute(kwargs, "get", ast.Load()),
                        [ast.Constant(key.value), operand_ast(fallback)], [])
    return ir.Var(frame.compute(target or frame.namer.fresh(key.value if key.value.isidentifier()
                                                            else "keyword"), expr, reads))


def table_element(frame, node, target):
    """``TABLE[i]``: a value with no derivative, read from a table of numbers."""
    if names.is_kwargs(frame, node.value):
        return kwargs_entry(frame, node, node.slice, None, target)
    if isinstance(node.slice, ast.Slice):
        raise frame.error(UnsupportedSyntaxError, node.slice, "a slice is not supported",
                          "index one element: TABLE[i]")
    name, values = table(frame, node.value)
    index = frame.value(node.slice)
    if isinstance(index, ir.Const) and values is not None:
        try:
            return ir.Const(values[index.value])
        except (IndexError, TypeError) as exc:
            raise frame.error(UnsupportedSyntaxError, node, f"{ast.unparse(node)}: {exc}",
                              "index with a whole number inside the table") from None
    return table_entry(frame, name, values, index, target)


def table_entry(frame, name, values, index, target=None):
    """Emit ``target = name[index]``, a value with no derivative; its operand."""
    element = ast.Subscript(ast.Name(name, ast.Load()), operand_ast(index), ast.Load())
    reads = reads_of(index) + ((name,) if values is None else ())
    return ir.Var(frame.compute(target or frame.namer.fresh(f"{frame.hint}_entry"), element,
                                reads))


def table_length(frame, node, target=None):
    """``len(TABLE)``: a number now, or for a parameter, when the gradient runs."""
    name, values = table(frame, node)
    if values is not None:
        return ir.Const(len(values))
    length = ast.Call(ast.Name("len", ast.Load()), [ast.Name(name, ast.Load())], [])
    return ir.Var(frame.compute(target or frame.namer.fresh(f"{name}_length"), length,
                                (name,)))
