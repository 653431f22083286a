"""Afresh: a name a loop binds anew gets a variable of its own for that loop.

Expects a ``Frame`` and a loop statement of its (desugared) tree, before the loop is
lowered.  Inside a loop an assignment writes the variable its name already has, so a
value carried from one iteration to the next stays in one variable.  A name the loop
binds before it reads it (its variable, or the first statement of every iteration:
``item = Ws[item_index]``) carries nothing in, and when no code after the loop reads it
before binding it again (nor a function defined in the body of the function, which may
read it when called) nothing carries its value out either (a name the loop pops a
value into keeps its variable: the value's type is that of what was pushed from it); ``fresh_loop_names`` lets
such a name get a fresh variable in the loop, and each later assignment of it at the
top of the loop's body another (``Frame.rebinds``: nothing reads the value it
replaces), so two loops over unlike values (a list of matrices, then one of vectors),
or one body that binds a name to a vector and then to a matrix, may reuse one name:

    for item in Ws:                  for item_index in range(len(Ws)):
        s = s + np.sum(item)   ──►       item = Ws[item_index] ...
    for item in bs:                  for item_index_1 in range(len(bs)):
        s = s + np.sum(item)             item_1 = bs[item_index_1] ...

A name read after the loop keeps its variable (after a loop that runs no iteration
Python keeps the old value).
"""

import ast

from symdiff.frontend.exits import assigned_user_names
from symdiff.ir import nodes as ir

_READ, _WRITE = "read", "write"
_LOOPS = (ast.For, ast.While)


def fresh_loop_names(frame, node, own=()):
    """Forget the variable of each name loop ``node`` binds afresh (``own``: the names
    its own target binds every iteration), so assigning it in the loop takes a new one."""
    for name in assigned_user_names(node):
        current = frame.mapping.get(name)
        if current is not None and (not isinstance(current, ir.Var) or (
                current.name in frame.unit.containers)):
            continue
        if name not in own and _first_access(node.body, name) != _WRITE:
            continue
        if _reads(getattr(node, "test", ast.Pass()), name) or any(
                _reads(s, name) for s in node.orelse):  # a while's test, the loop's else
            continue
        if _popped(frame, node, name) or _closure_reads(frame.parsed.tree, name) or (
                _read_after(frame, node, name)):
            continue
        frame.mapping.pop(name, None)
        bindings = [s for s in node.body if isinstance(s, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in s.targets)]
        frame.rebinds.update(id(s) for s in bindings[0 if name in own else 1:])


def _read_after(frame, node, name):
    """Whether code that runs after loop ``node`` may read ``name`` before binding it:
    the rest of each block around it, and the next iterations of the loops around it."""
    child, parent = node, frame.parent(node)
    while child is not frame.parsed.tree:
        if parent is None:  # (a statement lowering wrote: not in the tree)
            return True
        rest = _rest_of_block(parent, child)
        if rest is None:
            return True
        if isinstance(parent, ast.Try) and any(_reads(s, name) for s in (
                parent.handlers + parent.finalbody)):  # (raised inside the loop)
            return True
        found = _first_access(rest, name)
        if found is not None:
            return found == _READ
        if isinstance(parent, _LOOPS) and child in parent.body and (
                _first_access([parent], name) == _READ):
            return True
        child, parent = parent, frame.parent(parent)
    return False


def _rest_of_block(parent, child):
    """The statements after ``child`` in the block of ``parent`` that holds it; None
    when ``child`` is not a statement of one of its blocks (an ``except`` clause)."""
    for field in ("body", "orelse", "finalbody"):
        block = getattr(parent, field, None)
        if isinstance(block, list) and any(s is child for s in block):
            return block[[id(s) for s in block].index(id(child)) + 1:]
    return None


def _first_access(stmts, name):
    """``"read"`` when running ``stmts`` may read ``name`` before binding it,
    ``"write"`` when every path binds it first (or leaves the function), None when no
    path reads it and not every path binds it."""
    for stmt in stmts:
        found = _access(stmt, name)
        if found is not None:
            return found
    return None


def _access(stmt, name):
    if isinstance(stmt, ast.Assign):
        if _reads(stmt.value, name) or any(_reads(t, name) for t in stmt.targets):
            return _READ
        bound = any(isinstance(n, ast.Name) and n.id == name
                    for t in stmt.targets for n in ast.walk(t))
        return _WRITE if bound else None
    if isinstance(stmt, ast.If):
        if _reads(stmt.test, name):
            return _READ
        body, orelse = _first_access(stmt.body, name), _first_access(stmt.orelse, name)
        if _READ in (body, orelse):
            return _READ
        return _WRITE if body == orelse == _WRITE else None
    if isinstance(stmt, ast.For):
        own = isinstance(stmt.target, ast.Name) and stmt.target.id == name
        if _reads(stmt.iter, name) or not own and _READ in (
                _first_access(stmt.body, name), _first_access(stmt.orelse, name)):
            return _READ
        return None  # (it may run no iteration: not a binding on every path)
    if isinstance(stmt, ast.While):
        if _reads(stmt.test, name) or _READ in (_first_access(stmt.body, name),
                                                _first_access(stmt.orelse, name)):
            return _READ
        return None
    if isinstance(stmt, ast.Return):
        return _READ if stmt.value is not None and _reads(stmt.value, name) else _WRITE
    return _READ if _reads(stmt, name) else None  # (a try, a call, a check: any read)


def _reads(node, name):
    return any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
               for n in ast.walk(node))


def _popped(frame, node, name):
    """Whether the loop assigns ``name`` a value popped off a list: such a value takes
    its type from the pushes of the same variable (``analysis.types.returned_names``),
    so the name keeps it."""
    for stmt in ast.walk(node):
        if isinstance(stmt, ast.Assign) and any(
                isinstance(n, ast.Name) and n.id == name for t in stmt.targets
                for n in ast.walk(t)) and _is_pop(frame, stmt.value):
            return True
    return False


def _is_pop(frame, value):
    if not isinstance(value, ast.Call):
        return False
    func = value.func
    if isinstance(func, ast.Attribute):
        return func.attr == "pop"
    return isinstance(func, ast.Name) and frame.methods.get(func.id, (None, None))[1] == "pop"


def _closure_reads(tree, name):
    """Whether a function defined in ``tree`` (a ``def`` or a ``lambda``) reads ``name``."""
    return any(isinstance(n, (ast.FunctionDef, ast.Lambda)) and n is not tree and any(
        _reads(part, name) for part in ast.iter_child_nodes(n)) for n in ast.walk(tree))
