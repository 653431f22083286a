"""Emit: the generated syntax tree -> module text, proven to parse back to that tree.

Expects a ``Generated`` from ``differentiate`` (possibly optimized).  Guarantees
text that parses back to the same tree, comments aside, and that is checked here
(a mismatch is an ``InternalError``, never compiled).  ``printer`` writes the
statements and blocks itself and an ``ir.syntax.Comment`` as a comment line;
``backend.direct`` writes the simple statements and expressions it reads, and astor,
or the standard library's ``ast.unparse`` where astor does not import cleanly, the
others, with the same text every way:

    Comment('line 3: z = x * y')    ──emit──►    # line 3: z = x * y

The text stands on its own: above the function, ``bindings`` binds every name the
function reads from outside, as the user's module had it (``import math``,
``SCALE = 2.5``, ``from model import square``, or the definition of a function no
import reaches), so saved to a file it runs without symdiff.
"""

import ast

from symdiff.backend import bindings
from symdiff.backend.printer import default_printer, print_function
from symdiff.errors import InternalError
from symdiff.ir.syntax import Comment, clone
from symdiff.primitives.special import definition


def emit(generated, printer=None, direct_first=True):
    """The module text defining the generated function (``printer``: ``"astor"`` or
    ``"unparse"``; by default astor where it imports cleanly; ``direct_first``: the
    statements ``backend.direct`` writes are written by it, with the same text)."""
    return emit_parsed(generated, printer, direct_first)[0]


def emit_parsed(generated, printer=None, direct_first=True):
    """(text, module): ``emit``'s text and the module tree the proof parsed it to, which
    ``compile_module`` compiles without parsing the text a second time."""
    printer = printer or default_printer()
    function = generated.function
    aliases = {b: alias for alias, b in generated.builtins.items()}
    helpers = [definition(key, name, generated.math_name, aliases)
               for key, name in getattr(generated, "helpers", {}).items()]
    header, definitions = bindings.header(generated, printer, helpers)
    lines = []
    for helper in helpers:  # digamma and the like, which the partials call
        lines += print_function(helper, printer, direct_first) + ["", ""]
    lines += print_function(function, printer, direct_first)
    text = "\n".join(header + lines) + "\n"
    return text, _check_round_trip(text, function, definitions + helpers)


# --- the proof ------------------------------------------------------------------------------

def _check_round_trip(text, function, definitions):
    """The text parses to imports and constants, the ``definitions`` and then
    ``function`` itself, comments aside; else an ``InternalError``.  Returns the parsed
    module."""
    if len(text.splitlines()) != text.count("\n"):  # linecache's lines are the parser's
        raise InternalError("emit", "the emitted text holds a line break other than \\n")
    try:
        module = ast.parse(text)
    except SyntaxError as exc:
        raise InternalError("emit", f"the emitted text does not parse: {exc}") from None
    body = module.body
    defined = [stmt for stmt in body[:-1] if isinstance(stmt, ast.FunctionDef)]
    if (not body or not all(_is_binding(s) or s in defined for s in body[:-1])
            or len(defined) != len(definitions)
            or not all(same_tree(d, built) for d, built in zip(defined, definitions))):
        raise InternalError("emit", "the emitted header is not imports, constants and the "
                            "definitions it was meant to hold")
    if not same_tree(body[-1], function):
        raise InternalError("emit", f"the emitted text of {function.name} does not parse "
                            "back to its syntax tree")
    return module


def _is_binding(stmt):
    """An import, or a constant bound to numbers (``float('inf')`` included)."""
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return True
    return (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name) and _is_literal(stmt.value))


def _is_literal(node):
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float, complex))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return _is_literal(node.operand)
    if isinstance(node, (ast.Tuple, ast.List)):
        return all(_is_literal(item) for item in node.elts)
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == "float" and not node.keywords and len(node.args) == 1
            and isinstance(node.args[0], ast.Constant)
            and node.args[0].value in ("inf", "-inf", "nan"))


def same_tree(parsed, built):
    """Whether ``shape(parsed) == shape(without_comments(built))``, found in one walk of
    both trees side by side that builds nothing (the emitted text of a large function
    is a large tree, and this check runs on every one)."""
    pairs = [(parsed, built)]
    pop, push = pairs.pop, pairs.append
    while pairs:
        a, b = pop()
        kind = a.__class__
        if kind is b.__class__:  # the kinds most nodes are, compared field by field here
            if kind is ast.Name:
                if a.id != b.id:
                    return False
                continue
            if kind is ast.BinOp:
                if a.op.__class__ is not b.op.__class__:
                    return False
                push((a.right, b.right))
                push((a.left, b.left))
                continue
        if kind is not b.__class__ or _is_special(kind):
            known_a, known_b = _constant(a), _constant(b)
            if known_a is not None or known_b is not None:
                if known_a != known_b:
                    return False
                continue
            if kind is not b.__class__ or not isinstance(a, ast.AST):
                if not _same_other(a, b):
                    return False
                continue
        plan = _PLANS.get(kind)
        if plan is None:
            plan = _plan(kind)
        for name in plan:
            x, y = getattr(a, name, None), getattr(b, name, None)
            if name == "type_params":
                x, y = x or None, y or None
            if x is y and x.__class__ is not list and not (isinstance(x, ast.AST) and x._fields):
                continue  # one operator singleton, one name, or None
            if x.__class__ is list or y.__class__ is list:
                if not (x.__class__ is list and y.__class__ is list):
                    return False
                if name in ("body", "orelse") and y and all(isinstance(s, ast.stmt) for s in y):
                    y = [s for s in y if not isinstance(s, Comment)] or [_PASS]
                if len(x) != len(y):
                    return False
                pairs.extend(zip(x, y))
            elif isinstance(x, ast.AST) or isinstance(y, ast.AST):
                push((x, y))
            elif x != y:
                return False
    return True


def _same_other(a, b):
    """``same_tree`` for two values of different classes, neither a constant: equal plain
    values, or nodes of classes of one name compared as ``shape`` does."""
    if not isinstance(a, ast.AST) or not isinstance(b, ast.AST):
        return not isinstance(a, ast.AST) and not isinstance(b, ast.AST) and a == b
    return type(a).__name__ == type(b).__name__ and shape(a) == shape(without_comments(b))


_PLANS = {}  # class -> the fields ``shape`` compares


def _plan(kind):
    plan = _PLANS[kind] = tuple(name for name in kind._fields
                                if name not in _UNSHAPED or name == "type_params")
    return plan


_UNSHAPED = ("ctx", "type_comment", "kind", "type_params")  # what ``shape`` leaves out
_PASS = ast.Pass()


def _is_special(kind):
    """Whether a value of class ``kind`` may be a constant to ``shape``, or is no node
    (cached by class)."""
    answer = _SPECIAL_CLASSES.get(kind)
    if answer is None:
        answer = _SPECIAL_CLASSES[kind] = not issubclass(kind, ast.AST) or issubclass(
            kind, (ast.Constant, ast.UnaryOp))
    return answer


_SPECIAL_CLASSES = {}


def _constant(node):
    """A constant as ``shape`` sees it, (type name, repr), ``-2.0`` written as a negation
    included; None for anything else."""
    if isinstance(node, ast.UnaryOp):
        if (isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant)
                and _is_real(node.operand.value)):
            value = -node.operand.value
            return (type(value).__name__, repr(value))
    elif isinstance(node, ast.Constant):
        return (type(node.value).__name__, repr(node.value))
    return None


def without_comments(function):
    """A copy of ``function`` with its comments removed (an emptied block: ``pass``)."""
    class Strip(ast.NodeTransformer):
        def generic_visit(self, node):
            super().generic_visit(node)
            for field in ("body", "orelse"):
                block = getattr(node, field, None)
                if isinstance(block, list) and block and all(isinstance(s, ast.stmt)
                                                             for s in block):
                    kept = [s for s in block if not isinstance(s, Comment)]
                    setattr(node, field, kept or [ast.Pass()])
            return node

    return Strip().visit(clone(function))


def shape(node):
    """What a syntax tree means, as nested tuples: fields, not positions; a name's
    context, fixed by where it stands, left out; a constant by type and ``repr``, a
    negative number written ``-2.0`` (the same value, folded by the compiler) as one."""
    if isinstance(node, list):
        return tuple(shape(item) for item in node)
    if (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub)
            and isinstance(node.operand, ast.Constant) and _is_real(node.operand.value)):
        return shape(ast.Constant(-node.operand.value))
    if isinstance(node, ast.Constant):
        return ("Constant", type(node.value).__name__, repr(node.value))
    if not isinstance(node, ast.AST):
        return node
    fields = tuple((name, shape(getattr(node, name, None))) for name in node._fields
                   if name not in ("ctx", "type_comment", "kind", "type_params")
                   or (name == "type_params" and getattr(node, name, None)))
    return (type(node).__name__,) + fields


def _is_real(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)
