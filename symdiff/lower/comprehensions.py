"""Comprehensions: a list built by ``append`` in loops, before the statement that uses it.

Expects a fenced function's tree, whose comprehensions' loop names are their own
(``comprehension_names.rename_targets``), and its ``Hygiene``; ``hoist`` takes one
statement at a time.  Guarantees:

- ``[e for t in it if c ...]`` (several ``for`` and ``if``) is a fresh list filled by
  ``append`` in the loops and ``if`` statements the clauses say, in their order, written
  before the statement, which reads the list's name in its place; the loops are then
  desugared as loops (``iteration``), and a comprehension inside ``e`` or ``c`` is
  lifted the same way, inside the loop;
- a generator expression (or a dict's ``values()``) given to ``sum`` (with ``start``),
  ``min``, ``max``, ``math.fsum``, ``math.prod``, ``list`` or ``tuple`` (by any name
  that means them: ``from math import fsum``, ``import math as m``; a builtin only where
  the function does not bind its name) is the same list, and the call is on the list's
  name (``d_values`` for ``max(d.values())``);
- ``out = {k: e for k, v in d.items()}`` (or ``for k in d``), one ``for`` and no ``if``,
  is ``out = {}`` and the loop ``for k, v in d.items(): out[k] = e``; standing anywhere
  else (``return {k: ...}``), the same dict under a fresh name (``entries``), filled
  before the statement;
- a comprehension where it would not be computed exactly once when the statement runs
  (a ``while`` test, one arm of a conditional expression or a later operand of
  ``and``/``or``, a later comparison of a chain, an assert's message) or beside a
  stack's ``pop`` in the same statement (whose order it would change), a generator
  expression given to anything else, a set comprehension and any other dict
  comprehension (whose keys are not those of the one dict it loops over), are refused with a located ``UnsupportedSyntaxError`` whose hint says
  what to write instead;
- ``name = [...]`` fills ``name`` itself when the comprehension cannot see it (reads it
  nowhere, calls no function of the user's); any other list is named for what it holds
  (``squares``, ``products``, ``xs``) or, in a sum or a product, ``terms`` or ``factors``; every statement written carries the location
  of what it stands for: ``[]`` the comprehension's, a loop its target's, an ``if`` its
  test's, an ``append`` the element's.

    >>> import ast, math
    >>> from symdiff.lower.comprehension_names import rename_targets
    >>> from symdiff.lower.hygiene import Hygiene
    >>> tree = ast.parse('''
    ... def f(x, coeffs):
    ...     total = sum(c * x ** i for i, c in enumerate(coeffs) if c > 0)
    ...     return total
    ... ''').body[0]
    >>> scope = Hygiene(tree)
    >>> tree = rename_targets(tree, scope)
    >>> before, stmt = hoist(tree.body[0], scope)
    >>> print(ast.unparse(before + [stmt]).replace("for (i, c)", "for i, c"))  # 3.10's
    terms = []
    for i, c in enumerate(coeffs):
        if c > 0:
            terms.append(c * x ** i)
    total = sum(terms)
"""

import ast
import builtins
import copy
import math
import re

from symdiff.lower.comprehension_names import COMPREHENSIONS, with_fields
from symdiff.lower.dict_loops import filled_by_keys, view_of
from symdiff.lower.hygiene import located, name
from symdiff.lower.quantifiers import quantified

_REDUCTIONS = {id(builtins.sum): "terms", id(math.fsum): "terms", id(math.prod): "factors",
               id(builtins.min): None, id(builtins.max): None, id(builtins.list): None,
               id(builtins.tuple): None}
_WORDS = {ast.Mult: "products", ast.Add: "sums", ast.Sub: "differences", ast.Div: "ratios",
          ast.Pow: "powers"}


def hoist(stmt, scope):
    """``(statements that build the lists, the statement reading them)`` for ``stmt``."""
    if isinstance(stmt, ast.While):
        _refuse_any(stmt.test, scope, "in a while loop's test",
                    "compute it before the loop and again at the end of the loop's body")
        return [], stmt
    before = []
    lift = _Lift(scope, before)
    if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.DictComp) and len(
            stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
        return filled_by_keys(stmt, scope), None
    if _builds_its_target(stmt, scope):  # `squares = [...]`: filled in place
        lift.build(stmt.value, stmt, None, False, held=stmt.targets[0].id)
        return before, None
    fields = {ast.Assign: ("value",), ast.Expr: ("value",), ast.Return: ("value",),
              ast.If: ("test",), ast.For: ("iter",), ast.Assert: ("test",),
              ast.Raise: ("exc", "cause")}.get(type(stmt), ())
    new = copy.copy(stmt)
    for field in fields:
        if getattr(stmt, field, None) is not None:
            setattr(new, field, lift.expr(getattr(stmt, field), False))
    if isinstance(stmt, ast.Assert) and stmt.msg is not None:
        _refuse_any(stmt.msg, scope, "in an assert's message", "build the message on its "
                    "own line before the assert")
    if before and any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                      and n.func.attr == "pop" for f in fields
                      for n in ast.walk(getattr(new, f) or ast.Pass())):
        raise scope.error(lift.first or stmt, "a comprehension in a statement that pops a "
                          "stack is not supported", "pop into a name on its own line first")
    return before, (new if before else stmt)


class _Lift:
    """Replaces the comprehensions of one statement's expressions by names of lists."""

    def __init__(self, scope, before):
        self.scope, self.before, self.first = scope, before, None

    def expr(self, node, conditional):
        if isinstance(node, ast.DictComp):
            return self.filled(node, conditional)
        if isinstance(node, ast.SetComp):
            raise self.scope.error(node, "a set comprehension is not supported",
                                   "build a list with a list comprehension, or a "
                                   "for loop over range(...)")
        if isinstance(node, ast.GeneratorExp):
            raise self.scope.error(node, getattr(node, "written_as", "a generator expression")
                                   + " is only read inside sum, min, max, fsum, prod, list, "
                                   "tuple, all or any", "write a list comprehension [...] instead")
        flag = None if conditional else quantified(node, self.scope, self.before)
        if flag is not None:  # ``all(...)``, ``any(...)``: a flag its loops set
            return flag
        if isinstance(node, ast.ListComp):
            return self.build(node, node, _noun(node.elt), conditional)
        values = None
        if isinstance(node, ast.Call) and node.args and view_of(node.args[0]) == "values":
            values = node.args[0].func.value  # ``max(d.values())``: the list ``d_values``
            node = values_generator(node, self.scope) if self._reduction(
                node, of_values=True) is not None else node
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0],
                                                                   ast.GeneratorExp):
            reduction = self._reduction(node)
            if values is not None and reduction == _noun(node.args[0].elt):
                reduction = f"{values.id}_values" if isinstance(values, ast.Name) else reduction
            if reduction is not None:
                new = copy.copy(node)
                new.func = self.expr(node.func, conditional)
                new.args = [self.build(node.args[0], node, reduction, conditional)] + [
                    self.expr(a, conditional) for a in node.args[1:]]
                new.keywords = [self._keyword(k, conditional) for k in node.keywords]
                return new
        if isinstance(node, ast.Lambda):
            _refuse_any(node, self.scope, "in a lambda", "define a def function instead")
            return node
        return self._children(node, conditional)

    def _children(self, node, conditional):
        """``node`` with its children lifted; an arm of ``a if t else b``, an operand of
        ``and``/``or`` after the first and a comparison after the first of a chain are
        conditional (they may not run)."""
        arms = ("body", "orelse") if isinstance(node, ast.IfExp) else ()
        after = {ast.BoolOp: "values", ast.Compare: "comparators"}.get(type(node))
        changed = {}
        for field, value in ast.iter_fields(node):
            if isinstance(value, ast.expr):
                new = self.expr(value, conditional or field in arms)
            elif isinstance(value, list):
                new = [self._item(v, conditional or (field == after and k > 0))
                       for k, v in enumerate(value)]
                new = value if all(a is b for a, b in zip(new, value)) else new
            else:
                continue
            if new is not value:
                changed[field] = new
        return with_fields(node, changed)

    def _item(self, value, conditional):
        if isinstance(value, ast.keyword):
            return self._keyword(value, conditional)
        return self.expr(value, conditional) if isinstance(value, ast.expr) else value

    def _keyword(self, keyword, conditional):
        value = self.expr(keyword.value, conditional)
        if value is keyword.value:
            return keyword
        new = copy.copy(keyword)
        new.value = value
        return new

    def _reduction(self, call, of_values=False):
        """The list's name for a reduction's generator (None: named for its element);
        no reduction for a call given anything but the generator (and sum's start).
        ``of_values``: whether ``call`` is a reduction at all (of a dict's values)."""
        key = id(self.scope.meaning(call.func))
        if key not in _REDUCTIONS:
            return None
        most = 2 if key == id(builtins.sum) else 1
        keywords = ("start",) if key == id(builtins.sum) else ()
        if len(call.args) > most or any(k.arg not in keywords for k in call.keywords):
            return None
        if of_values:
            return key
        return _REDUCTIONS[key] or _noun(call.args[0].elt)

    def filled(self, made, conditional):
        """A dict comprehension standing in an expression (``return {k: ... for k, v in
        d.items()}``): a fresh dict filled by keys before the statement (as when it is
        assigned to a name, ``filled_by_keys``); its name, read in its place."""
        if conditional:
            raise self.scope.error(made, "a comprehension that may not run (in one arm of a "
                                   "conditional expression, after `and` or `or`, or later "
                                   "in a chain of comparisons) is not supported",
                                   "compute it on its own line before, or use an if statement")
        self.first = self.first or made
        held = self.scope.fresh("entries")
        named = located(ast.Assign([name(held, made, store=True)], made), made)
        self.before.extend(filled_by_keys(named, self.scope))
        return name(held, made)

    def build(self, comprehension, where, noun, conditional, held=None):
        """Write the loops that fill a fresh list (or the list ``held``, from ``[]``); its
        name, read in the comprehension's place."""
        if conditional:
            raise self.scope.error(comprehension, "a comprehension that may not run (in one "
                                   "arm of a conditional expression, after `and` or `or`, "
                                   "or later in a chain of comparisons) is not supported",
                                   "compute it on its own line before, or use an if statement")
        if any(g.is_async for g in comprehension.generators):
            raise self.scope.error(comprehension, "an async comprehension is not supported",
                                   "write a plain comprehension")
        self.first = self.first or comprehension
        start = comprehension if held is None else where
        held = held or self.scope.fresh(noun)
        append = located(ast.Attribute(name(held, comprehension.elt), "append", ast.Load()),
                         comprehension.elt)
        inner = located(ast.Expr(located(ast.Call(append, [comprehension.elt], []),
                                         comprehension.elt)), comprehension.elt)
        for generator in reversed(comprehension.generators):
            body = [inner]
            for test in reversed(generator.ifs):
                body = [located(ast.If(test, body, []), test)]
            inner = located(ast.For(generator.target, generator.iter, body, []),
                            generator.target)
        self.before.append(located(ast.Assign([name(held, start, store=True)],
                                              located(ast.List([], ast.Load()), start)), start))
        self.before.append(inner)
        return name(held, where)


def values_generator(call, scope):
    """``sum(d.values())`` as ``sum(value for value in d.values())``, a new call."""
    values = call.args[0]
    held = scope.fresh("value")
    generator = located(ast.GeneratorExp(name(held, values), [ast.comprehension(
        name(held, values, store=True), values, [], 0)]), values)
    new = copy.copy(call)
    new.args = [generator] + call.args[1:]
    return new


def _builds_its_target(stmt, scope):
    """``name = [...]`` where the comprehension cannot see ``name`` (it does not read it
    and calls no function of the user's, which might), so the list can be built in it."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name) and isinstance(stmt.value, ast.ListComp)):
        return False
    for node in ast.walk(stmt.value):
        if isinstance(node, ast.Name) and node.id == stmt.targets[0].id:
            return False
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and (
                node.func.id in scope.bound or callable(scope.meaning(node.func))
                and getattr(scope.meaning(node.func), "__globals__", None) is not None):
            return False
    return True


def _noun(element):
    """A plural for what a comprehension holds: ``squares`` for ``x * x`` or ``x ** 2``."""
    if isinstance(element, ast.Name):  # a renamed loop name is named as the user's
        word = re.sub(r"_[0-9]+$", "", element.id)
        return word + "s" if not word.endswith("s") else "values"
    if isinstance(element, ast.BinOp):
        square = (isinstance(element.op, ast.Pow) and isinstance(element.right, ast.Constant)
                  and element.right.value == 2) or (
            isinstance(element.op, ast.Mult) and ast.dump(element.left) == ast.dump(
                element.right))
        return "squares" if square else _WORDS.get(type(element.op), "values")
    if isinstance(element, ast.Tuple):
        return {2: "pairs", 3: "triples"}.get(len(element.elts), "values")
    if isinstance(element, ast.Call):
        func = element.func
        label = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        if label and label.isidentifier():
            return f"{label}_values"
    return "values"


def _refuse_any(node, scope, where, hint):
    for inner in ast.walk(node):
        if isinstance(inner, COMPREHENSIONS):
            raise scope.error(inner, f"a comprehension {where} is not supported", hint)
