"""Attempts: a ``try`` statement, as an ``ir.Try`` over its body and branches on the
clause that caught.

Expects a ``Frame`` and an ``ast.Try`` that passed ``fence`` and ``desugar``.  Guarantees
an ``ir.Try`` holding the lowered body and the classes of the ``except`` clauses, in
their order (a bare ``except`` catches ``BaseException``, as Python's does), then the
handlers, each in the branch of ``caught == k`` for its clause ``k``, the ``else``
block in the branch where nothing was caught (and the body did not return), and the
``finally`` block after them all.  ``except E as e`` binds ``e`` to the exception the
``Try`` keeps; a bare ``raise`` in a handler raises it again.

    try:                                    Try:  [t = math.log(x); y = t * 2]
        y = math.log(x) * 2                       catches (ValueError,), sets caught
    except ValueError:          ──►         cond = caught == 1
        y = x                               if cond: y = x
    return y * x                            result = y * x

What the gradient cannot follow is refused here, with the location: a loop inside a
``try`` body (the reverse sweep would have to stop part way through an iteration), a
``return``, ``break``, ``continue`` or ``raise`` in a ``finally`` block, and a ``finally``
inside another ``try`` (an exception the inner ``try`` lets through runs its
``finally`` in ``f``; the gradient leaves at once).
"""

import ast
import builtins

from symdiff.errors import UnsupportedSyntaxError
from symdiff.frontend.exits import contains
from symdiff.frontend.fence import fence_handler
from symdiff.core import expr as ex
from symdiff.ir import nodes as ir
from symdiff.lower import containers, control
from symdiff.lower.checks import class_expression

_EXITS = (ast.Return, ast.Break, ast.Continue, ast.Raise)


def stmt_Try(frame, node):
    """Lower ``try``/``except``/``else``/``finally`` (see the module's docstring)."""
    _refuse(frame, node)
    control.enter_compound(frame, node)
    origin = frame.origin
    if not node.handlers:  # try/finally: the body, then the finally block
        with frame.nested():
            frame.block(node.body)
        frame.block(node.finalbody)
        return
    catches, reads = [], []
    for handler in node.handlers:
        classes, read = class_expression(frame, handler.type)
        catches.append(classes)
        reads += read
    caught = frame.namer.fresh("caught")
    error = frame.namer.fresh("error") if _keeps_error(node) else None
    exits = control.exit_flags(frame, ast.Module(body=node.body, type_ignores=[]))
    frame.flag_reads.update(exits)
    frame.attempts += 1
    try:
        with frame.nested():
            body = frame.sub_block(node.body)
            _loops_refused(frame, body, node)
    finally:
        frame.attempts -= 1
    if not _may_raise(frame, body, catches):  # no clause can run: the body, then else
        frame.out.extend(body)
        with frame.nested():
            frame.out.extend(_orelse(frame, node, None, exits))
        frame.block(node.finalbody)
        return
    frame.emit(ir.Try(body, tuple(catches), caught, error, origin,
                      tuple(dict.fromkeys(reads))))
    with frame.nested():
        frame.out.extend(_handlers(frame, node, caught, error, exits, 0))
    frame.block(node.finalbody)


def _may_raise(frame, body, catches):
    """Whether a statement of the lowered ``body`` may raise what a clause of
    ``catches`` catches: any but a copy of a value, a constant set and the length of a
    container (``n = len(xs)`` of a list; ``len(rows[i])`` of a row, which can raise
    only a ``LookupError``, when no clause catches one)."""
    lookups = _catch_lookups(catches)
    for stmt in ir.walk(body):
        if isinstance(stmt, ir.Assign) and stmt.op == "copy":
            continue
        if isinstance(stmt, ir.Compute) and (isinstance(stmt.expr, ex.Const) or (
                _length(frame, stmt.expr, lookups))):
            continue
        return True
    return False


def _length(frame, expr, lookups):
    """Whether ``expr`` is ``len(xs)`` of a container ``xs`` this lowering knows, or
    (``lookups`` false) ``len(xs[i])`` of a container element of one."""
    if not (isinstance(expr, ex.Call) and expr.func == ex.Name("len")
            and len(expr.args) == 1 and not expr.keywords):
        return False
    found = _element(expr.args[0])
    if found is None or (found[1] and lookups):
        return False
    name, path = found
    operand = ir.Ref(name, path) if path else ir.Var(name)
    return containers.is_container_operand(frame, operand)


def _element(expr):
    """``(name, path)`` of ``xs`` or ``xs[i][0]`` (indices names or constants), or None."""
    path = []
    while isinstance(expr, ex.Subscript):
        index = expr.index
        if isinstance(index, ex.Name):
            path.append(ir.Var(index.id))
        elif isinstance(index, ex.Const) and isinstance(index.value, (int, str)):
            path.append(ir.Const(index.value))
        else:
            return None
        expr = expr.value
    if not isinstance(expr, ex.Name):
        return None
    return expr.id, tuple(reversed(path))


def _catch_lookups(catches):
    """Whether a clause may catch an ``IndexError`` or a ``KeyError``: it names one of
    their classes or bases, or a class that is not a builtin exception."""
    for classes in catches:
        for node in ex.walk(classes):
            if not isinstance(node, ex.Name):
                continue
            meant = getattr(builtins, node.id, None)
            if not (isinstance(meant, type) and issubclass(meant, BaseException)):
                return True
            if issubclass(IndexError, meant) or issubclass(KeyError, meant):
                return True
    return False


def _orelse(frame, node, caught, exits):
    """The ``else`` block, in the branch where nothing was caught and the body did not
    leave (``caught`` None: nothing can be caught)."""
    if not node.orelse:
        return []
    if caught is None and not exits:
        return frame.sub_block(node.orelse)
    parts = [] if caught is None else [
        ast.Compare(ast.Name(caught, ast.Load()), [ast.Eq()], [ast.Constant(0)])]
    if exits:  # the body returned: the else block does not run
        parts.append(ast.UnaryOp(ast.Not(), _any(exits)))
    test = parts[0] if len(parts) == 1 else ast.BoolOp(ast.And(), parts)
    frame.set_origin(node.orelse[0])
    reads = ([] if caught is None else [caught]) + list(exits)
    out, cond = frame.capture(lambda: frame.compute(frame.namer.fresh("cond"), test, reads))
    return out + [ir.If(cond, frame.sub_block(node.orelse), [], frame.origin)]


def _handlers(frame, node, caught, error, exits, index):
    """The statements that run the ``except`` clauses from ``index`` on, then ``else``:
    each in the branch of ``caught == k``."""
    if index == len(node.handlers):
        return _orelse(frame, node, caught, exits)
    handler = node.handlers[index]
    fence_handler(frame.parsed, handler)
    frame.set_origin(handler)
    test = ast.Compare(ast.Name(caught, ast.Load()), [ast.Eq()], [ast.Constant(index + 1)])
    out, cond = frame.capture(lambda: frame.compute(frame.namer.fresh("cond"), test,
                                                    (caught,)))
    origin = frame.origin
    bound = frame.mapping.get(handler.name) if handler.name else None
    if handler.name:
        frame.mapping[handler.name] = ir.Var(error)
    frame.handling.append(error)
    try:
        body = frame.sub_block(handler.body)
    finally:
        frame.handling.pop()
        if handler.name and bound is not None:
            frame.mapping[handler.name] = bound
        elif handler.name:
            del frame.mapping[handler.name]
    orelse = _handlers(frame, node, caught, error, exits, index + 1)
    return out + [ir.If(cond, body, orelse, origin)]


def _any(flags):
    names = [ast.Name(f, ast.Load()) for f in flags]
    return names[0] if len(names) == 1 else ast.BoolOp(ast.Or(), names)


def _keeps_error(node):
    """Whether a handler reads the exception: by its ``as`` name or a bare ``raise``."""
    for handler in node.handlers:
        for sub in ast.walk(ast.Module(body=handler.body, type_ignores=[])):
            if isinstance(sub, ast.Raise) and sub.exc is None:
                return True
            if handler.name and isinstance(sub, ast.Name) and sub.id == handler.name:
                return True
    return False


def _refuse(frame, node):
    for stmt in node.finalbody:
        for sub in ast.walk(stmt):
            if isinstance(sub, _EXITS):
                raise frame.error(UnsupportedSyntaxError, sub, "a return, break, continue "
                                  "or raise in a finally block is not supported",
                                  "move it after the try statement")
    if node.finalbody and frame.attempts:
        raise frame.error(UnsupportedSyntaxError, node, "a try with a finally block inside "
                          "the body of another try is not supported",
                          "move the finally block's statements after the outer try")
    if node.finalbody and node.handlers and contains(
            [h for h in node.handlers], ast.Raise):
        raise frame.error(UnsupportedSyntaxError, node, "a try whose handler raises and "
                          "that has a finally block is not supported",
                          "move the finally block's statements before the raise")


def _loops_refused(frame, body, node):
    """Refuse a loop lowered into a ``try`` body (a helper's or a comprehension's too)."""
    for stmt in node.body:
        for sub in ast.walk(stmt):
            if isinstance(sub, (ast.For, ast.While)):
                raise frame.error(UnsupportedSyntaxError, sub, _IN_BODY, _OUTSIDE)
    for stmt in ir.walk(body):
        if isinstance(stmt, (ir.For, ir.While)):
            origin = stmt.origin
            raise UnsupportedSyntaxError(_IN_BODY, filename=origin.filename,
                                         lineno=origin.lineno, col_offset=origin.col_offset,
                                         source_line=origin.line, hint=_OUTSIDE)


_IN_BODY = "a loop inside the body of a try statement is not supported"
_OUTSIDE = "put the try inside the loop's body, around the statements that may raise"

