"""The IR printer: a ``Program`` as readable text, one statement per line.

Expects a ``Program`` (or one statement of it); guarantees text that shows every
statement with its id and the types of the names it defines, nested blocks indented,
expressions as Python writes them.  Tests compare programs by it, ``symdiff show
--debug`` prints it after the stages that make a program, and ``InternalError`` messages
about a statement quote its line.

    def f(x: float, n: int):
      #0 total: float = copy(0.0)
      #1 for i: int in range(n):
      #2   mul_total: float = mul(x, i)
      #3   total: float = add(total, mul_total)
      return total
"""

import ast

from symdiff.core import expr as ex
from symdiff.ir import nodes as ir

INDENT = "  "


def program_text(program):
    """The text of ``program``: its signature, its body, and what it returns."""
    types = program.types
    params = [_typed(p, types) for p in program.params]
    if program.kwargs:
        params.append("**" + _typed(program.kwargs, types))
    lines = [f"def {program.name}({', '.join(params)}):"]
    width = len(str(max((s.sid for s in ir.walk(program.body) if s.sid is not None),
                        default=0)))
    lines.extend(_block(program.body, program, 1, width))
    results = program.result if isinstance(program.result, tuple) else (program.result,)
    lines.append(f"{INDENT}return {', '.join(operand_text(r) for r in results)}")
    return "\n".join(lines) + "\n"


def statement_text(stmt, program=None):
    """One line for ``stmt`` (a compound statement's header only), with its id."""
    return f"#{stmt.sid} {_line(stmt, getattr(program, 'types', {}))}"


def _block(block, program, depth, width):
    lines = []
    for stmt in block:
        sid = "" if stmt.sid is None else str(stmt.sid)
        lines.append(f"{INDENT}#{sid:<{width}} {INDENT * (depth - 1)}"
                     f"{_line(stmt, program.types)}")
        if isinstance(stmt, ir.While) and stmt.pre:
            lines.extend(_block(stmt.pre, program, depth + 1, width))
            lines.append(f"{INDENT}{' ' * (width + 1)} {INDENT * (depth - 1)}do:")
        for index, nested in enumerate(_bodies(stmt)):
            if index == 1 and isinstance(stmt, ir.If):
                if not nested:
                    continue
                lines.append(f"{INDENT}{' ' * (width + 1)} {INDENT * (depth - 1)}else:")
            lines.extend(_block(nested, program, depth + 1, width))
    return lines


def _bodies(stmt):
    if isinstance(stmt, ir.If):
        return [stmt.body, stmt.orelse]
    if isinstance(stmt, (ir.For, ir.While, ir.Try)):
        return [stmt.body]
    return []


def _line(stmt, types):
    if isinstance(stmt, ir.Assign):
        args = ", ".join(operand_text(a) for a in stmt.args)
        family = ir.computed_by(stmt, types)
        called = f"  [{stmt.call}]" if stmt.call else (f"  [{family}]" if family else "")
        return f"{_typed(stmt.target, types)} = {stmt.op}({args}){called}"
    if isinstance(stmt, ir.Compute):
        return f"{_typed(stmt.target, types)} = {expression_text(stmt.expr)}"
    if isinstance(stmt, ir.If):
        return f"if {stmt.test}:"
    if isinstance(stmt, ir.For) and stmt.over is not None:
        keys = stmt.over.container + "".join(f"[{operand_text(i)}]" for i in stmt.over.path)
        keys = f"sorted({keys})" if stmt.sort else keys
        steps = f"reversed({keys})" if stmt.reverse else keys
        return f"for {_typed(stmt.target, types)} in {steps}:"
    if isinstance(stmt, ir.For):
        bounds = ", ".join(operand_text(b) for b in stmt.bounds)
        steps = f"reversed(range({bounds}))" if stmt.reverse else f"range({bounds})"
        return f"for {_typed(stmt.target, types)} in {steps}:"
    if isinstance(stmt, ir.While):
        return f"while {expression_text(stmt.test)}{', after:' if stmt.pre else ':'}"
    if isinstance(stmt, ir.BreakIf):
        return f"break if {expression_text(stmt.test)}"
    if isinstance(stmt, ir.Try):
        classes = ", ".join(expression_text(c) for c in stmt.catches)
        kept = f", {stmt.error}" if stmt.error else ""
        return f"try, catching {classes} -> {_typed(stmt.caught, types)}{kept}:"
    if isinstance(stmt, ir.Push):
        return f"{stmt.stack}.append({operand_text(stmt.value)})"
    if isinstance(stmt, ir.Pop):
        index = "" if stmt.index is None else operand_text(stmt.index)
        return f"{_typed(stmt.target, types)} = {stmt.stack}.pop({index})"
    if isinstance(stmt, ir.Build):
        if stmt.repeat is not None:
            return (f"{_typed(stmt.target, types)} = [{operand_text(stmt.items[0])}] * "
                    f"{operand_text(stmt.repeat)}")
        return f"{_typed(stmt.target, types)} = {_literal_text(ir.Literal(stmt.kind, stmt.items, stmt.keys))}"
    if isinstance(stmt, (ir.Item, ir.SetItem, ir.Share)):
        element = _element_text(stmt.container, stmt.path)
        if isinstance(stmt, ir.SetItem):
            return f"{element} = {operand_text(stmt.value)}"
        return f"{_typed(stmt.target, types)} = {element}"
    if isinstance(stmt, ir.Take):
        element = _element_text(stmt.container, stmt.path)
        bounds = ":".join("" if b is None else operand_text(b) for b in stmt.bounds)
        if stmt.copy is not None:
            extra = (f", keys={stmt.keys}" if stmt.keys else "") + (
                ", reverse=True" if stmt.descending else "")
            return f"{_typed(stmt.target, types)} = {stmt.copy}({element}{extra})"
        return f"{_typed(stmt.target, types)} = {element}[{bounds}]"
    if isinstance(stmt, ir.Join):
        parts = " + ".join(_literal_text(p) if isinstance(p, ir.Literal) else _element_text(
            p.container, p.path) for p in stmt.parts)
        return f"{_typed(stmt.target, types)} = {parts}"
    if isinstance(stmt, ir.Reduce):
        start = "" if stmt.start is None else f", {operand_text(stmt.start)}"
        if stmt.axis is not None:
            start = f", axis={stmt.axis}"
        element = _element_text(stmt.container, stmt.path)
        return f"{_typed(stmt.target, types)} = {stmt.op}({element}{start})"
    if isinstance(stmt, ir.Check) and stmt.kind == "report":
        return expression_text(stmt.value)
    if isinstance(stmt, ir.Check):
        extra = stmt.cause if stmt.kind == "raise" else stmt.message
        joint = " from " if stmt.kind == "raise" else ", "
        return f"{stmt.kind} {expression_text(stmt.value)}" + (
            "" if extra is None else joint + expression_text(extra))
    return repr(stmt)


def _element_text(container, path):
    return container + "".join(f"[{operand_text(i)}]" for i in path)


def _literal_text(literal):
    items = [_literal_text(i) if isinstance(i, ir.Literal) else operand_text(i)
             for i in literal.items]
    if literal.kind == "dict":
        return "{" + ", ".join(f"{k!r}: {i}" for k, i in zip(literal.keys, items)) + "}"
    inner = ", ".join(items) + ("," if literal.kind == "tuple" and len(items) == 1 else "")
    return f"[{inner}]" if literal.kind == "list" else f"({inner})"


def _typed(name, types):
    kind = types.get(name)
    return name if kind is None else f"{name}: {kind}"


def operand_text(operand):
    if isinstance(operand, ir.Var):
        return operand.name
    if isinstance(operand, ir.Const):
        return operand.text or repr(operand.value)
    return repr(operand)


def expression_text(expr):
    """An IR expression as Python writes it (a malformed one as its data)."""
    try:
        return ast.unparse(ex.to_ast(expr))
    except Exception:  # the printer serves error messages: it must not fail itself
        return repr(expr)
