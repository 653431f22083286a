"""Table reads: whether a parameter a function reads as a container is read only as a
table of numbers, which lowering reads with no kinds given (``lower.tables``).

Expects a function's syntax tree (``parse``), one of its parameters, and the
``helper`` lookup of ``kinds.uses_containers``.  Guarantees ``read_as_tables``: True
when every read of the parameter is one of these, and what it reads out is a number:

- an element, ``T[i]``, with an index that is neither a slice nor a string;
- ``len(T)``;
- the iterable of a ``for`` loop or of a list or generator comprehension, as it is or
  through ``reversed``, ``enumerate``, ``zip``, into names;
- unpacked into names, ``a, b = T``;
- passed by position to a helper that reads its parameter so in turn.

Anything else (a slice, ``sum``, a join, a write, a use as a number, an element that is
itself indexed or looped over, a dict built from it, a dict's ``keys``, ``values`` or
``items``, which a table has not) needs the argument's kind, so the function is
generated per kind of the arguments of each call (``specialized``).  False is the safe
answer: such a build reads the same values, with their kinds.  The same reading guards a
build with no kinds (forward mode builds so): ``check_tables`` refuses, located at the
read (``first_container_read``), a parameter lowered as a table that is read otherwise,
such as ``for k in d: d[k]``, which a table would run over by position.

    def horner(x, coeffs):                  read_as_tables(tree, "coeffs")  -> True
        s = 0.0
        for c in coeffs:
            s = s * x + c
        return s
    def mean(xs):                           read_as_tables(tree, "xs")      -> False
        return sum(xs) / len(xs)
"""

import ast
import functools
import inspect
import types

from symdiff.errors import SymdiffError, UnsupportedSyntaxError
from symdiff.frontend.kinds import called_name, uses_containers
from symdiff.frontend.parse import parse_function
from symdiff.frontend.resolve import parameter_names


def read_as_tables(tree, param, helper=None):
    """Whether every read of ``param`` in ``tree`` reads it as a table (see the module)."""
    return first_container_read(tree, param, helper) is None


def first_container_read(tree, param, helper=None):
    """The first node of ``tree`` (in ``ast.walk``'s order) that reads ``param`` other
    than as a table (a nested function's parameter of the same name counts); None when
    every read is a table's."""
    reading = _Reading(tree, helper)
    args = tree.args
    own = next((a for a in args.posonlyargs + args.args + args.kwonlyargs if a.arg == param),
               None)
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id == param and not (
                isinstance(node.ctx, ast.Load) and reading.table_read(node)):
            return node
        if isinstance(node, ast.arg) and node.arg == param and node is not own:
            return node
    return None


def reading_of(fn, readings, depth=4, parsed=None):
    """``(parsed, parameter names, helper)`` of a function, for ``uses_containers`` and
    ``read_as_tables`` (``helper(name)``: the same of a function it calls by name, read
    ``depth`` calls deep at most); None when its source cannot be read (``parsed``: its
    parse, when at hand).  ``readings`` keeps each function's, read once however often it
    is called."""
    if fn not in readings or fn is None:
        try:
            parsed = parsed if parsed is not None else parse_function(fn)
        except SymdiffError:
            readings[fn] = None
            return None
        params = parameter_names(parsed.tree)

        def helper(name):
            first, *attributes = name.split(".")
            found = parsed.closure.get(first, parsed.globals.get(first))
            for attribute in attributes:  # ``statistics.fmean``: a module's function
                found = getattr(found, attribute, None) if isinstance(
                    found, types.ModuleType) else None
            if depth == 0 or not isinstance(found, types.FunctionType) or found is fn:
                return None
            inner = reading_of(found, readings, depth - 1)
            return None if inner is None else (inner[0].tree, inner[1], inner[2])
        readings[fn] = (parsed, params, helper)
    return readings[fn]


def check_tables(parsed, tables):
    """Raise, located, where a parameter lowered as a table of data (``tables``: the
    parameters a program built with no kinds reads so) is read other than as a table:
    its kind decides what the read means (``for k in d: d[k]`` runs over a dict's keys,
    a list's elements), and no kinds were given, so the program would read it by
    position, as a list."""
    if not tables:
        return
    helper = reading_of(parsed.fn, {}, parsed=parsed)[2]
    for param in tables:
        node = first_container_read(parsed.tree, param, helper)
        if node is not None:
            raise parsed.error(
                UnsupportedSyntaxError, node, f"{param} is read here in a way its kind "
                "decides (a dict looped over by its keys, or a container read other than as "
                "a table of numbers), and its kind is known only from a call's arguments",
                "take symdiff.grad of the function (built for the kinds of each call's "
                "arguments), or give symdiff.source example arguments; forward mode (jvp, "
                "jacobian, hessian, hvp) does not read such a parameter yet")


class _Reading:
    """One tree, its syntax parents and its string-valued names, asked about reads."""

    def __init__(self, tree, helper):
        self.tree, self.helper = tree, helper
        self.parents = {id(child): node for node in ast.walk(tree)
                        for child in ast.iter_child_nodes(node)}
        self.strings = {node.targets[0].id for node in ast.walk(tree)
                        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
                        and isinstance(node.value, ast.Constant)
                        and isinstance(node.value.value, str)}
        self.indices = {node.slice.id for node in ast.walk(tree)
                        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Name)}
        self.starred = {node.value.id for node in ast.walk(tree)
                        if isinstance(node, ast.Starred) and isinstance(node.value, ast.Name)}
        self.answers = {}  # (helper, position, kind of read) -> its answer, asked once

    def of_helper(self, call, position, question):
        """``question(tree, parameter, helper)`` of the helper ``call`` calls, about its
        parameter at ``position``; None when it is no helper, False past its parameters.
        Asked once per helper and position, however many calls there are."""
        key = (called_name(call.func), position, question)
        if key not in self.answers:
            found = self.helper(key[0]) if self.helper is not None and key[0] else None
            if found is None:
                self.answers[key] = None
            else:
                inner, names, inner_helper = found
                self.answers[key] = position < len(names) and question(
                    inner, names[position], inner_helper)
        return self.answers[key]

    def parent(self, node):
        return self.parents.get(id(node))

    def table_read(self, node):
        """Whether the read ``node`` of the parameter is one a table allows."""
        parent = self.parent(node)
        if isinstance(parent, ast.Subscript) and parent.value is node:
            return self.element_read(parent)
        if _calls(parent, "len") and len(parent.args) == 1 and not parent.keywords:
            return True
        elements = self.iterated(node, parent)
        if elements is not None:
            return self.numbers(elements)
        if isinstance(parent, ast.Assign) and parent.value is node:
            targets = _names(parent.targets[0]) if len(parent.targets) == 1 else None
            return targets is not None and self.numbers(targets)
        return self.passed_on(node, parent)

    def element_read(self, subscript):
        """``T[i]``: an index that is no slice or string, read out as a number."""
        index = subscript.slice
        if isinstance(index, ast.Slice) or isinstance(index, ast.Constant) and isinstance(
                index.value, str) or isinstance(index, ast.Name) and index.id in self.strings:
            return False
        holder = self.parent(subscript)
        if isinstance(holder, ast.Assign) and holder.value is subscript:
            target = holder.targets[0] if len(holder.targets) == 1 else None
            return isinstance(target, ast.Name) and self.numbers([target.id])
        if isinstance(holder, ast.Call) and subscript in holder.args and called_name(
                holder.func):
            reads = self.of_helper(holder, holder.args.index(subscript), _reads_container)
            if reads is not None:  # a helper given an element reads a number
                return not reads
        return not _container_context(subscript, holder, self.parent)

    def iterated(self, node, parent):
        """The names of elements a loop or a comprehension over ``node`` binds (directly,
        or through ``reversed``, ``enumerate``, ``zip``); None when ``node`` is not
        iterated so."""
        if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and (
                not parent.keywords and node in parent.args):
            name, count = parent.func.id, len(parent.args)
            if name in ("reversed", "enumerate") and count == 1:
                names = self.loop_names(parent, 1 if name == "reversed" else 2)
                return None if names is None else names[-1:]
            if name == "zip":
                names = self.loop_names(parent, count)
                return None if names is None else [names[parent.args.index(node)]]
            return None
        return self.loop_names(node, 1)

    def loop_names(self, iterable, count):
        """The ``count`` names a ``for`` loop or a list or generator comprehension over
        ``iterable`` binds; None for any other target or place."""
        loop = self.parent(iterable)
        if not isinstance(loop, (ast.For, ast.comprehension)) or loop.iter is not iterable:
            return None
        if isinstance(loop, ast.comprehension) and isinstance(
                self.parent(loop), (ast.DictComp, ast.SetComp)):
            return None
        names = [loop.target.id] if isinstance(loop.target, ast.Name) else _names(loop.target)
        return names if names is not None and len(names) == count else None

    def numbers(self, elements):
        """Whether the names elements are bound to are read as numbers: none is read as
        a container (``*e`` too), or used as an index (``T[e]``, ``out[e] = ...``: a
        dict's keys, which a table's elements are not)."""
        if any(name in self.indices or name in self.starred for name in elements):
            return False
        return not uses_containers(self.tree, elements, self.helper)

    def passed_on(self, node, call):
        """The parameter passed by position to a helper that reads it as a table."""
        if not (isinstance(call, ast.Call) and called_name(call.func)
                and node in call.args and not call.keywords):
            return False
        return bool(self.of_helper(call, call.args.index(node), read_as_tables))


def _reads_container(tree, param, helper):
    return uses_containers(tree, [param], helper)


def _calls(node, name):
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and (
        node.func.id == name)


def _names(target):
    """The names of a tuple or list target of names, in order; None for any other."""
    if isinstance(target, (ast.Tuple, ast.List)) and all(
            isinstance(e, ast.Name) for e in target.elts):
        return [e.id for e in target.elts]
    return None


_WHOLE = ("len", "enumerate", "zip", "reversed", "sorted", "list", "tuple", "iter", "sum",
          "min", "max", "any", "all")


def _container_context(node, holder, parent):
    """Whether ``node`` stands where a container is read: indexed, measured, looped
    over, unpacked, given whole to a reduction, or its entries asked for."""
    if isinstance(holder, ast.Subscript) and holder.value is node:
        return True
    if isinstance(holder, ast.Attribute) and holder.value is node:
        return True
    if isinstance(holder, ast.Call) and isinstance(holder.func, ast.Name) and (
            holder.func.id in _WHOLE and node in holder.args):
        return len(holder.args) == 1 or holder.func.id not in ("min", "max")
    if isinstance(holder, (ast.For, ast.comprehension)) and holder.iter is node:
        return True
    if isinstance(holder, ast.Assign) and holder.value is node:
        return not all(isinstance(t, ast.Name) for t in holder.targets)
    return isinstance(holder, ast.Starred)


def forwarded_kwargs_name(fn):
    """The name of ``fn``'s ``**kwargs`` when it passes them on (``forwarded_kwargs``),
    else None: its source read once (a call's kinds are found on every new kind)."""
    code = getattr(fn, "__code__", None)
    if code is None or not code.co_flags & inspect.CO_VARKEYWORDS:
        return None
    return _forwarded_by_source(fn)


@functools.lru_cache(maxsize=256)
def _forwarded_by_source(fn):
    reading = reading_of(fn, {}, depth=0)
    forwarded = forwarded_kwargs(reading[0].tree) if reading is not None else []
    return forwarded[0] if forwarded else None


def forwarded_kwargs(tree):
    """``[kwargs]`` when the function passes its ``**kwargs`` on (``core(x, **kwargs)``),
    whose keys the call gives, so the helper's parameters are bound by them; else ``[]``
    (read by key, ``kwargs["k"]``, it is read when the gradient runs)."""
    kwarg = tree.args.kwarg
    if kwarg is None:
        return []
    return [kwarg.arg] if any(
        isinstance(node, ast.Call) and any(k.arg is None and isinstance(k.value, ast.Name)
                                           and k.value.id == kwarg.arg for k in node.keywords)
        for node in ast.walk(tree)) else []
