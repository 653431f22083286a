"""Loop invariants: what a loop computes alike on every iteration is computed once, before it.

Expects the sweeps of ``optimize`` (typed: ``analysis.sweep_types``).  Guarantees the
same values, bit for bit, and the same exceptions, raised where they were: a value moved
out of a loop is the same operations on the same operands, and those operands are names
of immutable values (numbers, strings, tuples of them) that no statement of the loop
writes.  For each ``for`` loop, three rewrites:

- **a statement moved**: ``t = e`` at the top of the loop's body, ``t`` assigned nowhere
  else and read in the loop only after it, ``e`` pure and of operands the loop never
  changes, goes before the loop.  Where ``e`` may raise (``-omega ** 2`` overflows), only
  when that changes nothing but the iteration it is raised in: the loop is a ``range`` of
  numbers written out that runs at least once, it sits in no ``try``, and every statement
  before ``t = e`` in the body raises nothing and only binds names of the function or
  saves on the gradient's own stack (so the first iteration reaches ``t = e``, with
  nothing a caller could see done before it);
- **a value reused**: an expression in the loop that a statement just before the loop
  assigned to a name (operands unchanged since) is read from the name;
- **a part computed once**: a part of an expression in the loop (at any depth) that
  cannot raise, is pure and reads operands the loop never changes (``2 * omega`` in the
  reverse sweep) gets a name of its own, assigned before the loop; each repeat of it in
  the loop reads the name.  An input check (``assert``, ``raise``) stays as written.

The moved statements go before the comments that lead to the loop, each under the comment
of the line it came from, which says it moved (as ``ad.writer`` says it of the values
hoisted before differentiating):

    for _ in range(200):                      # line 207, hoisted out of its loop: k1v = ...
        # line 207: k1v = -omega ** 2 * x      neg_k1v = -omega ** 2
        neg_k1v = -omega ** 2     ──►         for _ in range(200):
        k1v = neg_k1v * x                         # line 207: k1v = -omega ** 2 * x
        neg_k2v = -omega ** 2                     k1v = neg_k1v * x
        ...                                       neg_k2v = neg_k1v
"""

from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.ir import sweeps as sw
from symdiff.optimize.analyses import write_counts
from symdiff.optimize.facts import cannot_raise, known_number, type_of
from symdiff.primitives.registry import operator_ops
from symdiff.optimize.walk import (
    children,
    is_comment,
    name_reads,
    reads,
    rewrite,
    statements,
    walk,
    with_children,
    writes,
)

_IMMUTABLE = (t.Float, t.Int, t.Bool, t.Str, t.Number, t.NoneType)
_OPERATIONS = (ex.BinOp, ex.UnaryOp, ex.Call, ex.Compare, ex.BoolOp, ex.IfExp)
_QUIET_STEPS = (sw.Let, sw.AddTo, sw.Push, sw.Comment, sw.Pass)
_AS_WRITTEN = (sw.Check, sw.Raise)  # the user's input checks read as the user wrote them


def hoist_invariants(function, context):
    """Move what each ``for`` loop of ``function`` computes alike on every iteration before
    it (module docstring); whether anything moved."""
    hoister = _Hoister(function, context)
    hoister.visit(function.body, False, set(function.params))
    return hoister.changed


def _key(expr):
    """One key per expression of one value: ``2`` and ``2.0``, ``0.0`` and ``-0.0`` apart."""
    return repr(expr)


class _Hoister:
    def __init__(self, function, context):
        self.function, self.context = function, context
        self.counts = write_counts(function, context)
        self.taken = set(function.params) | set(context.types)
        for stmt in statements(function.body):
            self.taken.update(reads(stmt, context))
            self.taken.update(writes(stmt))
        self.changed = False

    def visit(self, block, in_try, bound):
        """Hoist out of every loop in ``block`` (``in_try``: the block runs in a ``try``;
        ``bound``: the names certainly bound where it begins, which it adds to)."""
        i = 0
        while i < len(block):
            stmt = block[i]
            kind = type(stmt)
            if kind is sw.For:
                if _repeated_comment(block, i):  # its statements moved, then went
                    del block[i - 1]
                    self.changed = True
                    i -= 1
                added = self.hoist(block, i, in_try, bound)
                for new in block[i:i + added]:
                    bound.update(sw.binds(new))
                i += added
                self.visit(stmt.body, in_try, bound | {stmt.target})
            elif kind is sw.Function:
                pass  # a function of its own: its names are not these
            elif sw.blocks(stmt):
                inner = in_try or kind is sw.Try
                for nested in sw.blocks(stmt):
                    self.visit(nested, inner, set(bound))
            else:
                bound.update(sw.binds(stmt))
            i += 1

    def hoist(self, block, index, in_try, bound):
        """Move the invariants of the loop ``block[index]`` before it (``bound``: the names
        certainly bound where it begins); how many statements now stand before it that
        did not."""
        loop = block[index]
        self.bound = set(bound)
        changed = set()
        for stmt in statements(loop.body):
            changed.update(writes(stmt))
        changed.add(loop.target)
        self.loop_changes = changed
        available = self._available(block, index)
        moved = []  # (comment, statement) to go before the loop
        self._move_statements(loop, available, moved, in_try)
        self._name_parts(loop.body, available, moved, None)
        if not moved:
            return 0
        self.changed = True
        return self._place(block, index, moved)

    # --- what a statement before the loop already holds --------------------------------

    def _available(self, block, index):
        """The values the statements just before the loop assigned, by key -> name."""
        found = {}
        later = set()  # names the statements after the one looked at assign
        for stmt in reversed(block[:index]):
            if type(stmt) is sw.Comment:
                continue
            target = stmt.target if type(stmt) is sw.Let else None
            if type(target) is not str:
                break
            if (target not in later and target not in self.loop_changes
                    and self._steady(stmt.value, later)
                    and any(isinstance(n, _OPERATIONS) for n in walk(stmt.value))):
                found.setdefault(_key(stmt.value), target)
            later.add(target)
        return found

    def _steady(self, expr, also_changed=()):
        """Whether ``expr`` is pure and reads only immutable values the loop never changes."""
        for node in walk(expr):
            if type(node) is ex.Call and not self.context.calls.is_pure(node):
                return False
            if type(node) in (ex.Subscript, ex.Dict, ex.List, ex.Slice):
                return False
        for name in name_reads(expr, self.context):
            if name in self.loop_changes or name in also_changed:
                return False
            if not self._immutable(name):
                return False
        return True

    def _module_name(self, name):
        calls = self.context.calls
        if name == self.context.math_name or name in calls.numpy_names:
            return name not in self.counts and name not in self.function.params
        return name in calls.builtins and name not in self.context.types and (
            name not in self.counts)

    def _immutable(self, name):
        if self._module_name(name):
            return True
        return name in self.bound and _immutable_type(self.context.type_of(name))

    # --- whole statements --------------------------------------------------------------

    def _move_statements(self, loop, available, moved, in_try):
        quiet = not in_try and _runs_once_at_least(loop)  # the first iteration gets here
        comment = None
        read_before = set()  # names the body read above the statement looked at
        body = loop.body
        i = 0
        while i < len(body):
            stmt = body[i]
            if type(stmt) is sw.Comment:
                comment = stmt
                i += 1
                continue
            self._reuse(stmt, available)
            if self._movable(stmt, read_before, quiet):
                del body[i]
                moved.append((comment, stmt))
                self.loop_changes.discard(stmt.target)
                self.bound.add(stmt.target)
                if any(isinstance(n, _OPERATIONS) for n in walk(stmt.value)):
                    available.setdefault(_key(stmt.value), stmt.target)
                continue
            quiet = quiet and self._quiet_step(stmt)
            for inner in statements([stmt]):
                read_before.update(reads(inner, self.context))
            i += 1

    def _movable(self, stmt, read_before, quiet):
        if type(stmt) is not sw.Let or type(stmt.target) is not str:
            return False
        target = stmt.target
        if (self.counts.get(target) != 1 or target in self.function.params
                or target in read_before or not _immutable_type(self.context.type_of(target))):
            return False
        if not self._steady(stmt.value):
            return False
        return quiet or cannot_raise(stmt.value, self.context)

    def _quiet_step(self, stmt):
        """Whether ``stmt`` certainly raises nothing and changes only the function's names."""
        kind = type(stmt)
        if kind not in _QUIET_STEPS or kind is sw.Push and stmt.method:  # a list of f's
            return False
        if kind is sw.Let or kind is sw.AddTo:
            if type(stmt.target) is not str:
                return False
            if kind is sw.AddTo and not _immutable_type(self.context.type_of(stmt.target)):
                return False
        value = getattr(stmt, "value", None)
        if value is None:
            return True
        return cannot_raise(value, self.context) and not any(
            type(n) is ex.Call and not self.context.calls.is_pure(n) for n in walk(value))

    # --- parts of expressions ------------------------------------------------------------

    def _reuse(self, stmt, available):
        """Read from a name each part of ``stmt`` (and the statements in it) held by one."""
        if not available:
            return
        for inner in statements([stmt]):
            if type(inner) not in _AS_WRITTEN:
                rewrite(inner, lambda e: self._replaced(e, available, None))

    def _name_parts(self, block, available, moved, comment):
        for stmt in block:
            if type(stmt) is sw.Comment:
                comment = stmt
                continue
            if type(stmt) not in _AS_WRITTEN:
                rewrite(stmt, lambda e: self._replaced(e, available, (moved, comment)))
            for nested in sw.blocks(stmt):
                self._name_parts(nested, available, moved, comment)

    def _replaced(self, expr, available, naming):
        """``expr`` with its largest invariant parts read from names (``naming``: the list
        of statements to move and the comment of the line, to name a part that none
        holds yet; None: only those held)."""
        if type(expr) in (ex.Name, ex.Const):
            return expr
        if isinstance(expr, _OPERATIONS) and self._steady(expr):
            name = available.get(_key(expr))
            if name is not None:
                self.changed = True
                return ex.Name(name)
            if naming is not None and self._worth_naming(expr):
                name = self._fresh(expr)
                self.function.types[name] = type_of(expr, self.context)
                moved, comment = naming
                moved.append((comment, sw.Let(name, expr)))
                available[_key(expr)] = name
                self.bound.add(name)
                return ex.Name(name)
        inner = children(expr)
        if not inner:
            return expr
        new = [c if c is None else self._replaced(c, available, naming) for c in inner]
        if all(a is b for a, b in zip(new, inner)):
            return expr
        return with_children(expr, new)

    def _worth_naming(self, expr):
        """A computation of a name (not of numbers written out alone) that raises nothing,
        of a known immutable type."""
        if not name_reads(expr, self.context) or known_number(expr) is not None:
            return False
        return (_immutable_type(type_of(expr, self.context))
                and cannot_raise(expr, self.context))

    def _fresh(self, expr):
        base = _name_of(expr)
        name, n = base, 0
        while name in self.taken:
            n += 1
            name = f"{base}_{n}"
        self.taken.add(name)
        return name

    # --- where the moved statements go ---------------------------------------------------

    def _place(self, block, index, moved):
        """Put ``moved`` before the loop ``block[index]`` (before the comments leading to
        it; if its comment is further up, a copy of it after them); how many went in."""
        start = index
        while start > 0 and type(block[start - 1]) is sw.Comment and not block[start - 1].heading:
            start -= 1
        lines = []
        last = None
        for comment, stmt in moved:
            if comment is not None and (last is None or comment.text != last.text):
                lines.append(sw.Comment(_hoisted(comment.text)))
            last = comment if comment is not None else last
            lines.append(stmt)
        if start == index:
            heading = _leading_comment(block, index)
            if heading is not None:
                lines.append(sw.Comment(heading.text))
        block[start:start] = lines
        return len(lines)


def _hoisted(text):
    """The comment of a line (``line 207: ...``) over what moved out of its loop
    (``line 207, hoisted out of its loop: ...``, as ``ad.writer`` says it)."""
    where, colon, rest = text.partition(": ")
    if not colon or not where.startswith("line ") or "hoisted out of its loop" in where:
        return text
    return f"{where}, hoisted out of its loop: {rest}"


def _leading_comment(block, index):
    """The comment the loop ``block[index]`` stands under (None: none)."""
    for stmt in reversed(block[:index]):
        if type(stmt) is sw.Comment:
            return None if stmt.heading else stmt
        if type(stmt) in (sw.For, sw.While, sw.If, sw.Try):
            return None
    return None


def _repeated_comment(block, index):
    """Whether the comment just before the loop ``block[index]`` says again what the last
    comment above it says, with only statements of no block between."""
    if index < 2 or not is_comment(block[index - 1]):
        return False
    for stmt in reversed(block[:index - 1]):
        if type(stmt) is sw.Comment:
            return not stmt.heading and stmt.text == block[index - 1].text
        if sw.blocks(stmt):
            return False
    return False


def _immutable_type(kind):
    if isinstance(kind, t.Tuple):
        return all(_immutable_type(k) for k in kind.elts)
    return isinstance(kind, _IMMUTABLE)


def _runs_once_at_least(loop):
    """Whether ``loop`` is over a ``range`` of ints written out that is not empty."""
    if loop.over is not None or not loop.bounds:
        return False
    bounds = [known_number(b) for b in loop.bounds]
    if not all(type(b) is int for b in bounds) or len(bounds) > 3 or bounds[2:] == [0]:
        return False
    return len(range(*bounds)) > 0


def _name_of(expr):
    """A name for the value of ``expr``: its operation and its first name (``mul_omega``)."""
    first = next(iter(ex.name_ids(expr)), "value")
    if type(expr) is ex.BinOp:
        op = operator_ops(2).get(expr.op, "value")  # ``mul`` of ``*``: the registry's
    elif type(expr) is ex.UnaryOp:
        op = operator_ops(1).get(expr.op, "value")
    elif type(expr) is ex.Call:
        func = expr.func
        op = func.attr if type(func) is ex.Attribute else getattr(func, "id", "value")
        first = next((n for n in ex.name_ids(ex.Tuple(expr.args))), first)
    elif type(expr) in (ex.Compare, ex.BoolOp):
        op = "cond"
    else:
        op = "value"
    return f"{op}_{first}"
