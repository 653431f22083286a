"""Dict loops: a loop over a dict's keys, values or items as a loop over its keys.

Expects a ``for`` statement of a fenced function and its ``Hygiene`` (whose ``kinds``
are the container parameters' types, ``frontend.kinds``, when the gradient is generated
for them).  Guarantees, for a loop over a dict, one ``for key in d:`` (or over
``reversed(d)``, ``sorted(d)``) whose body starts by reading the entry by its key,
located at the loop's target, the user's body after; ``lower`` reads it as a loop over
the dict's keys (``loops.key_loop``).  What is a dict is known from the syntax alone for ``d.keys()``,
``d.values()`` and ``d.items()``, and otherwise from the kinds: a parameter the
function never assigns, an entry of one read by constants (``p["layer"]``), a name
the function assigns once to such a path or to a dict written out, or a loop's name
over a list of dicts.

    for k in p:               ->   for k in p:
    for v in p.values():      ->   for key in p:  v = p[key]
    for k, (w, b) in p.items():   for k in p:  w = p[k][0]; b = p[k][1]

The dict is read where it is (a name, or a read of one by constants); a loop over
``d.items()`` of anything else, or whose targets are not a key name and a value, is
refused with a located ``UnsupportedSyntaxError`` saying what to write.  And
``filled_by_keys``: a dict comprehension over one dict's keys as that dict filled by key
in such a loop (``comprehensions`` hoists one to it, wherever it stands).

    >>> import ast
    >>> from symdiff.lower.hygiene import Hygiene
    >>> tree = ast.parse('''
    ... def f(p):
    ...     s = 0.0
    ...     for name, value in reversed(p.items()):
    ...         s = s * value
    ...     return s
    ... ''').body[0]
    >>> print(ast.unparse(key_loop(tree.body[1], Hygiene(tree))))
    for name in reversed(p):
        value = p[name]
        s = s * value
"""

import ast
import builtins
import copy

from symdiff.core import types as t
from symdiff.core.types import element
from symdiff.lower.hygiene import located, name

_VIEWS = ("keys", "values", "items")


def key_loop(stmt, scope, unpack=None):
    """The ``for key in d:`` that ``stmt`` is when it loops over a dict, or None.
    ``unpack(target, value, scope)`` gives the assignments of an entry to a target
    (``iteration.unpack``: nested targets are read by position)."""
    iterable, reverse, sort = stmt.iter, False, False
    if _calls(iterable, reversed, scope):
        iterable, reverse = iterable.args[0], True
    if _calls(iterable, sorted, scope):
        iterable, sort = iterable.args[0], True
    view = view_of(iterable)
    if view is None and not isinstance(dict_kind(iterable, scope), t.Dict) or (
            sort and view not in ("keys", None)):
        return None
    if view is not None:
        iterable = iterable.func.value
    view = view or "keys"
    if not _is_path(iterable):
        raise scope.error(iterable, f"a loop over the {view} of {ast.unparse(iterable)}",
                          f"bind the dict to a name first (`entries = ...`) and loop over "
                          f"entries.{view}()")
    target, reads = stmt.target, []
    if view == "items":
        if not (isinstance(target, ast.Tuple) and len(target.elts) == 2
                and isinstance(target.elts[0], ast.Name)):
            raise scope.error(target, "a loop over a dict's items must name its key and "
                              "its value", "write `for key, value in d.items():`")
        target, value = target.elts
    elif view == "values":
        target, value = name(scope.fresh("key"), stmt.target, store=True), target
    if not isinstance(target, ast.Name):
        raise scope.error(target, "a loop over a dict's keys must assign one plain name",
                          "write `for key in d:`")
    if view != "keys":
        entry = located(ast.Subscript(copy.deepcopy(iterable), name(target.id, value),
                                      ast.Load()), value)
        reads = (unpack or _assigned)(value, entry, scope)
    keys = copy.deepcopy(iterable)
    if sort:
        keys = located(ast.Call(name("sorted", stmt.iter), [keys], []), stmt.iter)
    if reverse:
        keys = located(ast.Call(name("reversed", stmt.iter), [keys], []), stmt.iter)
    loop = copy.copy(stmt)
    loop.target, loop.iter, loop.body = target, keys, reads + stmt.body
    return loop


def dict_kind(node, scope, seen=()):
    """The kind of the container ``node`` reads, as far as the syntax and the
    parameters' kinds tell (a dict written out: its keys, values of no kind); None
    when they do not."""
    if isinstance(node, ast.DictComp):  # filled by a loop: its keys are lowering's to tell
        return t.Dict(())
    if isinstance(node, ast.Dict):
        if all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in node.keys):
            return t.Dict(tuple((k.value, None) for k in node.keys))
        return None
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        return element(dict_kind(node.value, scope, seen), node.slice.value)
    if not isinstance(node, ast.Name) or node.id in seen:
        return None
    assigned = _assignments(scope).get(node.id, [])
    kinds = getattr(scope, "kinds", None) or {}
    if node.id in kinds:
        return kinds[node.id] if not assigned else None
    if len(assigned) == 1 and isinstance(assigned[0], ast.Assign):
        return dict_kind(assigned[0].value, scope, seen + (node.id,))
    if len(assigned) == 1 and isinstance(assigned[0], ast.For):  # an element of a list
        kind = dict_kind(assigned[0].iter, scope, seen + (node.id,))
        return element(kind, None) if isinstance(kind, t.List) else None
    return None


def _assignments(scope):
    """``{name: [the statements (or targets) binding it]}`` of the function, once: an
    assignment or a ``for`` binding the name alone, or the target naming it."""
    found = getattr(scope, "_dict_assignments", None)
    if found is None:
        found = {}
        for node in ast.walk(scope.tree):
            if isinstance(node, (ast.Assign, ast.For)) and isinstance(
                    node.targets[0] if isinstance(node, ast.Assign) else node.target,
                    ast.Name) and len(getattr(node, "targets", ())) <= 1:
                target = node.targets[0] if isinstance(node, ast.Assign) else node.target
                found.setdefault(target.id, []).append(node)
                continue
            for target in _bound_names(node):
                found.setdefault(target.id, []).append(target)
        scope._dict_assignments = found
    return found


def _bound_names(node):
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.comprehension)):
        targets = [node.target]
    elif isinstance(node, ast.NamedExpr):
        targets = [node.target]
    else:
        return []
    return [n for target in targets for n in ast.walk(target)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]


def view_of(node):
    """``"keys"``, ``"values"`` or ``"items"`` for ``d.keys()``... ; None otherwise."""
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in _VIEWS and not node.args and not node.keywords):
        return node.func.attr
    return None


def _calls(node, builtin, scope):
    return (isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords
            and scope.meaning(node.func) is getattr(builtins, builtin.__name__))


def _is_path(node):
    while isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        node = node.value
    return isinstance(node, ast.Name)


def _assigned(target, value, scope):
    return [located(ast.Assign([target], value), target)]


def filled_by_keys(stmt, scope):
    """``out = {k: e for k, v in d.items()}`` (or ``for k in d``) as ``out = {}`` and a loop
    filling it, ``for k, v in d.items(): out[k] = e``, which ``dict_loops`` makes a loop
    over ``d``'s keys and ``lower`` reads as filling ``out`` with them (``filling``)."""
    made, held = stmt.value, stmt.targets[0].id
    generator = made.generators[0]
    target = generator.target
    key = target.elts[0] if isinstance(target, ast.Tuple) and target.elts else target
    over = generator.iter
    over = over.func.value if view_of(over) in ("keys", "items") else over
    if len(made.generators) > 1 or generator.ifs or generator.is_async or not (
            isinstance(key, ast.Name) and isinstance(made.key, ast.Name)
            and made.key.id == key.id) or not isinstance(dict_kind(over, scope), t.Dict) and (
            view_of(generator.iter) is None):
        raise scope.error(made, "a dict comprehension whose keys are not those of the one "
                          "dict it loops over, each once", "loop over a dict's keys or items "
                          "with no if: {k: ... for k, v in d.items()}")
    entry = located(ast.Subscript(name(held, made.value), name(key.id, made.key), ast.Store()),
                    made.value)
    fill = located(ast.Assign([entry], made.value), made.value)
    return [located(ast.Assign([name(held, made, store=True)],
                               located(ast.Dict([], []), made)), made),
            located(ast.For(target, generator.iter, [fill], []), target)]
