"""Containers in the sweeps: element reads, literals, slices, and adjoints' shapes.

Used by ``differentiate`` (the changes, ``xs[k] = v``, ``append`` and the reductions,
are ``ad.changes``).  The adjoint of a container is a list of the same shape (a dict
for a dict), zeros when the reverse sweep starts, when the container holds its last
value: ``dxs = [0.0] * len(xs)``.  Each reverse step adds into one element or takes one
out, so loops stay loops:

    y = xs[i]                     dxs[i] += dy       (dy is dxs[i] itself where xs never
                                                      changes: ``forwarded``)
    ys = [a, b]                   da += dys[0]; db += dys[1]
    tail = xs[1:]                 dxs[1 + k] += dtail[k], for each k

A change the forward sweep makes to a container is undone by its reverse only where a
later reverse step reads the container, a reduction's or a slice's (``restores``); a
list a loop builds anew is saved by reference.  The gradient of a container parameter
is returned in its structure (a tuple for a tuple: ``tuple(dparams)``).
"""

from symdiff.errors import UnsupportedSyntaxError
from symdiff.core import expr as ex
from symdiff.ir import nodes as ir
from symdiff.ir import sweeps as sw
from symdiff.core import types as t
from symdiff.core.rewrite import substitute
from symdiff.primitives.containers import POSITION, At, Each
from symdiff.primitives.registry import operation_of


def place(name, path):
    """``name[i][j]``: the IR expression of an element."""
    node = ex.Name(name)
    for index in path:
        node = ex.Subscript(node, ex.of_operand(index))
    return node


def container_operands(stmt):
    """The operands of a container statement with a record, as its builders take them:
    the container (the place inside it, for a reduction's path), then the indices of an
    element read, or a reduction's start; a build's numbers (then ``n`` of ``[a] * n``);
    a join's parts, a literal's items one by one; a slice's bounds (None: left out); the
    list a name is bound to again."""
    if isinstance(stmt, ir.Item):
        return (ex.Name(stmt.container),) + tuple(ex.of_operand(i) for i in stmt.path)
    if isinstance(stmt, ir.Join):
        return tuple(a for part in stmt.parts for a in (
            tuple(ex.of_operand(i) for i in part.items) if isinstance(part, ir.Literal)
            else (place(part.container, part.path),)))
    if isinstance(stmt, ir.Share):
        return (place(stmt.container, stmt.path),)
    if isinstance(stmt, ir.Take):
        bounds = () if stmt.copy is not None else tuple(
            None if b is None else ex.of_operand(b) for b in stmt.bounds)
        return (place(stmt.container, stmt.path),) + bounds
    if isinstance(stmt, ir.Build):
        repeat = () if stmt.repeat is None else (ex.of_operand(stmt.repeat),)
        return tuple(ex.of_operand(item) for _, item in ir.literal_leaves(
            stmt.items, stmt.keys)) + repeat
    start = () if stmt.start is None else (ex.of_operand(stmt.start),)
    return (place(stmt.container, stmt.path),) + start


def written_out(literal):
    """The IR expression of a container written out (``ir.Literal``), nested ones too."""
    items = tuple(written_out(i) if isinstance(i, ir.Literal) else ex.of_operand(i)
                  for i in literal.items)
    if literal.kind == "dict":
        return ex.Dict(tuple(ex.Const(k) for k in literal.keys), items)
    return (ex.List if literal.kind == "list" else ex.Tuple)(items)


def zeros(kind, value):
    """The expression of a container of zeros shaped as ``value`` (of type ``kind``)."""
    if isinstance(kind, t.Dict):
        return ex.Dict(tuple(ex.Const(k) for k, _ in kind.items), tuple(
            _zero(v, ex.Subscript(value, ex.Const(k))) for k, v in kind.items))
    if isinstance(kind, t.List) and not _nested(kind.elem):
        return ex.BinOp("*", ex.List((sw.ZERO,)), ex.Call(ex.Name("len"), (value,)))
    if isinstance(kind, t.List):
        return ex.ListComp(_zero(kind.elem, ex.Name("item")), "item", value)
    if all(not _nested(e) for e in kind.elts):
        return ex.List((sw.ZERO,) * len(kind.elts))
    return ex.List(tuple(_zero(e, ex.Subscript(value, ex.Const(i)))
                         for i, e in enumerate(kind.elts)))


def _zero(kind, value):
    return zeros(kind, value) if _nested(kind) else sw.ZERO


def _nested(kind):
    return isinstance(kind, (t.List, t.Tuple, t.Dict))


def structured(kind, value):
    """The gradient ``value`` (lists of floats) as the parameter's structure: a tuple
    for a tuple, nested alike."""
    if not _converts(kind):
        return value
    if isinstance(kind, t.List):
        return ex.ListComp(structured(kind.elem, ex.Name("item")), "item", value)
    if isinstance(kind, t.Dict):
        return ex.Dict(tuple(ex.Const(k) for k, _ in kind.items), tuple(
            structured(v, ex.Subscript(value, ex.Const(k))) for k, v in kind.items))
    if not any(_converts(e) for e in kind.elts):
        return ex.Call(ex.Name("tuple"), (value,))
    return ex.Tuple(tuple(structured(e, ex.Subscript(value, ex.Const(i)))
                          for i, e in enumerate(kind.elts)))


def _converts(kind):
    if isinstance(kind, t.Tuple):
        return True
    if isinstance(kind, t.List):
        return _converts(kind.elem)
    if isinstance(kind, t.Dict):
        return any(_converts(v) for _, v in kind.items)
    return False


class Containers:
    """The container statements of ``differentiate.Sweeps``.  Expects ``program``,
    ``active``, ``facts`` (``ad.facts``), ``built_sides``, ``adjoint``, ``builtin``,
    ``defined``, ``stack_names`` and ``saved_for_reverse`` from ``Sweeps``."""

    def restores(self, container, change):
        """Whether the reverse of ``change`` (a statement changing ``container``) must
        undo it: a reduction or a slice of the container (or of a name bound to the same
        object) reads it in the reverse sweep after that reverse — it comes before
        ``change`` in the forward sweep, or in the same loop."""
        du = self.defuse
        at, loops = du.position(change), set(s.sid for s in du.loops(change))
        return any(du.position(r) < at or loops & {s.sid for s in du.loops(r)}
                   for r in self.facts.readers.get(container, ()))

    def added(self, adjoint, value, index=None, over=None):
        """``adjoint += value`` (``adjoint`` a name or a place) for a VJP's value
        (``primitives.containers``): at one place (an index computed is bound to
        ``index`` first), or at every place of the container ``over``, by a loop over
        ``index``."""
        if isinstance(value, At):
            bound, into = [], adjoint
            for step in value.path:
                if isinstance(step, ex.Call):
                    bound.append(sw.Let(index, step))
                    step = ex.Name(index)
                into = ex.Subscript(ex.Name(into) if isinstance(into, str) else into, step)
            return bound + [sw.AddTo(into, value.value)]
        if isinstance(value, Each):
            share = substitute(value.value, {POSITION.id: ex.Name(index)})
            into = ex.Name(adjoint) if isinstance(adjoint, str) else adjoint
            return [sw.For(index, (self.length_of(over),), [
                sw.AddTo(ex.Subscript(into, ex.Name(index)), share)])]
        return [sw.AddTo(adjoint, value)]

    def length_of(self, value):
        """``len(value)``, as generated code calls ``len``."""
        return ex.Call(ex.Name(self.builtin("len")), (value,))

    def container_statement(self, stmt, scope):
        if isinstance(stmt, ir.Item):
            return self.item(stmt, scope)
        if isinstance(stmt, ir.Build):
            return self.build_container(stmt, scope)
        if isinstance(stmt, ir.SetItem):
            return self.set_item(stmt, scope)
        if isinstance(stmt, ir.Share):
            return self.share(stmt, scope)
        if isinstance(stmt, ir.Take):
            return self.take(stmt, scope)
        if isinstance(stmt, ir.Join):
            return self.join(stmt, scope)
        return self.reduce(stmt, scope)

    def take(self, stmt, scope):
        """``tail = xs[1:]``: the reverse adds the slice's adjoint back at the positions
        it was taken from (``range(len(xs))[1:]`` names them, whatever the bounds)."""
        self.defined.add(stmt.target)
        source = place(stmt.container, stmt.path)
        cut = ex.Slice(*[None if b is None else ex.of_operand(b) for b in stmt.bounds])
        descending = (("reverse", ex.Const(True)),) if stmt.descending else ()
        if stmt.copy is None:
            value = ex.Subscript(source, cut)
        else:
            value = ex.Call(ex.Name(self.builtin(stmt.copy)), (source,), descending)
        forward = [sw.Let(stmt.target, value)]
        if stmt.target not in self.active:
            return forward, []
        positions, index = self.namer.fresh(f"{stmt.target}_positions"), self.namer.fresh("i")
        d = ex.Name(self.adjoint(stmt.target))
        scattered = operation_of(stmt).vjp[0](d, container_operands(stmt), ex.Name(
            stmt.target), self.names_for(stmt))
        into = ex.Subscript(place(self.adjoint(stmt.container), stmt.path),
                            ex.Subscript(ex.Name(positions), ex.Name(index)))
        kind = self.program.containers[stmt.target]
        reverse = [sw.Let(positions, scattered.positions),
                   sw.For(index, (self.length_of(ex.Name(positions)),), self.added_into(
                       into, ex.Subscript(scattered.value, ex.Name(index)), kind.elem if
                       isinstance(kind, t.List) else kind.elts[0]))]
        if scope.in_loop:
            push, pop = self.stack_names()
            forward.insert(0, sw.Push(push, ex.Name(stmt.target)))
            kind = self.program.containers[stmt.target]
            reverse += [sw.Pop(stmt.target, pop), sw.Let(d.id, zeros(kind, ex.Name(stmt.target)))]
        names = ir.operand_names(stmt.path + tuple(b for b in stmt.bounds if b is not None))
        return self.saved_for_reverse(stmt, scope, names, forward, reverse)

    def share(self, stmt, scope):
        """``x = h``, a loop-carried name bound to another list: its adjoint is added
        into the other's, element by element, and the old list comes back."""
        self.defined.add(stmt.target)
        forward = [sw.Let(stmt.target, place(stmt.container, stmt.path))]
        if stmt.target not in self.active:
            return forward, []
        d = self.adjoint(stmt.target)
        index = self.namer.fresh("i")
        each = operation_of(stmt).vjp[0](ex.Name(d), container_operands(stmt), ex.Name(
            stmt.target), self.names_for(stmt))  # measured by the adjoint it adds
        reverse = self.added(place(self.adjoint(stmt.container), stmt.path), each, index,
                             ex.Name(d))
        if scope.in_loop:
            push, pop = self.stack_names()
            forward.insert(0, sw.Push(push, ex.Name(stmt.target)))
            kind = self.program.containers[stmt.target]
            reverse += [sw.Pop(stmt.target, pop), sw.Let(d, zeros(kind, ex.Name(stmt.target)))]
        return self.saved_for_reverse(stmt, scope, ir.operand_names(stmt.path), forward,
                                      reverse)

    def container_adjoints(self, side=None):
        """``dxs = [0.0] * len(xs)`` for every active container, as the reverse starts (but
        for one whose adjoint a sum starts: ``_spread``).  A container built only inside
        branches of ``if`` statements (read only there: lowering sees to it) may not exist
        when the reverse starts: its adjoint starts with the reverse of the branch that
        builds it, ``side`` (``(sid of the if, True for its body)``)."""
        return [sw.Let(self.adjoint(name), zeros(kind, ex.Name(name)))
                for name, kind in self.program.containers.items()
                if name in self.active and name not in self.facts.started
                and side in self._built_in(name)]

    def branch_local_adjoints(self):
        """The adjoints of the active containers built only inside branches: each is set
        in the reverse of its branch before it is read, and needs no zero before."""
        return {self.adjoint(name) for name in self.program.containers
                if name in self.active and None not in self._built_in(name)}

    def _built_in(self, name):
        """The innermost branches (``DefUse.branches``) the definitions of the container
        ``name`` stand in; ``{None}`` when one stands in none.  Found once per name: the
        reverse of every branch asks of every container."""
        if name not in self.built_sides:
            self.built_sides[name] = self._find_built_in(name)
        return self.built_sides[name]

    def _find_built_in(self, name):
        du = self.defuse
        sides = set()
        for stmt in du.definitions(name):
            around = du.branches(stmt)
            if not around:
                return {None}
            sides.add(around[-1])
        for reader in du.readers(name):
            if sides and not sides & set(du.branches(reader)):
                origin = reader.origin
                raise UnsupportedSyntaxError(
                    "a container built in one branch of an if is read outside that branch",
                    filename=origin.filename, lineno=origin.lineno,
                    col_offset=origin.col_offset, source_line=origin.text,
                    hint="build it before the if (the branches may then change it), or "
                         "read it only inside the branch")
        return sides or {None}

    def gradient_of(self, name):
        kind = self.program.containers.get(name)
        value = ex.Name(self.adjoint(name))
        return value if kind is None else structured(kind, value)

    def _defines(self, stmt, scope):
        overwrites = scope.in_loop or stmt.target in self.defined
        self.defined.add(stmt.target)
        return overwrites

    def item(self, stmt, scope):
        overwrites = self._defines(stmt, scope)
        forward = [sw.Let(stmt.target, place(stmt.container, stmt.path))]
        if stmt.target not in self.active or stmt.target in self.facts.forwarded:
            return self.restoring(stmt, scope, forward, [])
        g = self.adjoint(stmt.target)
        vjp = operation_of(stmt).vjp[0]
        reverse = self.added(self.adjoint(stmt.container), vjp(
            ex.Name(g), container_operands(stmt), ex.Name(stmt.target), self.names_for(stmt)))
        if overwrites:
            reverse.append(sw.Let(g, sw.ZERO))
        forward, reverse = self.saved_for_reverse(stmt, scope, ir.operand_names(stmt.path),
                                                  forward, reverse)
        return self.restoring(stmt, scope, forward, reverse)

    def build_container(self, stmt, scope):
        self.defined.add(stmt.target)
        if stmt.repeat is not None:
            value = ex.BinOp("*", ex.List((ex.of_operand(stmt.items[0]),)),
                             ex.of_operand(stmt.repeat))
        else:
            value = written_out(ir.Literal(stmt.kind, stmt.items, stmt.keys))
        forward = [sw.Let(stmt.target, value)]
        if stmt.target not in self.active:
            return forward, []
        d = ex.Name(self.adjoint(stmt.target))
        reverse = []
        if scope.in_loop:  # a new container each iteration: the last one comes back after
            push, pop = self.stack_names()
            forward.insert(0, sw.Push(push, ex.Name(stmt.target)))
            kind = self.program.containers[stmt.target]
            after = [sw.Pop(stmt.target, pop), sw.Let(d.id, zeros(kind, ex.Name(stmt.target)))]
        else:
            after = []
        leaves = [item for _, item in ir.literal_leaves(stmt.items, stmt.keys)]
        args, names = container_operands(stmt), self.names_for(stmt)
        for item, vjp in zip(leaves, operation_of(stmt).vjp):
            if not (isinstance(item, ir.Var) and item.name in self.active):
                continue
            share = vjp(d, args, ex.Name(stmt.target), names)
            held = self.program.containers.get(item.name)
            if held is not None:  # a list held by name: its adjoint takes the element's
                reverse += self.added_into(ex.Name(self.adjoint(item.name)), share, held)
                continue
            reverse.append(sw.AddTo(self.adjoint(item.name), share))
        return forward, reverse + after


