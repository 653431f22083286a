"""Quantifiers: ``all(...)`` and ``any(...)`` of a generator, as the loop they stand for.

Used by desugar's comprehensions (``_Lift``), before the statement that reads them.  The
generator's loops run until the answer is known, as Python's ``all`` and ``any`` stop at
the first element that decides, so an element after it is never computed (nor raises):

    assert all(x > 0 for x in xs)      ->   holds = True
                                            for x in xs:
                                                if not x > 0:
                                                    holds = False
                                                    break
                                            assert holds

``any`` starts from ``False`` and stops at the first true element.  Nested ``for``
clauses stop too: each outer loop ends once its inner loop has decided.  A quantifier
has no derivative; its loops, whose names are their own, are read by lowering as any
other loop over a container.
"""

import ast
import builtins
import copy

from symdiff.lower.hygiene import located, name

_QUANTIFIERS = {id(builtins.all): ("holds", False), id(builtins.any): ("found", True)}


def quantified(call, scope, before):
    """The name holding ``all(generator)`` or ``any(generator)``, its loops appended to
    ``before``; None when ``call`` is no such call (of the builtins, not shadowed)."""
    if not (isinstance(call, ast.Call) and len(call.args) == 1 and not call.keywords
            and isinstance(call.args[0], ast.GeneratorExp)):
        return None
    found = _QUANTIFIERS.get(id(scope.meaning(call.func)))
    if found is None:
        return None
    noun, decides = found  # ``all`` is decided by a false element, ``any`` by a true one
    clauses, element = _own_names(call.args[0], scope)
    flag = scope.fresh(noun)
    test = element if decides else located(ast.UnaryOp(ast.Not(), element), element)
    body = [located(ast.If(test, [_assign(flag, decides, element),
                                  located(ast.Break(), element)], []), element)]
    for depth, clause in enumerate(reversed(clauses)):
        for condition in reversed(clause.ifs):
            body = [located(ast.If(condition, body, []), condition)]
        if depth:  # an outer loop ends once the loop inside it has decided
            decided = name(flag, clause.target) if decides else located(
                ast.UnaryOp(ast.Not(), name(flag, clause.target)), clause.target)
            body = body + [located(ast.If(decided, [located(ast.Break(), clause.target)],
                                          []), clause.target)]
        body = [located(ast.For(clause.target, clause.iter, body, []), clause.target)]
    before.append(_assign(flag, not decides, call))
    before.extend(body)
    return name(flag, call)


def _own_names(generator, scope):
    """``(clauses, element)`` of ``generator`` with its loop names fresh: a check's
    loop shares no name with the differentiated code around it (whose derivative would
    then reach into the check).  The first iterable is read outside, as Python does."""
    mapping = {}
    clauses = []
    for clause in generator.generators:
        iterable = _Renamed(mapping).visit(copy.deepcopy(clause.iter))
        for node in ast.walk(clause.target):
            if isinstance(node, ast.Name):
                mapping[node.id] = scope.fresh(node.id)
        clauses.append(ast.comprehension(
            _Renamed(mapping).visit(copy.deepcopy(clause.target)), iterable,
            [_Renamed(mapping).visit(copy.deepcopy(test)) for test in clause.ifs], 0))
    return clauses, _Renamed(mapping).visit(copy.deepcopy(generator.elt))


class _Renamed(ast.NodeTransformer):
    def __init__(self, mapping):
        self.mapping = mapping

    def visit_Name(self, node):
        if node.id in self.mapping:
            node.id = self.mapping[node.id]
        return node


def _assign(flag, value, where):
    return located(ast.Assign([name(flag, where, store=True)],
                              located(ast.Constant(value), where)), where)
