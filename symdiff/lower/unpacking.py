"""Unpacking: ``w, b = params`` as one read per name, after a check of the length.

Expects an assignment (or a loop's target and the element it is given) of a fenced
function, and its ``Hygiene``.  Guarantees:

- ``w, b = params`` is ``w = params[0]``, ``b = params[1]``, nested alike; a starred
  name takes the slice between (``first, *rest = xs`` is ``rest = xs[1:]``);
- a value that is not a plain name or a read of one (``x if c else y``), or that the
  targets assign (``p, q = p``), is first bound to a fresh name (``pair``);
- before the reads, ``if len(params) != 2: raise ValueError(...)`` (``< n`` for a
  starred target that needs ``n`` values), as Python raises ``ValueError`` there: where
  the kind gives the length (a tuple, a list's tuple elements) lowering decides the
  test when the gradient is built, so a length that agrees leaves no check in the
  generated text, one that does not leaves the ``raise``; only a length read at run
  time (a list, an array) keeps the ``if``;
- a tuple or list written out is given one value per name, its count checked now
  (a located error when it does not match); a call's values (``a, b =
  helper(x)``) are left to ``lower``, which reads what the helper returns.

    >>> import ast
    >>> from symdiff.lower.hygiene import Hygiene
    >>> tree = ast.parse("def f(p):\\n    (w, b), *rest = p\\n    return w").body[0]
    >>> scope = Hygiene(tree)
    >>> print(ast.unparse(ast.Module(unpacked_assignment(tree.body[0], scope), [])))
    if len(p) < 1:
        raise ValueError('not enough values to unpack (expected at least 1)')
    if len(p[0]) != 2:
        raise ValueError('wrong number of values to unpack (expected 2)')
    w = p[0][0]
    b = p[0][1]
    rest = p[1:]
"""

import ast
import copy

from symdiff.lower.hygiene import located, name

_CHECK_NAMES = ("len", "ValueError")


def unpacked_assignment(stmt, scope):
    """``w, b = params`` as one assignment per name, or None when no target is a tuple or
    the value is a tuple or list written out (left as it was)."""
    starred = any(isinstance(n, ast.Starred) for t in stmt.targets for n in ast.walk(t))
    if not any(isinstance(t, ast.Tuple) for t in stmt.targets) or isinstance(
            stmt.value, (ast.Tuple, ast.List, ast.Call)) and not starred:
        return None
    assigned = {n.id for t in stmt.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    out, value = [], stmt.value
    if len(stmt.targets) > 1 or not _is_path(value) or assigned & _names(value):
        held = scope.fresh(_count_noun(stmt.targets))
        out.append(located(ast.Assign([name(held, stmt, store=True)], value), stmt))
        value = name(held, stmt.value)
    for target in stmt.targets:
        out.extend(unpack(target, value, scope))
    return out


def unpack(target, value, scope):
    """Assignments of ``value`` to ``target``: a name takes it whole; a tuple of targets
    takes a literal tuple element by element, any other value by its positions, once its
    length is checked."""
    if isinstance(target, ast.Name):
        return [located(ast.Assign([target], value), target)]
    if not isinstance(target, (ast.Tuple, ast.List)):
        raise scope.error(target, "assigning to this target is not supported",
                          "assign to plain names")
    starred = [k for k, t in enumerate(target.elts) if isinstance(t, ast.Starred)]
    checks = []
    if isinstance(value, (ast.Tuple, ast.List)):  # written out: one value to each name
        if len(value.elts) < len(target.elts) - len(starred) or (
                not starred and len(value.elts) != len(target.elts)):
            raise scope.error(target, f"{len(target.elts)} names are given "
                              f"{len(value.elts)} values", "give as many names as values")
        pairs = list(zip(target.elts, value.elts))
        if starred:  # the starred name takes a list of the values between
            k, after = starred[0], len(target.elts) - starred[0] - 1
            middle = located(ast.List(value.elts[k:len(value.elts) - after], ast.Load()),
                             target.elts[k])
            pairs = pairs[:k] + [(target.elts[k], middle)] + list(zip(
                target.elts[k + 1:], value.elts[len(value.elts) - after:]))
    else:
        checks = [_length_check(target, value, len(target.elts) - len(starred),
                                bool(starred), scope)]
        pairs = [(t, _position(value, k, t, starred, len(target.elts)))
                 for k, t in enumerate(target.elts)]
    return checks + [stmt for t, v in pairs for stmt in unpack(
        t.value if isinstance(t, ast.Starred) else t, v, scope)]


def _length_check(target, value, count, starred, scope):
    """``if len(value) != count: raise ValueError(...)`` (``<`` when a starred name takes
    the rest), located at ``target``: Python's check of the values to unpack."""
    for builtin in _CHECK_NAMES:
        if scope.shadows(builtin):
            raise scope.error(target, f"unpacking is read as a check of the length, "
                              f"`len(...)`, that raises ValueError, but {builtin} is a name "
                              "of this function", f"rename the function's {builtin}")
    if starred:
        test, message = ast.Lt(), f"not enough values to unpack (expected at least {count})"
    else:
        test, message = ast.NotEq(), f"wrong number of values to unpack (expected {count})"
    length = located(ast.Call(name("len", target), [copy.deepcopy(value)], []), target)
    compare = located(ast.Compare(length, [test], [located(ast.Constant(count), target)]),
                      target)
    error = located(ast.Call(name("ValueError", target), [located(ast.Constant(message),
                                                                  target)], []), target)
    return located(ast.If(compare, [located(ast.Raise(error, None), target)], []), target)


def _position(value, k, target, starred, count):
    """``value[k]`` for the ``k``-th of ``count`` targets; around a starred one (at
    ``starred[0]``), those after it count from the end, and it takes the slice between:
    ``first, *rest = xs`` is ``first = xs[0]``, ``rest = xs[1:]``."""
    if starred and k == starred[0]:
        after = count - k - 1
        index = ast.Slice(ast.Constant(k) if k else None,
                          ast.Constant(-after) if after else None, None)
    elif starred and k > starred[0]:
        index = ast.Constant(k - count)
    else:
        index = ast.Constant(k)
    return located(ast.Subscript(copy.deepcopy(value), located(index, target), ast.Load()),
                   target)


def _count_noun(targets):
    width = len(targets[0].elts) if isinstance(targets[0], ast.Tuple) else 0
    return {2: "pair", 3: "triple"}.get(width, "values")


def _is_path(node):
    """A name, or a read of one by constants and names (``p``, ``p["w"]``, ``xs[i][0]``)."""
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        if isinstance(node, ast.Subscript) and not isinstance(node.slice, (ast.Constant,
                                                                          ast.Name)):
            return False
        node = node.value
    return isinstance(node, ast.Name)


def _names(node):
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
