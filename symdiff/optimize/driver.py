"""Optimize: exact rewrites of the generated function, run to a fixed point.

Expects the ``Generated`` from ``differentiate``.  Guarantees the same results,
bit for bit, for every input — nan, inf and -0.0 included — and the same
exceptions: a pass never drops a statement that could raise, and never uses an
algebraic shortcut that is wrong for some float (``0 * x`` stays, ``x + 0.0``
stays because ``-0.0 + 0.0`` is ``0.0``).  Each pass returns whether it changed
anything; the passes repeat until none does, at most ``MAX_ROUNDS`` times (the
round ends as soon as every pass has seen the same tree and left it alone: a pass is a
function of the tree, so running it again would change nothing).
Numbers are taken to be what a float can hold: an int of 2**1024 or more meeting a
float raises ``OverflowError``, and a statement dropped as dead no longer does.

    dadd = 1.0                                 dx = math.cos(x)
    dz = dadd                  ──optimize──►   dx += y
    dx = dadd * math.cos(x)
    dx += dz * y
"""

import ast
import copy
import itertools
import math

from symdiff.backend.syntax import Transformer, clone, name_nodes, statements, walk
from symdiff.optimize.fuse import fuse_single_uses
from symdiff.optimize.prune import (
    assigned_name,
    assigned_values,
    blocks,
    cannot_raise,
    drop_dead_statements,
    drop_empty_statements,
    drop_orphan_comments,
    largest_consistent,
)
from symdiff.primitives.effects import Calls, calls_of
from symdiff.primitives.registry import float_math, foldable_math

MAX_ROUNDS = 12
MAX_TERMS = 6  # a merged sum of adjoint contributions stays one readable line


def optimize_function(generated):
    """A copy of ``generated`` with its function rewritten by every pass."""
    result = copy.copy(generated)
    function = clone(generated.function)
    floats = _float_names(function, generated)
    calls = Calls.of(generated)
    unchanged = 0  # passes run in a row that changed nothing
    for run in itertools.islice(itertools.cycle(PASSES), MAX_ROUNDS * len(PASSES)):
        if run(function, generated.math_name, floats, calls):
            unchanged = 0
        else:
            unchanged += 1
            if unchanged == len(PASSES):  # each saw this very tree and left it
                break
    result.function = function
    return result


def _float_names(function, generated):
    """Names that certainly hold floats: adjoints, and names every assignment of which
    gives a float when those names do (the largest such set, found by elimination).

    ``name = pop()`` gives what ``push(name)`` saved: the generated stack only ever
    returns a name's own value to it.
    """
    math_name = generated.math_name
    pops = {t.id for stmt in function.body if isinstance(stmt, ast.Assign)
            and isinstance(stmt.targets[0], ast.Tuple) and isinstance(stmt.value, ast.Tuple)
            for t, v in zip(stmt.targets[0].elts, stmt.value.elts)
            if isinstance(t, ast.Name) and isinstance(v, ast.Attribute) and v.attr == "pop"}
    values = assigned_values(function)
    names = list(values) + [a for a in generated.adjoints.values() if a not in values]
    helpers = frozenset(getattr(generated, "helpers", {}).values())
    found = largest_consistent(names, values, lambda value, floats: _is_popped(
        value, pops) or _is_float(value, math_name, floats), given=helpers)
    return frozenset(found) | helpers  # a helper generated code defines returns a float


def _is_popped(node, pops):
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in pops and not node.args)


# --- constant folding ------------------------------------------------------------------

def fold_constants(function, math_name, floats=frozenset(), calls=None):
    folder = _Folder(math_name, floats)
    folder.visit(function)
    return folder.changed


class _Folder(Transformer):
    def __init__(self, math_name, floats):
        self.math_name = math_name
        self.floats = floats
        self.changed = False

    def keeps_type(self, one, other):
        """``1 * e`` is ``e``; ``1.0 * e`` is ``e`` only when ``e`` is a float already."""
        return isinstance(one, int) or _is_float(other, self.math_name, self.floats)

    def _done(self, node):
        self.changed = True
        return node

    def visit_BinOp(self, node):
        self.generic_visit(node)
        left, right = _number(node.left), _number(node.right)
        if left is not None and right is not None:
            value = _apply(node.op, left, right)
            if value is not None:
                return self._done(_literal(value))
        op = node.op
        if isinstance(op, ast.Mult):
            if _is_exactly(right, 1) and self.keeps_type(right, node.left):
                return self._done(node.left)
            if _is_exactly(left, 1) and self.keeps_type(left, node.right):
                return self._done(node.right)
            if _is_exactly(right, -1) and self.keeps_type(right, node.left):
                return self._done(ast.UnaryOp(ast.USub(), node.left))
            if _is_exactly(left, -1) and self.keeps_type(left, node.right):
                return self._done(ast.UnaryOp(ast.USub(), node.right))
            for side, other in (("left", node.right), ("right", node.left)):
                inner = getattr(node, side)
                if _is_float(other, self.math_name, self.floats) and _times_one(inner):
                    setattr(node, side, inner.right if _is_exactly(_number(inner.left), 1)
                            else inner.left)  # (1.0 * a) * b is a * b when b is a float
                    return self._done(node)
        float_left = _is_float(node.left, self.math_name, self.floats)
        if isinstance(op, ast.Pow) and _is_exactly(right, 1) and (
                isinstance(right, int) or float_left):
            return self._done(node.left)  # int ** 1 is an int, float ** 1 a float
        if isinstance(op, ast.Div) and _is_exactly(right, 1) and float_left:
            return self._done(node.left)  # 3 / 1 is 3.0: only a float stays as it is
        if isinstance(op, ast.Sub) and _is_exactly(right, 0) and (
                isinstance(right, int) or float_left):
            return self._done(node.left)
        if isinstance(op, ast.Pow) and _is_exactly(right, 0) and float_left and (
                cannot_raise(node.left, self.math_name)):
            return self._done(ast.Constant(1.0))  # nan ** 0 is 1.0 too
        return node

    def visit_AugAssign(self, node):
        """``d += 1.0 * e`` is ``d += e`` when ``d`` holds a float: the sum is a float anyway."""
        self.generic_visit(node)
        value = node.value
        if node.target.id in self.floats and isinstance(value, ast.BinOp) and isinstance(
                value.op, ast.Mult):
            for one, other in ((value.left, value.right), (value.right, value.left)):
                if _is_exactly(_number(one), 1):
                    node.value = other
                    return self._done(node)
        return node

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        inner = node.operand
        if isinstance(node.op, ast.USub) and isinstance(inner, ast.UnaryOp) and isinstance(
                inner.op, ast.USub):
            return self._done(inner.operand)
        if isinstance(node.op, ast.Not):
            value = _number(inner)
            if value is not None:
                return self._done(ast.Constant(not value))
        return node

    def visit_Compare(self, node):
        self.generic_visit(node)
        values = [_number(node.left)] + [_number(c) for c in node.comparators]
        if len(node.ops) == 1 and None not in values:
            fold = {ast.Lt: float.__lt__, ast.LtE: float.__le__, ast.Gt: float.__gt__,
                    ast.GtE: float.__ge__, ast.Eq: float.__eq__, ast.NotEq: float.__ne__}
            compare = fold.get(type(node.ops[0]))
            if compare is not None:
                return self._done(ast.Constant(compare(float(values[0]), float(values[1]))))
        return node

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        return node

    def visit_IfExp(self, node):
        self.generic_visit(node)
        test = _truth(node.test)
        if test is not None:
            return self._done(node.body if test else node.orelse)
        plain = _without_known_operands(node.test)
        if plain is not node.test:
            node.test = plain
            return self._done(node)
        return node

    def visit_Call(self, node):
        self.generic_visit(node)
        func = node.func
        if (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
                and func.value.id == self.math_name and not node.keywords):
            args = [_number(a) for a in node.args]
            if args and None not in args and foldable_math(func.attr):
                try:
                    value = getattr(math, func.attr)(*args)
                except (ValueError, OverflowError, ZeroDivisionError):
                    return node
                if isinstance(value, float) and math.isfinite(value):
                    return self._done(_literal(value))
        return node


def _times_one(node):
    """``1.0 * a`` or ``a * 1.0`` (an int ``1`` too)."""
    return isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult) and (
        _is_exactly(_number(node.left), 1) or _is_exactly(_number(node.right), 1))


def _is_float(node, math_name, floats):
    """Whether ``node`` certainly evaluates to a float (so ``1.0 * node`` is ``node``)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, float)
    if isinstance(node, ast.Name):
        return node.id in floats
    if isinstance(node, ast.Attribute):  # math.pi, math.inf, ...
        return isinstance(node.value, ast.Name) and node.value.id == math_name
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Name):  # a helper generated code defines (``digamma``)
            return func.id in floats
        return (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
                and func.value.id == math_name and float_math(func.attr))
    if isinstance(node, ast.UnaryOp):  # not ``not``: that gives a bool
        return isinstance(node.op, (ast.USub, ast.UAdd)) and _is_float(node.operand, math_name,
                                                                       floats)
    if isinstance(node, ast.BinOp):
        return isinstance(node.op, ast.Div) or _is_float(node.left, math_name, floats) or (
            _is_float(node.right, math_name, floats))
    if isinstance(node, ast.IfExp):
        return _is_float(node.body, math_name, floats) and _is_float(node.orelse, math_name,
                                                                    floats)
    return False


def _truth(node):
    """The truth of a test when it is known now, else None (``x or True`` is true)."""
    value = _number(node)
    if value is not None:
        return bool(value)
    if isinstance(node, ast.Constant):
        return bool(node.value)
    if isinstance(node, ast.BoolOp):
        truths = [_truth(v) for v in node.values]
        if isinstance(node.op, ast.Or) and True in truths:
            return True
        if isinstance(node.op, ast.And) and False in truths:
            return False
    return None


def _without_known_operands(test):
    """A test's ``or`` without its false constants, ``and`` without its true ones:
    ``x or False`` -> ``x``, exact where only the truth of the test is read; ``test``
    itself where there is nothing to drop."""
    if not isinstance(test, ast.BoolOp):
        return test
    drop = False if isinstance(test.op, ast.Or) else True
    kept = [value for value in test.values if _truth(value) is not drop
            or not isinstance(value, ast.Constant)]
    if len(kept) == len(test.values) or not kept:
        return test
    return kept[0] if len(kept) == 1 else ast.BoolOp(test.op, kept)


def _number(node):
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return node.value
    if (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub)
            and isinstance(node.operand, ast.Constant)
            and isinstance(node.operand.value, (int, float))
            and not isinstance(node.operand.value, bool)):
        return -node.operand.value
    return None


def _is_exactly(value, target):
    return value is not None and not isinstance(value, bool) and value == target and (
        type(value) in (int, float))


def _apply(op, a, b):
    try:
        if isinstance(op, ast.Add):
            value = a + b
        elif isinstance(op, ast.Sub):
            value = a - b
        elif isinstance(op, ast.Mult):
            value = a * b
        elif isinstance(op, ast.Div):
            value = a / b
        elif isinstance(op, ast.Pow):
            value = a ** b
        else:
            return None
    except (ZeroDivisionError, OverflowError, ValueError):
        return None
    if isinstance(value, complex) or (isinstance(value, float) and not math.isfinite(value)):
        return None
    return value


def _literal(value):
    """A number as syntax, never a negative literal (``-2 ** x`` reads as ``-(2 ** x)``)."""
    if value < 0 or (value == 0 and math.copysign(1.0, value) < 0):
        return ast.UnaryOp(ast.USub(), ast.Constant(-value))
    return ast.Constant(value)


# --- copies ------------------------------------------------------------------------------

def propagate_copies(function, math_name, floats=frozenset(), calls=None):
    """Replace a name assigned once from a name no later statement assigns (or a number).

    Top-level statements only, all found in one pass and substituted in a second.
    """
    counts = _assignment_counts(function)
    last_write = {}  # name -> index of the last top-level statement assigning it
    for index, stmt in enumerate(function.body):
        for node in statements(stmt):
            for target in _targets(node):
                last_write[target] = index
    replacements = {}
    keep = []
    for index, stmt in enumerate(function.body):
        if isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name):
            name, value = stmt.targets[0].id, stmt.value
            if counts.get(name) == 1 and (
                    (isinstance(value, ast.Name) and last_write.get(value.id, -1) < index)
                    or _number(value) is not None):
                if isinstance(value, ast.Name) and value.id in replacements:
                    value = replacements[value.id]
                replacements[name] = value
                continue
        keep.append(stmt)
    if not replacements:
        return False
    function.body[:] = keep
    _Rename(replacements).visit(function)
    return True


def propagate_local_copies(function, math_name, floats=frozenset(), calls=None):
    """Inside a block (a loop body, say): ``a = b`` where ``a`` is assigned nowhere else
    and read only further down the block, and ``b`` does not change before those reads."""
    sites = {}
    for node in statements(function):
        for target in _targets(node):
            sites[target] = sites.get(target, 0) + 1
    readers = {}
    for node in name_nodes(function):
        if isinstance(node.ctx, ast.Load):
            readers[node.id] = readers.get(node.id, 0) + 1
    changed = False
    for block in blocks(function):
        i = 0
        while i < len(block):
            stmt = block[i]
            name = assigned_name(stmt) if isinstance(stmt, ast.Assign) else None
            value = getattr(stmt, "value", None)
            if (name is None or sites.get(name) != 1 or block is function.body
                    or not (isinstance(value, ast.Name) or _number(value) is not None)):
                i += 1
                continue
            rest = block[i + 1:]
            seen = sum(1 for s in rest for n in name_nodes(s)
                       if n.id == name and isinstance(n.ctx, ast.Load))
            last = max((j for j, s in enumerate(rest) if _reads(s, name)), default=-1)
            source = value.id if isinstance(value, ast.Name) else None
            if seen != readers.get(name, 0) or (source is not None and any(
                    source in _targets(n) for s in rest[:last + 1] for n in walk(s))):
                i += 1
                continue
            renamer = _Rename({name: value})
            block[i + 1:] = [renamer.visit(s) for s in rest]
            del block[i]
            changed = True
        # loop bodies are walked by _blocks as well
    return changed


def _targets(node):
    """Names a statement assigns directly."""
    if isinstance(node, ast.Assign):
        targets = node.targets
        if len(targets) == 1 and targets[0].__class__ is ast.Name:
            return [targets[0].id]
        return [n.id for t in targets for n in walk(t) if isinstance(n, ast.Name)]
    if isinstance(node, (ast.AugAssign, ast.For)):
        if node.target.__class__ is ast.Name:
            return [node.target.id]
        return [n.id for n in walk(node.target) if isinstance(n, ast.Name)]
    return []


class _Rename(Transformer):
    def __init__(self, replacements):
        self.replacements = replacements

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load) and node.id in self.replacements:
            return clone(self.replacements[node.id])
        return node


def _assignment_counts(function):
    """How often each name is assigned: 1 for one plain assignment run once, else 2+."""
    counts = {a.arg: 1 for a in function.args.args}
    stack = [(stmt, False) for stmt in function.body]
    while stack:
        node, in_loop = stack.pop()
        targets = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.For)):
            targets = [node.target]
        repeated = in_loop or not isinstance(node, ast.Assign)
        for target in targets:
            for sub in name_nodes(target):
                counts[sub.id] = counts.get(sub.id, 0) + 1 + repeated
        inner = in_loop or isinstance(node, (ast.For, ast.While))
        for field in ("body", "orelse"):
            for child in getattr(node, field, None) or []:
                if isinstance(child, ast.stmt):
                    stack.append((child, inner))
    return counts


# --- common subexpressions -----------------------------------------------------------------

def reuse_values(function, math_name, floats=frozenset(), calls=None):
    """Where an expression was already computed into a name, use the name.

    Only names assigned once, at top level, from an expression whose names are
    themselves assigned at most once and whose calls are pure (``effects``): the value
    cannot have changed since, so the reuse is exact (and if computing it could raise,
    it already did).  This is how the reverse sweep reuses ``math.cos(x)`` or ``x * y``
    the forward sweep computed.  Two ``s.pop()`` are two values, never one.
    """
    calls = calls_of(math_name, calls)
    counts = _assignment_counts(function)
    known = {}  # dump of an expression -> the name holding its value
    changed = False
    for stmt in function.body:
        replacer = _Reuse(known, calls)
        replacer.visit(stmt)
        changed |= replacer.changed
        if (isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name)
                and counts.get(stmt.targets[0].id) == 1
                and not isinstance(stmt.value, (ast.Name, ast.Constant))
                and all(counts.get(n.id, 0) <= 1 for n in name_nodes(stmt.value)
                        if n.id != math_name)
                and not any(isinstance(n, ast.Call) and not isinstance(n.func, ast.Attribute)
                            for n in walk(stmt.value))):
            key = _key(stmt.value, calls)
            if key is not None:
                known.setdefault(key, stmt.targets[0].id)
    return changed


def _key(node, calls):
    """A hashable form of a pure expression (names, numbers, arithmetic, calls ``calls``
    proves pure); None for anything else."""
    kind = type(node)
    if kind is ast.Name:
        return node.id
    if kind is ast.Constant:
        return (kind, type(node.value), node.value)
    if kind is ast.BinOp:
        left, right = _key(node.left, calls), _key(node.right, calls)
        return None if left is None or right is None else (type(node.op), left, right)
    if kind is ast.UnaryOp:
        inner = _key(node.operand, calls)
        return None if inner is None else (type(node.op), inner)
    if kind is ast.Attribute and isinstance(node.value, ast.Name):
        return (kind, node.value.id, node.attr)
    if kind is ast.Call and not node.keywords and calls.is_pure(node):
        parts = [_key(node.func, calls)] + [_key(a, calls) for a in node.args]
        return None if None in parts else (kind, tuple(parts))
    return None


class _Reuse(Transformer):
    def __init__(self, known, calls):
        self.known = known
        self.calls = calls
        self.changed = False

    def visit_Assign(self, node):
        node.value = self.visit(node.value)  # never the target, and never a whole copy of it
        return node

    def generic_visit(self, node):
        if self.known and isinstance(node, (ast.BinOp, ast.UnaryOp, ast.Call)):
            key = _key(node, self.calls)
            name = self.known.get(key) if key is not None else None
            if name is not None:
                self.changed = True
                return ast.Name(name, ast.Load())
        return super().generic_visit(node)


# --- accumulation --------------------------------------------------------------------------

def merge_accumulations(function, math_name, floats=frozenset(), calls=None):
    """``d = a`` then ``d += b`` becomes ``d = a + b`` (the same additions, in order)."""
    changed = False
    for block in blocks(function):
        i = 0
        while i + 1 < len(block):
            first, second = block[i], block[i + 1]
            if (isinstance(first, ast.Assign) and isinstance(first.targets[0], ast.Name)
                    and isinstance(second, ast.AugAssign)
                    and isinstance(second.op, (ast.Add, ast.Sub))
                    and second.target.id == first.targets[0].id
                    and not _reads(second.value, second.target.id)
                    and _spine(first.value) < MAX_TERMS):
                first.value = ast.BinOp(first.value, second.op, second.value)
                del block[i + 1]
                changed = True
                continue
            i += 1
    return changed


def _spine(node):
    """How many additions already hang on the left of ``node``."""
    length = 0
    while isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
        node, length = node.left, length + 1
    return length


def _reads(node, name):
    return any(n.id == name for n in name_nodes(node))


# Every pass, in the order each round runs them.
PASSES = (fold_constants, propagate_copies, propagate_local_copies, reuse_values,
          fuse_single_uses, merge_accumulations, drop_dead_statements, drop_empty_statements,
          drop_orphan_comments)
