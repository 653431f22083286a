"""Comprehension names: each comprehension's loop names its own, as in Python 3.

Expects a fenced function's tree and its ``Hygiene``; ``rename_targets`` runs once on
the whole function, before ``comprehensions.hoist`` writes the comprehensions as loops.
Guarantees that a comprehension's loop names are its own (Python 3 does not leak them):
a name that the function uses anywhere else, that a comprehension around it binds too,
or that an earlier comprehension binds looping over another value (the loops, once
desugared, would give one name the elements of both, of unlike types perhaps:
``[np.zeros_like(w) for w in Ws]``, ``[np.zeros_like(w) for w in bs]``), is renamed to
a fresh one inside the comprehension; any other stays as written (comprehensions over
one value the function never assigns, ``sum(t for t in xs)`` and ``sum(t * t for t in
xs)``, share their names).

    >>> import ast
    >>> from symdiff.lower.hygiene import Hygiene
    >>> tree = ast.parse("def f(Ws, bs):\\n    return [w for w in Ws], [w for w in bs]").body[0]
    >>> print(ast.unparse(rename_targets(tree, Hygiene(tree))).splitlines()[1])
        return ([w for w in Ws], [w_1 for w_1 in bs])
"""

import ast
import copy

COMPREHENSIONS = (ast.ListComp, ast.GeneratorExp, ast.SetComp, ast.DictComp)


def rename_targets(tree, scope):
    """``tree`` with every comprehension's loop names its own (a new tree where a name
    changed; the rest shared)."""
    outside = set()
    _outside(tree, frozenset(), outside)
    assigned = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and not isinstance(
        n.ctx, ast.Load)}
    return _Renamer(scope, outside, assigned).rename(tree, {}, frozenset())


def _targets(node):
    return [n.id for n in ast.walk(node) if isinstance(n, ast.Name)]


def _outside(node, bound, out):
    """Add to ``out`` the names ``node`` uses that no comprehension around them binds."""
    if isinstance(node, COMPREHENSIONS):
        inner = bound
        for k, generator in enumerate(node.generators):
            _outside(generator.iter, inner, out)
            inner = inner | set(_targets(generator.target))
            for test in generator.ifs:
                _outside(test, inner, out)
        for element in (node.key, node.value) if isinstance(node, ast.DictComp) else (node.elt,):
            _outside(element, inner, out)
        return
    if isinstance(node, ast.Name) and node.id not in bound:
        out.add(node.id)
    elif isinstance(node, ast.arg):
        out.add(node.arg)
    elif isinstance(node, ast.FunctionDef):
        out.add(node.name)
    elif isinstance(node, ast.alias):
        out.add(node.asname or node.name.partition(".")[0])
    for child in ast.iter_child_nodes(node):
        _outside(child, bound, out)


class _Renamer:
    def __init__(self, scope, outside, assigned):
        self.scope, self.outside, self.assigned = scope, outside, assigned
        self.looped = {}  # a name comprehensions bind -> the value they loop over (None: a
        # value that may change, so its elements may differ in type)

    def _over(self, iterable):
        """What a comprehension loops over, as a key two equal ones share: None where
        the function assigns a name it reads (its value may change between them)."""
        names = [n.id for n in ast.walk(iterable) if isinstance(n, ast.Name)]
        return None if any(n in self.assigned for n in names) else ast.dump(iterable)

    def rename(self, node, mapping, enclosing):
        """``node`` with names renamed by ``mapping``; ``enclosing``: the names the
        comprehensions around it bind."""
        if isinstance(node, COMPREHENSIONS):
            return self._comprehension(node, mapping, enclosing)
        if isinstance(node, ast.Name):
            if mapping.get(node.id, node.id) == node.id:
                return node
            new = copy.copy(node)
            new.id = mapping[node.id]
            return new
        changed = {}
        for field, value in ast.iter_fields(node):
            if isinstance(value, ast.AST):
                new = self.rename(value, mapping, enclosing)
            elif isinstance(value, list):
                new = [self.rename(v, mapping, enclosing) if isinstance(v, ast.AST) else v
                       for v in value]
                new = value if all(a is b for a, b in zip(new, value)) else new
            else:
                continue
            if new is not value:
                changed[field] = new
        return with_fields(node, changed)

    def _comprehension(self, node, mapping, enclosing):
        inner, bound_here, generators = dict(mapping), set(), []
        for generator in node.generators:
            iterable = self.rename(generator.iter, inner, enclosing | bound_here)
            over = self._over(iterable)
            for target in _targets(generator.target):
                shared = target not in self.looped or (
                    over is not None and self.looped[target] == over)
                keep = (target not in self.outside and target not in enclosing
                        and target not in bound_here and shared)
                inner[target] = target if keep else self.scope.fresh(target)
                bound_here.add(target)
                self.looped.setdefault(inner[target], over)
            new = copy.copy(generator)
            new.iter = iterable
            new.target = self.rename(generator.target, inner, enclosing)
            new.ifs = [self.rename(t, inner, enclosing | bound_here) for t in generator.ifs]
            generators.append(new)
        new_node = copy.copy(node)
        new_node.generators = generators
        for field in ("key", "value") if isinstance(node, ast.DictComp) else ("elt",):
            setattr(new_node, field, self.rename(getattr(node, field), inner,
                                                 enclosing | bound_here))
        return new_node


def with_fields(node, changed):
    """``node`` itself when ``changed`` is empty, else a shallow copy with those fields."""
    if not changed:
        return node
    new_node = copy.copy(node)
    for field, value in changed.items():
        setattr(new_node, field, value)
    return new_node
