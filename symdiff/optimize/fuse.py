"""Fuse: a value computed once and read once, further down the same block, is
written where it is read.

Expects a generated function as IR (``optimize`` runs this with its other passes).
Guarantees the same results and the same exceptions: the moved expression sees
the same operands (nothing in between assigns a name it reads) and is evaluated
exactly once, as before; if it could raise, nothing in between and nothing
evaluated before it in its new place could, so the same error comes first.
Values read twice, or read by the reverse sweep, keep their names: storing them
is what saves recomputing them.  A fused statement stays one readable line
(``MAX_OPERATIONS``), and no value moves from the forward sweep into the
reverse one.  A value computed by a call that may have effects (``effects``: a
stack's ``pop``, a user function) stays where it is.

    mul_h = a * h
    add_h = mul_h + b           ──fuse──►   sin_h = math.sin(a * h + b)
    sin_h = math.sin(add_h)                 h = h + 0.001 * sin_h
    mul_h_1 = 0.001 * sin_h
    h = h + mul_h_1
"""

from symdiff.core import expr as ex
from symdiff.ir import sweeps as sw
from symdiff.optimize.analyses import read_counts, write_counts
from symdiff.optimize.facts import cannot_raise
from symdiff.optimize.walk import (
    OPERATIONS,
    blocks,
    count_operations,
    is_comment,
    name_reads,
    plain_target,
    renamed,
    walk,
    writes,
)

MAX_OPERATIONS = 6  # operations in a statement built by fusing
REACH = 40  # statements searched below a value for its reader (keeps the pass linear)

_OPERATIONS = OPERATIONS
_SIMPLE = (sw.Let, sw.AddTo, sw.Do, sw.Push, sw.Pop, sw.NewStack, sw.Comment)
# (a return keeps its named adjoints)


def fuse_single_uses(function, context):
    """``t = e`` whose only reader follows in the same block: ``e`` goes there, ``t`` goes."""
    sites, reads = _counts(function, context)
    changed = False
    for block in blocks(function):
        # a fused value's statement goes; the search below one never meets another gone
        # (each goes where the scan stands), so the block is rebuilt once, not shifted
        keep = [stmt for i, stmt in enumerate(block)
                if not _fuse(block, i, sites, reads, context)]
        if len(keep) != len(block):
            block[:] = keep
            changed = True
    return changed


def _fuse(block, i, sites, reads, context):
    stmt = block[i]
    name = plain_target(stmt)
    if name is None:
        return False
    value = stmt.value
    if sites.get(name) != 1 or reads.get(name) != 1 or not isinstance(value, _OPERATIONS):
        return False
    if _has_effects(value, context):
        return False  # a pop stays where it is: moving it would take values out of order
    operands = set(name_reads(value, context))
    raises = _class(value, context)
    for j in range(i + 1, min(len(block), i + 1 + REACH)):
        later = block[j]
        if is_comment(later):
            continue
        if is_comment(later, True) or not isinstance(later, _SIMPLE):
            return False  # the reverse sweep's heading, a branch, a loop, the return
        evaluated = _evaluated(later)
        if evaluated is not None and name in name_reads(evaluated, context):
            return _place(block, i, j, name, value, raises, reads, context)
        if operands & set(writes(later)) or not _compatible(raises, _stmt_class(later, context)):
            return False
    return False


def _has_effects(value, context):
    """Whether ``value`` makes a call the run's ``calls`` does not prove pure (kept per
    expression)."""
    calls = context.calls
    return context.remember("effects", value, lambda e: any(
        isinstance(n, ex.Call) and not calls.is_pure(n, allocating=True) for n in walk(e)))


QUIET, OVERFLOW, RAISES = 0, 1, 2  # what evaluating a value may raise


def _class(value, context):
    """``QUIET``: nothing (``facts.cannot_raise``, every ``math`` call taken as one that
    may raise, as fuse has always judged them); ``OVERFLOW``: only an ``OverflowError``
    (of an int too large for a float, or of a float too large: ``a ** 2``);
    ``RAISES``: anything else too."""
    if cannot_raise(value, context, math_name=None):
        return QUIET
    if cannot_raise(value, context, math_name=None, any_overflow=True):
        return OVERFLOW
    return RAISES


def _compatible(one, other):
    """Whether two values of these classes may be evaluated in either order: the first
    exception is of the same type both ways (one raises nothing, or either raises only
    ``OverflowError``)."""
    return one == QUIET or other == QUIET or one == other == OVERFLOW


def _evaluated(stmt):
    """The expression ``stmt`` evaluates before it stores anything: a value, or the call
    a ``Push`` makes (None for what evaluates nothing a value could move into)."""
    if isinstance(stmt, (sw.Let, sw.AddTo, sw.Do)):
        return stmt.value
    if isinstance(stmt, sw.Push):
        func = ex.Attribute(ex.Name(stmt.stack), "append") if stmt.method else (
            ex.Name(stmt.stack))
        return ex.Call(func, (stmt.value,))
    return None


def _place(block, i, j, name, value, raises, reads, context):
    """Put ``value`` in place of ``name`` in ``block[j]``, if the rules allow."""
    reader = block[j]
    evaluated = _evaluated(reader)
    if count_operations(evaluated, context) + count_operations(value, context) > (
            MAX_OPERATIONS):
        return False
    target = plain_target(reader)
    if target is not None and not reads.get(target):
        return False  # kept only because it may raise: it stays as short as it was
    if raises and not _only_quiet_before(evaluated, name, raises, context):
        return False
    reader.value = renamed(reader.value, {name: value}, context)
    return True  # ``block[i]`` goes


def _counts(function, context):
    """How many places assign each name (parameters count), and how many read it."""
    sites = dict(context.analysis(write_counts, function))
    for p in function.params:
        sites[p] = sites.get(p, 0) + 1
    return sites, context.analysis(read_counts, function)


def _stmt_class(stmt, context):
    """What running ``stmt`` may raise (``_class``): nothing for a push onto or a pop from
    a save stack (the reverse sweep keeps it balanced) of a name or a number; its value's
    for a value stored in a name, or a call made for its effect."""
    if isinstance(stmt, sw.Push):
        return QUIET if not stmt.method and (isinstance(stmt.value, ex.Name) or (
            isinstance(stmt.value, ex.Const) and stmt.value.text is None)) else RAISES
    if isinstance(stmt, sw.Pop):
        return RAISES if stmt.method else QUIET
    if isinstance(stmt, (sw.Let, sw.AddTo)) and not sw.is_place(stmt.target):
        return _class(_evaluated_value(stmt), context)
    if isinstance(stmt, sw.Do):
        return _class(stmt.value, context)
    return RAISES  # a new stack, a comment, a write to a place


def _evaluated_value(stmt):
    """What an assignment computes: ``d += e`` adds ``e`` to ``d``."""
    if isinstance(stmt, sw.AddTo):
        return ex.BinOp("-" if stmt.negate else "+", ex.Name(stmt.target), stmt.value)
    return stmt.value


def _only_quiet_before(node, name, raises, context):
    """Whether everything Python evaluates before reading ``name`` in ``node`` may come
    before a value of class ``raises`` (``_compatible``), and ``name`` is read
    unconditionally (not inside ``a if c else b``, nor after the first operand of
    ``and``/``or``)."""
    state = {"found": False}

    def visit(node, again):
        """Walk in evaluation order; False as soon as something before ``name`` may raise
        (``again``: itself, passed in, so that it holds no reference to itself)."""
        if state["found"]:
            return True
        if isinstance(node, ex.Name):
            state["found"] = node.id == name
            return True
        if isinstance(node, ex.Attribute) and isinstance(node.value, ex.Name):
            return True  # math.sin: a module's function
        if isinstance(node, ex.Const) and node.text is not None and node.text.count(".") == 1:
            return True  # math.pi
        if isinstance(node, (ex.IfExp, ex.BoolOp, ex.Compare)):
            parts = _evaluation_order(node)  # all but the first may be skipped
            if any(name in ex.names(p) for p in parts[1 + isinstance(node, ex.Compare):]):
                return False
        for child in _evaluation_order(node):
            if not again(child, again):
                return False
            if state["found"]:
                return True
        return _compatible(raises, _class(node, context))

    return visit(node, visit) and state["found"]


def _evaluation_order(node):
    if isinstance(node, ex.BinOp):
        return [node.left, node.right]
    if isinstance(node, ex.UnaryOp):
        return [node.operand]
    if isinstance(node, ex.Call):
        return [node.func, *node.args]
    if isinstance(node, ex.Compare):
        return [node.left, *node.comparators]
    if isinstance(node, ex.IfExp):
        return [node.test, node.body, node.orelse]
    if isinstance(node, ex.BoolOp):
        return list(node.values)
    if isinstance(node, ex.Attribute):
        return [node.value]
    if isinstance(node, ex.Tuple):
        return list(node.elts)
    return []
