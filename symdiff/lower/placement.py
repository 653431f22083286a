"""Placement: where a container may be built, for the sweeps to find it.

Expects a ``Frame`` and the syntax node that builds a container (a literal, a slice, a
join, ``[]``).  A container built inside one branch of an ``if`` exists only where the
branch ran, so the sweeps start its adjoint in the reverse of that branch
(``ad.containers``); lowering guarantees it is read nowhere else: the name it is bound
to appears only inside the branch, and is no parameter.  None is built in one arm of a
conditional expression, ``and`` or ``or``.  Either is a located ``SymdiffError``.
"""

import ast

from symdiff.errors import UnsupportedSyntaxError


def built_once(frame, node):
    """A container built in one branch of an ``if`` is read only inside that branch: the
    name it is bound to appears nowhere else (the sweeps start its adjoint in the
    branch; forward mode, which starts no adjoint, builds its tangent beside it and
    reads both after).  None is built in one arm of a conditional expression, ``and``
    or ``or``."""
    child, current = node, frame.parent(node)
    while current is not None:
        if isinstance(current, (ast.IfExp, ast.BoolOp)) or (
                isinstance(current, ast.If) and not frame.unit.allow_tuple
                and not _kept_in(frame, node, current, child)):
            raise frame.error(UnsupportedSyntaxError, node, "a container built in one branch "
                              "of an if is read after it", "build it before the if, and "
                              "change its elements in the branches")
        child, current = current, frame.parent(current)


def _kept_in(frame, node, branch, child):
    """Whether the container ``node`` builds, inside the block of ``branch`` that holds
    ``child``, is bound to no name used outside that block."""
    block = branch.body if child in branch.body else branch.orelse if (
        child in branch.orelse) else None
    if block is None:  # the test
        return False
    statement = node
    while not isinstance(statement, ast.stmt):
        statement = frame.parent(statement)
    if not (isinstance(statement, ast.Assign) and statement.value is node):
        return True  # a value the statement itself uses up
    inside = {id(n) for stmt in block for n in ast.walk(stmt)}
    names = {t.id for t in statement.targets if isinstance(t, ast.Name)}
    return not any(isinstance(n, ast.Name) and n.id in names and id(n) not in inside
                   for n in ast.walk(frame.parsed.tree)) and not names & frame.unit.params
