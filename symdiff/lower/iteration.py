"""Iteration: loops over containers as index loops that read their elements.

Expects statements of a fenced function (desugar calls it one statement at a time)
and its ``Hygiene``.  Guarantees, for what it rewrites, the forms the containers core
reads: ``for i in range(...)`` loops, ``name[i]`` reads (nested ``name[i][j]``),
``len(name)``, and literal tuples; every statement it writes carries the location of
the user's code it stands for (an element read: the loop's target).

- ``for x in xs`` is ``for x_index in range(len(xs)): x = xs[x_index]``, the body
  after; ``reversed(xs)`` runs the same loop over ``reversed(range(len(xs)))``;
  ``enumerate(xs)`` uses the user's index name as the loop's (``start`` is added to a
  fresh index); ``zip(xs, ys)`` stops at the shortest, ``length = min(len(xs),
  len(ys))`` before the loop, where a length known now (a module's table) is written as its number; the targets are unpacked, nested (``for i, (w, b) in
  enumerate(zip(ws, bs))``, ``for w, b in layers``);
- what is looped over is read where it is: a name (unless the loop assigns it, or
  appends to it or pops it, which a Python loop would see), a module's attribute, or a
  tuple or list of number constants written out (a table, as lowering reads it, whose
  length is written as a number);
  anything else is first bound to a fresh name, once, before the loop, as Python
  evaluates it once; a loop over a dict's ``items()``, ``keys()`` or ``values()``, or
  over a module's dict, is refused (its entries are read by key);
- a loop over ``range(...)``, ``reversed(range(...))`` (or over a call of a name the
  function binds as ``range``/``reversed``, which lowering refuses in the user's terms)
  stays as it is;
- the targets take the element as ``w, b = params`` does (``unpacking``: a length
  the kinds do not give is checked first, as Python checks it).

    >>> import ast
    >>> from symdiff.lower.hygiene import Hygiene
    >>> tree = ast.parse('''
    ... def f(xs, ys, layers):
    ...     for i, (a, b) in enumerate(zip(xs, ys)):
    ...         s = a * b
    ...     for w, b in reversed(layers):
    ...         s = s * w + b
    ...     return s
    ... ''').body[0]
    >>> scope = Hygiene(tree)
    >>> for stmt in tree.body[:2]:
    ...     print(ast.unparse(ast.Module(index_loop(stmt, scope), [])))
    length = min(len(xs), len(ys))
    for i in range(length):
        a = xs[i]
        b = ys[i]
        s = a * b
    for j in reversed(range(len(layers))):
        if len(layers[j]) != 2:
            raise ValueError('wrong number of values to unpack (expected 2)')
        w = layers[j][0]
        b = layers[j][1]
        s = s * w + b
"""

import ast
import builtins
import copy
import numbers

from symdiff.core import types as t
from symdiff.core.types import is_table
from symdiff.lower.dict_loops import dict_kind, key_loop, view_of
from symdiff.lower.hygiene import located, name
from symdiff.lower.unpacking import unpack
from symdiff.lower.zip_spread import spread_zip

_SEQUENCES = (ast.Name, ast.Attribute)  # read where they are


def index_loop(stmt, scope):
    """The statements a ``for`` loop over containers is (bindings first, the range loop
    last), or None when it loops over a range already."""
    iterable = stmt.iter
    if _stays(iterable, scope):
        if not isinstance(stmt.target, ast.Name):
            raise scope.error(stmt.target, "a for loop over a range must assign one plain "
                              "name", "write `for i in range(n):`")
        return None
    keyed = key_loop(stmt, scope, unpack)
    if keyed is not None:  # a dict's keys, values or items: a loop over its keys
        return [keyed]
    for builtin in ("len", "range") + (("min",) if _is_call_of(iterable, zip, scope) else ()):
        if scope.shadows(builtin):
            raise scope.error(stmt.iter, f"a loop over {ast.unparse(iterable)} is read as a "
                              f"loop over its positions, but {builtin} is a name of this "
                              "function", f"rename the function's {builtin}")
    reverse = _is_call_of(iterable, reversed, scope)
    if reverse:
        iterable = iterable.args[0]
        if isinstance(iterable, ast.Call):
            raise scope.error(stmt.iter, f"a for loop over {ast.unparse(stmt.iter)} is not "
                              "supported", "bind the sequence to a name first "
                              "(`values = ...`) and loop over reversed(values)")
    before = []
    view = _view(iterable, stmt, scope, before)
    index_target = _user_index(view, stmt.target)
    index = index_target or scope.fresh(_index_base(view, stmt.target))
    sequences = _sequences(view)
    known = [_known_length(s, scope) for s in sequences]
    lengths = [s.length() if isinstance(s, _Range) else located(ast.Constant(n), s)
               if n is not None and (len(sequences) > 1 or _written_table(s))
               else _call("len", [copy.deepcopy(s)], s) for s, n in zip(sequences, known)]
    if len(lengths) > 1 and None not in known:
        lengths = [located(ast.Constant(min(known)), iterable)]
    length = lengths[0]
    if len(lengths) > 1:  # the shortest, named before the loop
        length = _held(_call("min", lengths, iterable), "length", scope, before)
    steps = _call("range", [length], iterable)
    if reverse:
        steps = _call("reversed", [steps], stmt.iter)
    value = _element(view, name(index, stmt.target), scope, before, stmt)
    reads = [] if index_target else unpack(stmt.target, value, scope)
    if index_target:
        reads = unpack(stmt.target.elts[1], value.elts[1], scope)
    loop = copy.copy(stmt)
    loop.target, loop.iter, loop.body = name(index, stmt.target, store=True), steps, \
        reads + stmt.body
    return before + [loop]


def _stays(iterable, scope):
    """A loop over a range (spelled ``range``, or by a name meaning it), or over one
    reversed, stays as it is."""
    def spelled(node, builtin):
        return (isinstance(node, ast.Call) and node.args and not node.keywords and (
            getattr(node.func, "id", None) == builtin.__name__
            or scope.meaning(node.func) is builtin))
    if spelled(iterable, range):
        return True
    return spelled(iterable, reversed) and len(iterable.args) == 1 and spelled(
        iterable.args[0], range)


def _view(node, stmt, scope, before):
    """What a loop runs over: ``("enumerate", view, start)``, ``("zip", [sequence])`` or
    ``("sequence", node)``; a sequence that cannot be read where it is is bound first."""
    node = spread_zip(node, scope)  # ``zip(*pairs)`` of a tuple: ``zip(pairs[0], ...)``
    if _is_call_of(node, enumerate, scope, keywords=("start",), most=2):
        inner = spread_zip(node.args[0], scope)
        start = node.args[1] if len(node.args) > 1 else (
            node.keywords[0].value if node.keywords else None)
        if _is_call_of(inner, zip, scope, keywords=(), most=None):
            view = ("zip", [_sequence(a, node, stmt, scope, before) for a in inner.args])
        else:
            view = ("sequence", _sequence(inner, node, stmt, scope, before))
        if start is not None and not (isinstance(start, ast.Constant) and start.value == 0):
            if not isinstance(start, ast.Constant):
                start = _held(start, "start", scope, before)
            return ("enumerate", view, start)
        return ("enumerate", view, None)
    if _is_call_of(node, zip, scope, keywords=(), most=None):
        return ("zip", [_sequence(a, node, stmt, scope, before) for a in node.args])
    return ("sequence", _sequence(node, None, stmt, scope, before))


class _Range:
    """``range(start, stop)`` zipped with sequences: its bounds (names or constants, held
    before the loop), read as ``start + index``, of length ``max(0, stop - start)``."""

    def __init__(self, node, start, stop):
        self.start, self.stop = start, stop
        for attribute in ("lineno", "col_offset", "end_lineno", "end_col_offset"):
            setattr(self, attribute, getattr(node, attribute, None))

    def length(self):
        span = self.stop if self.start is None else located(ast.BinOp(
            copy.deepcopy(self.stop), ast.Sub(), copy.deepcopy(self.start)), self)
        return _call("max", [located(ast.Constant(0), self), span], self)

    def read(self, index):
        return copy.deepcopy(index) if self.start is None else located(ast.BinOp(
            copy.deepcopy(self.start), ast.Add(), copy.deepcopy(index)), index)


def _zipped_range(node, scope, before):
    """The ``_Range`` of ``range(stop)`` or ``range(start, stop)`` inside ``zip``."""
    if len(node.args) == 3:
        raise scope.error(node, "a range with a step inside zip(...) is not supported",
                          "loop over the positions, `for i in range(len(xs)):`, and compute "
                          "the number from i")
    bounds = [b if isinstance(b, ast.Constant) else _held(b, "bound", scope, before)
              for b in node.args]
    return _Range(node, *([None] + bounds)[-2:])


def _sequence(node, call, stmt, scope, before):
    """A sequence read where it is, or a fresh name bound to it before the loop."""
    if call is not None and _is_call_of(call, zip, scope, keywords=(), most=None) and (
            _is_call_of(node, range, scope, keywords=(), most=3)):
        return _zipped_range(node, scope, before)
    for builtin in (reversed, enumerate, zip):
        if call is not None and _is_call_of(node, builtin, scope, keywords=None, most=None):
            raise scope.error(call, f"{builtin.__name__}(...) inside {ast.unparse(call.func)}"
                              "(...) is not supported", "loop over the positions, "
                              "`for i in range(len(xs)):`, and index the sequences "
                              "(`xs[len(xs) - 1 - i]` reads xs backwards)")
    if isinstance(scope.meaning(node) if isinstance(node, _SEQUENCES) else None, dict):
        raise scope.error(node, "a for loop over a module's dict is not supported",
                          'read its entries by their keys: p["w"], p["b"]')
    if view_of(node) is not None or isinstance(dict_kind(node, scope), t.Dict):
        inside = "a loop" if call is None else f"{ast.unparse(call.func)}(...)"
        raise scope.error(node, f"a dict inside {inside} is not supported", "loop over its "
                          "keys, `for k in d:`, and read d[k] (and e[k] of a dict with the "
                          "same keys)")
    if isinstance(node, ast.Name):
        body = [stmt.target] + stmt.body
        stored = {n.id for s in body for n in ast.walk(s)
                  if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
        for inner in (n for s in stmt.body for n in ast.walk(s)):
            if (isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute)
                    and isinstance(inner.func.value, ast.Name) and inner.func.value.id == node.id
                    and inner.func.attr in ("append", "pop")):
                raise scope.error(inner, f"a loop over {node.id} that changes its length "
                                  f"with {inner.func.attr} is not supported",
                                  f"loop over a copy or over range(n), n = len({node.id}) "
                                  "taken before the loop")
        if node.id not in stored:
            return node
    elif isinstance(node, _SEQUENCES) or _written_table(node):
        return node
    return _held(node, _plural(stmt.target), scope, before)


def _held(node, base, scope, before):
    held = scope.fresh(base)
    before.append(located(ast.Assign([name(held, node, store=True)], node), node))
    return name(held, node)


def _sequences(view):
    if view[0] == "enumerate":
        return _sequences(view[1])
    return view[1] if view[0] == "zip" else [view[1]]


def _element(view, index, scope, before, stmt):
    """What one iteration's target is given: a read, or a tuple of them."""
    if view[0] == "enumerate":
        counter = index if view[2] is None else located(
            ast.BinOp(index, ast.Add(), copy.deepcopy(view[2])), index)
        return located(ast.Tuple([counter, _element(view[1], index, scope, before, stmt)],
                                 ast.Load()), index)
    if view[0] == "zip":
        return located(ast.Tuple([_read(s, index) for s in view[1]], ast.Load()), index)
    return _read(view[1], index)


def _read(sequence, index):
    if isinstance(sequence, _Range):
        return sequence.read(index)
    return located(ast.Subscript(copy.deepcopy(sequence), copy.deepcopy(index), ast.Load()),
                   index)


def _user_index(view, target):
    """The user's own index name, used as the loop's: ``i`` of ``for i, c in
    enumerate(cs)`` (with no start)."""
    if (view[0] == "enumerate" and view[2] is None and isinstance(target, ast.Tuple)
            and len(target.elts) == 2 and isinstance(target.elts[0], ast.Name)):
        return target.elts[0].id
    return None


def _index_base(view, target):
    """``c_index`` for a loop whose element (or whose first zipped element) is a name ``c``;
    ``i`` otherwise."""
    if view[0] == "enumerate" and isinstance(target, ast.Tuple) and len(target.elts) == 2:
        view, target = view[1], target.elts[1]
    if view[0] == "zip" and isinstance(target, ast.Tuple) and target.elts:
        target = target.elts[0]
    return f"{target.id}_index" if isinstance(target, ast.Name) else "i"


def _plural(target):
    if isinstance(target, ast.Name) and not target.id.endswith("s"):
        return target.id + "s"
    return "values"


def _is_call_of(node, builtin, scope, keywords=(), most=1):
    """Whether ``node`` calls the builtin ``builtin`` (by any name meaning it) with at
    least one positional argument (at most ``most``; any number for None) and no keyword
    but those named in ``keywords`` (any, for None)."""
    return (isinstance(node, ast.Call) and bool(node.args)
            and not any(isinstance(a, ast.Starred) for a in node.args)
            and (most is None or len(node.args) <= most)
            and (keywords is None or all(k.arg in keywords for k in node.keywords))
            and scope.meaning(node.func) is getattr(builtins, builtin.__name__))


def _written_table(node):
    """A tuple or list of number constants written out (lowering reads it as a table)."""
    def number(e):
        if isinstance(e, ast.UnaryOp) and isinstance(e.op, (ast.USub, ast.UAdd)):
            e = e.operand
        return isinstance(e, ast.Constant) and isinstance(e.value, numbers.Real)
    return isinstance(node, (ast.Tuple, ast.List)) and node.elts and all(map(number, node.elts))


def _known_length(sequence, scope):
    """The length of a sequence known now: a table written out, or one the module (or
    the closure) binds to a name the function does not; None otherwise."""
    if _written_table(sequence):
        return len(sequence.elts)
    found = scope.meaning(sequence) if isinstance(sequence, _SEQUENCES) else None
    if isinstance(found, (tuple, list)) or is_table(found):
        return len(found)
    return None


def _call(function, args, where):
    return located(ast.Call(ast.Name(function, ast.Load()), args, []), where)
