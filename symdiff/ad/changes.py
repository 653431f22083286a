"""Container changes in the sweeps: element assignment, appends, pops, joins and reductions.

Used by ``differentiate`` beside ``containers`` (element reads, literals, slices and the
shapes of adjoints).  ``xs[k] = v`` gives ``dv += dxs[k]; dxs[k] = 0.0`` (a row replaced
gives its adjoint number by number); ``ys.append(v)`` gives ``dv += dys.pop()`` and
``v = ys.pop()`` gives ``dys.append(dv)``; ``zs = xs + [y]`` hands each part its stretch
of ``dzs``; a reduction spreads its adjoint over the container's (``sum``: every element; ``min`` and
``max``: the element returned; ``prod``: the product of the others).  A change is undone
by its reverse where a later reverse step reads the container (``Containers.restores``).
"""

from symdiff.ad.containers import _nested, container_operands, place, written_out, zeros
from symdiff.ad.facts import starts_adjoint
from symdiff.core.types import element as element_kind
from symdiff.core import expr as ex
from symdiff.ir import nodes as ir
from symdiff.ir import sweeps as sw
from symdiff.core import types as t
from symdiff.primitives.containers import Each, reads_position
from symdiff.primitives.reductions import in_math
from symdiff.primitives.registry import operation_of


class ContainerChanges:
    """The container changes of ``differentiate.Sweeps``.  Expects what ``Containers``
    expects, and ``Containers.restores``."""

    def set_item(self, stmt, scope):
        element = place(stmt.container, stmt.path)
        forward = [sw.Let(element, ex.of_operand(stmt.value))]
        if isinstance(stmt.value, ir.Var) and stmt.value.name in self.program.containers:
            return self.set_row(stmt, scope, element, forward)
        reverse = []
        if stmt.container in self.active:
            d = place(self.adjoint(stmt.container), stmt.path)
            value = stmt.value
            if isinstance(value, ir.Var) and value.name in self.active:
                reverse.append(sw.AddTo(self.adjoint(value.name), d))
            reverse.append(sw.Let(d, sw.ZERO))
        if self.restores(stmt.container, stmt):
            push, pop = self.stack_names()
            forward.insert(0, sw.Push(push, element))
            reverse.append(sw.Let(element, ex.Call(ex.Name(pop))))
        return self.saved_for_reverse(stmt, scope, ir.operand_names(stmt.path), forward,
                                      reverse)

    def added_into(self, into, value, kind):
        """``into += value`` for a number; for a list or tuple of numbers, number by
        number (``for i in range(len(value)): into[i] += value[i]``)."""
        if not _nested(kind):
            return [sw.AddTo(into, value)]
        index = self.namer.fresh("i")
        length = self.length_of(value)
        return [sw.For(index, (length,), self.added_into(
            ex.Subscript(into, ex.Name(index)), ex.Subscript(value, ex.Name(index)),
            kind.elem if isinstance(kind, t.List) else kind.elts[0]))]

    def set_row(self, stmt, scope, element, forward):
        """``h[t] = row``: the new row's adjoint takes the element's, number by number;
        the old row comes back, with zeros for its adjoint."""
        push, pop = self.stack_names()
        forward.insert(0, sw.Push(push, element))
        reverse = []
        if stmt.container in self.active:
            d = place(self.adjoint(stmt.container), stmt.path)
            if stmt.value.name in self.active:
                index = self.namer.fresh("i")
                into = ex.Subscript(ex.Name(self.adjoint(stmt.value.name)), ex.Name(index))
                reverse.append(sw.For(index, (self.length_of(d),),
                                      [sw.AddTo(into, ex.Subscript(d, ex.Name(index)))]))
            kind = self.program.containers[stmt.container]
            for index in stmt.path:
                kind = element_kind(kind, index.value if isinstance(index, ir.Const) else None)
            reverse += [sw.Let(element, ex.Call(ex.Name(pop))), sw.Let(d, zeros(kind, element))]
        else:
            reverse.append(sw.Let(element, ex.Call(ex.Name(pop))))
        return self.saved_for_reverse(stmt, scope, ir.operand_names(stmt.path), forward,
                                      reverse)

    def append_to_list(self, stmt, scope):
        """``ys.append(v)`` on a list: its reverse takes the element back out of both."""
        forward = [sw.Push(stmt.stack, ex.of_operand(stmt.value), method=True)]
        reverse = [sw.Pop(None, stmt.stack, method=True)] if self.restores(
            stmt.stack, stmt) else []
        if stmt.stack in self.active:
            d = self.adjoint(stmt.stack)
            value = stmt.value
            popped = ex.Call(ex.Attribute(ex.Name(d), "pop"))
            if isinstance(value, ir.Var) and value.name in self.active and (
                    value.name in self.program.containers):  # a row: added in, number by number
                row, index = self.namer.fresh(f"d{value.name}_appended"), self.namer.fresh("i")
                into = ex.Subscript(ex.Name(self.adjoint(value.name)), ex.Name(index))
                reverse += [sw.Let(row, popped), sw.For(index, (self.length_of(ex.Name(row)),), [
                    sw.AddTo(into, ex.Subscript(ex.Name(row), ex.Name(index)))])]
            elif isinstance(value, ir.Var) and value.name in self.active:
                summed = self.summed_only(stmt.stack)
                share = popped if summed is None else ex.Name(self.adjoint(summed.target))
                reverse.append(sw.AddTo(self.adjoint(value.name), share))
            elif self.summed_only(stmt.stack) is None:
                reverse.append(sw.Pop(None, d, method=True))
        return forward, reverse

    def pop_from_list(self, stmt, scope):
        """``v = ys.pop()`` (or ``ys.pop(i)``): its reverse puts ``v``'s adjoint back on the
        list's adjoint (which has the list's shape at every point), at the end (or where
        it was taken out), and ``v`` back on the list where a later reverse step reads the
        list."""
        overwrites = self._defines(stmt, scope)
        if stmt.index is None:
            forward = [sw.Pop(stmt.target, stmt.stack, method=True)]
        else:
            forward = [sw.Let(stmt.target, ex.Call(ex.Attribute(ex.Name(stmt.stack), "pop"),
                                                   (ex.of_operand(stmt.index),)))]
        reverse = []
        if stmt.stack in self.active:
            active = stmt.target in self.active
            value = ex.Name(self.adjoint(stmt.target)) if active else sw.ZERO
            reverse.append(self.put_back(stmt, self.adjoint(stmt.stack), value))
            if active and overwrites:
                reverse.append(sw.Let(self.adjoint(stmt.target), sw.ZERO))
        if self.restores(stmt.stack, stmt):
            popped = ex.Name(stmt.target)
            if scope.taped(stmt.target, self.defuse.place(stmt)) and (
                    stmt.target not in scope.in_place):  # overwritten before the reverse
                push, pop = self.stack_names()
                forward.append(sw.Push(push, popped))
                popped = ex.Call(ex.Name(pop))
            reverse.append(self.put_back(stmt, stmt.stack, popped))
        forward, reverse = self.saved_for_reverse(stmt, scope, ir.operand_names(
            (stmt.index,)), forward, reverse)
        return self.restoring(stmt, scope, forward, reverse)

    def put_back(self, stmt, into, value):
        """``into.append(value)`` for a pop of the last element; for ``pop(i)``,
        ``into.insert(p, value)`` at the position ``p`` it was taken from, read from the
        list's length where ``i`` may be negative (``i if i >= 0 else len(into) + 1 + i``;
        ``len(into) - 1`` for ``pop(-2)``)."""
        if stmt.index is None:
            return sw.Push(into, value, method=True)
        index = ex.of_operand(stmt.index)
        after = ex.BinOp("+", self.length_of(ex.Name(into)), ex.Const(1))
        if isinstance(stmt.index, ir.Const) and stmt.index.value >= 0:
            position = index
        elif isinstance(stmt.index, ir.Const):
            position = ex.BinOp("-", self.length_of(ex.Name(into)), ex.Const(
                -stmt.index.value - 1))
        else:
            position = ex.IfExp(ex.Compare(index, (">=",), (ex.Const(0),)), index,
                                ex.BinOp("+", after, index))
        return sw.Do(ex.Call(ex.Attribute(ex.Name(into), "insert"), (position, value)))

    def summed_only(self, name):
        """The sum whose adjoint is every element's of the list ``name``, or None
        (``ad.facts``)."""
        return self.facts.summed_only.get(name)

    def reduce(self, stmt, scope):
        overwrites = self._defines(stmt, scope)
        container = place(stmt.container, stmt.path)
        if in_math(stmt.op):
            func = ex.Attribute(ex.Name(self.program.math_name), stmt.op)
        else:
            func = ex.Name(self.builtin(stmt.op))
        args = (container,) if stmt.start is None else (container, ex.of_operand(stmt.start))
        keywords = ()
        if stmt.op == "prod" and stmt.start is not None:
            args, keywords = (container,), (("start", ex.of_operand(stmt.start)),)
        forward = [sw.Let(stmt.target, ex.Call(func, args, keywords))]
        if stmt.target not in self.active:
            return self.restoring(stmt, scope, forward, [])
        g = ex.Name(self.adjoint(stmt.target))
        reverse = []
        if stmt.container in self.active:
            reverse += self._spread(stmt, g)
            forward, reverse = self.saved_for_reverse(stmt, scope, ir.operand_names(stmt.path),
                                                      forward, reverse)
        start = stmt.start
        if isinstance(start, ir.Var) and start.name in self.active:
            vjp = operation_of(stmt).vjp[1]
            reverse += self.added(self.adjoint(start.name), vjp(
                g, container_operands(stmt), ex.Name(stmt.target), self.names_for(stmt)))
        if overwrites:
            reverse.append(sw.Let(g.id, sw.ZERO))
        return self.restoring(stmt, scope, forward, reverse)

    def _spread(self, stmt, g):
        """The reverse of a reduction into the container's adjoint: its record's VJP."""
        container = place(stmt.container, stmt.path)
        d = place(self.adjoint(stmt.container), stmt.path)
        index = self.namer.fresh("i")
        value = operation_of(stmt).vjp[0](g, container_operands(stmt), ex.Name(stmt.target),
                                          self.names_for(stmt))
        summed_only = self.summed_only(stmt.container) is stmt  # no list of adjoints
        if stmt.container in self.facts.started and (summed_only or isinstance(
                value, Each) and not reads_position(value.value) and starts_adjoint(
                    self.defuse, stmt)):  # no zeros when the reverse starts
            return [] if summed_only else [  # ``dterms = [g] * len(terms)``
                sw.Let(d.id, ex.BinOp("*", ex.List((value.value,)), self.length_of(container)))]
        return self.added(d, value, index, container)

    def join(self, stmt, scope):
        """``zs = xs + [y]``: the reverse hands each part its stretch of the adjoint,
        ``dxs[i] += dzs[i]`` for each ``i``, then ``dy += dzs[len(xs)]``."""
        self.defined.add(stmt.target)
        value = None
        for part in stmt.parts:
            node = written_out(part) if isinstance(part, ir.Literal) else place(
                part.container, part.path)
            value = node if value is None else ex.BinOp("+", value, node)
        forward = [sw.Let(stmt.target, value)]
        if stmt.target not in self.active:
            return forward, []
        d = ex.Name(self.adjoint(stmt.target))
        reverse, builders = [], iter(operation_of(stmt).vjp)
        args, names = container_operands(stmt), self.names_for(stmt)
        for part in stmt.parts:
            if isinstance(part, ir.Literal):
                for item in part.items:
                    vjp = next(builders)
                    if isinstance(item, ir.Var) and item.name in self.active:
                        reverse.append(sw.AddTo(self.adjoint(item.name), vjp(
                            d, args, ex.Name(stmt.target), names)))
                continue
            vjp = next(builders)
            if part.container in self.active:
                index = self.namer.fresh("i")
                reverse += self.added(place(self.adjoint(part.container), part.path), vjp(
                    d, args, ex.Name(stmt.target), names), index, place(
                        part.container, part.path))
        if scope.in_loop:  # a new container each iteration: the last one comes back after
            push, pop = self.stack_names()
            forward.insert(0, sw.Push(push, ex.Name(stmt.target)))
            kind = self.program.containers[stmt.target]
            reverse += [sw.Pop(stmt.target, pop), sw.Let(d.id, zeros(kind, ex.Name(stmt.target)))]
        names = ir.operand_names(tuple(i for part in stmt.parts if isinstance(part, ir.Ref)
                                       for i in part.path))
        return self.saved_for_reverse(stmt, scope, names, forward, reverse)

