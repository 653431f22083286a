"""What the passes that write a function share: names, builtins, rule texts, comments.

``differentiate`` (reverse mode) and ``forward`` (forward mode) are both a
``Writer`` over a normalized ``Program``: one name generator reserving every
user name, the builtins generated code calls (aliased where a user name shadows
one), the rules' texts instantiated for a statement (as Python expressions, which
``expression`` turns into IR ones), and ``Comment`` statements pointing back at the
user's source.  Both write the statements of ``ir.sweeps``.
"""

import ast

from symdiff.analysis.defuse import DefUse
from symdiff.ir import expr as ex
from symdiff.ir import nodes as ir
from symdiff.ir import sweeps as sw
from symdiff.ir.expr import from_ast
from symdiff.ir.names import BUILTINS, Namer
from symdiff.ir.syntax import Substitute, clone, load, operand_node
from symdiff.primitives.special import HELPERS
from symdiff.primitives.texts import NUMPY, template


class Writer:
    def __init__(self, program, defuse=None):
        self.program = program
        self.defuse = defuse if defuse is not None else DefUse(program)
        self.namer = Namer(program.reserved)
        used = set(program.params) | set(self.defuse.assigned()) | set(program.namespace)
        self.builtins = {}  # builtin -> the name generated code calls it by
        for builtin in BUILTINS:
            if builtin in used:
                self.builtins[builtin] = self.namer.fresh(builtin)
        self.helpers = {}  # helper (``special``) -> the name generated code defines it by
        self.counters = []  # the trip counters of the loops written (each an int)

    def builtin(self, name):
        """The name of a builtin in generated code: an alias where the user's code shadows it."""
        return self.builtins.get(name, name)

    def forward_expression(self, stmt):
        """What computes ``stmt``: the rule's text, or the user's own numpy or scipy call.
        An argument the user's call left out, and a keyword at its default, stay out."""
        rule = self.program.rule(stmt.op)
        left_out = _at_default(rule, stmt.args)
        if stmt.call is None:
            expression = self.substitute(self.program.rule_of(stmt).forward, stmt)
            if left_out and isinstance(expression, ast.Call):
                names = rule.params[len(rule.params) - len(rule.defaults):]
                dropped = {name for name, out in zip(names, left_out) if out}
                expression.keywords = [k for k in expression.keywords if k.arg not in dropped]
            return expression
        args = list(stmt.args)
        while left_out and left_out[-1]:
            args.pop()
            left_out = left_out[:-1]
        return ast.Call(ast.parse(stmt.call, mode="eval").body,
                        [operand_node(a, self.program) for a in args], [])

    def helper(self, key):
        """The name generated code calls the helper function ``key`` by (defined once)."""
        if key not in self.helpers:
            self.helpers[key] = self.namer.fresh(key)
        return self.helpers[key]

    def substitute(self, text, stmt):
        names = {"out": load(stmt.target), "math": load(self.program.math_name)}
        module = getattr(stmt, "module", None) or self.program.numpy_name
        if module is not None:  # the user's numpy call's, or where an operator meets numpy's
            names[NUMPY] = load(module)
        for builtin, alias in self.builtins.items():
            names[builtin] = load(alias)
        for key in HELPERS:
            if key in text:
                names[key] = load(self.helper(key))
        if "NORM" in text:  # scipy.stats.norm as the user's call names it: `norm`, `st.norm`
            names["NORM"] = ast.parse(stmt.call.rpartition(".")[0], mode="eval").body
        for key, arg in zip(self.program.rule(stmt.op).params, stmt.args):
            names[key] = operand_node(arg, self.program)
        return Substitute(names).visit(clone(template(text)))

    def flatten(self, chunks, within=None):
        """Statements of ``(origin, statements)`` chunks, a comment where the origin changes.

        ``within`` is the origin of the enclosing statement, whose comment already
        stands above.  A line of an inlined helper names it: ``# line 4 (in norm): ...``;
        a statement moved out of its loop says so: ``# line 4, hoisted out of its loop: ...``.
        """
        out = []
        last = None if within is None else (within.filename, within.lineno, within.function,
                                            within.hoisted)
        for origin, stmts in chunks:
            if not stmts:
                continue
            key = (origin.filename, origin.lineno, origin.function, origin.hoisted)
            if key != last:
                where = f"line {origin.lineno}"
                if origin.function != self.program.name:
                    where += f" (in {origin.function})"
                if origin.hoisted:
                    where += ", hoisted out of its loop"
                out.append(sw.Comment(f"{where}: {origin.text}"))
                last = key
            out += stmts
        return _fuse_resets(out)


def _at_default(rule, args):
    """For each parameter with a default, whether the argument is that very constant."""
    if not rule.defaults:
        return ()
    tail = args[len(args) - len(rule.defaults):]
    return tuple(isinstance(a, ir.Const) and a.text is None and type(a.value) is type(d)
                 and a.value == d for a, d in zip(tail, rule.defaults))


def expression(node):
    """The IR expression of a Python expression tree (a lowered statement's own
    expression may already be one)."""
    return from_ast(node) if isinstance(node, ast.AST) else node


def let(target, node):
    """``target = node``, ``node`` a Python expression tree."""
    return sw.Let(target, from_ast(node))


def _fuse_resets(stmts):
    """``d = 0.0`` and, next to touch ``d`` in the same block, ``d += e``: written ``d = e``.

    The new value's adjoint is ``e``; nothing between reads ``d``.
    """
    out = list(stmts)
    i = 0
    while i < len(out):
        name = _zeroed(out[i])
        following = next((j for j in range(i + 1, len(out)) if sw.mentions(out[j], name)),
                         None) if name else None
        if following is not None:
            stmt = out[following]
            if (isinstance(stmt, sw.AddTo) and stmt.target == name
                    and name not in ex.names(stmt.value)):
                value = sw.negated(stmt.value) if stmt.negate else stmt.value
                out[following] = sw.Let(name, value)
                del out[i]
                continue
        i += 1
    return out


def _zeroed(stmt):
    """The name ``stmt`` sets to ``0.0``, if that is all it does."""
    if (isinstance(stmt, sw.Let) and isinstance(stmt.value, ex.Const)
            and stmt.value.value == 0.0 and not isinstance(stmt.value.value, bool)):
        return stmt.target
    return None
