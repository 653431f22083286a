"""Assignment expressions (``name := value``) as assignments of their own.

``named_assignments(stmt, scope)`` is ``(assignments, statement)``: the statement with
each ``name := value`` it holds replaced by ``name``, after the assignments
``name = value`` written before it, in the order Python evaluates them.  That is exact
when nothing the statement evaluates before the assignment expression could see the
difference: the expression runs every time the statement does (not in a later operand of
``and``/``or``, an arm of a conditional expression or a later link of a chained
comparison), and everything evaluated before it is a constant or a name other than the
names assigned (no call whose effect would move, no read of the old value).  A ``while``
test is written as ``while True:`` whose body assigns, tests and breaks first, so each
iteration (``continue`` included) assigns again, as Python does.  Any other place is a
located refusal whose hint says what to write.

    >>> import ast
    >>> from symdiff.lower.hygiene import Hygiene
    >>> tree = ast.parse('''
    ... def f(x):
    ...     if (y := x * x) > 1.0:
    ...         return y
    ...     return (t := x + 1.0) * t
    ... ''').body[0]
    >>> scope = Hygiene(tree)
    >>> before, stmt = named_assignments(tree.body[0], scope)
    >>> print(ast.unparse(before[0]), '|', ast.unparse(stmt.test))
    y = x * x | y > 1.0
"""

import ast
import copy

_EVALUATED_FIRST = {ast.Assign: "value", ast.AnnAssign: "value", ast.For: "iter"}
_HINT = "assign the value on its own line before the statement, then use the name"


def holds_named(stmt):
    """Whether the statement's own expressions (not its blocks) hold a ``:=``."""
    return any(isinstance(node, ast.NamedExpr) for field in _fields(stmt)
               for node in ast.walk(field))


def named_assignments(stmt, scope):
    """``(assignments, statement)`` for ``stmt`` (see the module's text)."""
    if isinstance(stmt, ast.While):
        if stmt.orelse:
            raise scope.error(stmt.test, "an assignment expression (:=) in the test of a "
                              "while loop with an else block is not supported", _HINT)
        return [], _while_true(stmt)
    targets = {node.target.id for field in _fields(stmt) for node in ast.walk(field)
               if isinstance(node, ast.NamedExpr)}
    pull = _Pull(scope, targets, stmt)
    new = copy.copy(stmt)
    first = _EVALUATED_FIRST.get(type(stmt))  # Python's order: the value, then the targets
    for name, value in sorted(ast.iter_fields(stmt), key=lambda field: field[0] != first):
        if isinstance(value, ast.expr):
            setattr(new, name, pull.expr(value, False))
        elif isinstance(value, list) and value and isinstance(value[0], ast.expr):
            setattr(new, name, [pull.expr(item, False) for item in value])
    return pull.before, new


def _fields(stmt):
    for value in ast.iter_fields(stmt):
        value = value[1]
        if isinstance(value, ast.expr):
            yield value
        elif isinstance(value, list):
            yield from (item for item in value if isinstance(item, ast.expr))


def _while_true(stmt):
    """``while test: body`` as ``while True: if not test: break; body`` (without an
    ``else``: the ``break`` out of the test would skip it, where Python runs it)."""
    leave = ast.copy_location(ast.If(ast.copy_location(ast.UnaryOp(ast.Not(), stmt.test),
                                                       stmt.test),
                                     [ast.copy_location(ast.Break(), stmt)], []), stmt)
    new = copy.copy(stmt)
    new.test = ast.copy_location(ast.Constant(True), stmt.test)
    new.body = [leave] + stmt.body
    return new


class _Pull:
    """Walks expressions in Python's order of evaluation, pulling assignments out."""

    def __init__(self, scope, targets, statement):
        self.scope, self.targets, self.statement = scope, targets, statement
        self.before, self.loud = [], False

    def expr(self, node, conditional):
        if isinstance(node, ast.NamedExpr):
            loud = self.loud
            value = self.expr(node.value, conditional)
            if conditional or loud:
                where = ("where it may not run" if conditional else
                         "after an operation, a call or a read of the name it assigns")
                raise self.scope.error(node, f"an assignment expression (:=) {where} is "
                                       "not supported", _HINT)
            self.loud = loud  # the value is evaluated before the statement now
            target = ast.copy_location(ast.Name(node.target.id, ast.Store()), node)
            self.before.append(ast.copy_location(ast.Assign([target], value), node))
            return ast.copy_location(ast.Name(node.target.id, ast.Load()), node)
        if isinstance(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp,
                             ast.GeneratorExp)):
            self._inside(node)
            self.loud = True
            return node
        if isinstance(node, ast.Dict):  # each key, then its value: k1, v1, k2, v2
            return self._dict(node, conditional)
        new = copy.copy(node)
        for name, value, later in _children(node, self.targets):
            if isinstance(value, list):
                setattr(new, name, [self.item(item, conditional or (later and i > 0))
                                    for i, item in enumerate(value)])
            elif isinstance(value, ast.expr):
                setattr(new, name, self.expr(value, conditional or later))
        if not isinstance(node, ast.Constant) and not (
                isinstance(node, ast.Name) and node.id not in self.targets):
            self.loud = True  # evaluated: what it read or did is fixed before what follows
        return new

    def _dict(self, node, conditional):
        new = copy.copy(node)
        pairs = [(None if key is None else self.expr(key, conditional),
                  self.expr(value, conditional)) for key, value in zip(node.keys, node.values)]
        new.keys, new.values = [key for key, _ in pairs], [value for _, value in pairs]
        self.loud = True
        return new

    def item(self, item, conditional):
        if isinstance(item, ast.expr):
            return self.expr(item, conditional)
        if isinstance(item, ast.keyword):
            return ast.copy_location(ast.keyword(item.arg, self.expr(item.value,
                                                                     conditional)), item)
        return item

    def _inside(self, node):
        """A ``:=`` in a comprehension stays for the loops desugaring writes for it (it
        runs there as in Python), unless it is in a lambda or assigns a name the
        statement also reads outside it."""
        named = [n for n in ast.walk(node) if isinstance(n, ast.NamedExpr)]
        if named and isinstance(node, ast.Lambda):
            raise self.scope.error(named[0], "an assignment expression (:=) inside a "
                                   "lambda is not supported", "define a function with def")
        if any(n.target.id in self.read_outside(node) for n in named):
            raise self.scope.error(named[0], "an assignment expression (:=) in a "
                                   "comprehension whose name the statement also reads "
                                   "is not supported", _HINT)

    def read_outside(self, node):
        inside = {id(n) for n in ast.walk(node)}
        return {n.id for n in ast.walk(self.statement) if isinstance(n, ast.Name)
                and isinstance(n.ctx, ast.Load) and id(n) not in inside}


def _children(node, targets):
    """``(field, value, conditional after the first)`` in the order Python evaluates; a
    called function's name is looked up, not run (the call runs once its arguments
    did), so it is left out unless it reads a name an assignment expression assigns."""
    if isinstance(node, ast.BoolOp):
        return [("values", node.values, True)]
    if isinstance(node, ast.IfExp):
        return [("test", node.test, False), ("body", node.body, True),
                ("orelse", node.orelse, True)]
    if isinstance(node, ast.Compare):
        return [("left", node.left, False), ("comparators", node.comparators, True)]
    return [(name, value, False) for name, value in ast.iter_fields(node)
            if not (isinstance(node, ast.Call) and name == "func" and _looked_up(value, targets))]


def _looked_up(func, targets):
    while isinstance(func, ast.Attribute):
        func = func.value
    return isinstance(func, ast.Name) and func.id not in targets
