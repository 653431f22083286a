"""Containers in the sympy witness: tuples, lists and dicts of sympy values, read as
Python reads them.

Expects to be mixed into the interpreter (``ExpressionReader``'s ``eval``, ``number``,
``expr``, ``fail``, ``unsupported``, ``tick``, ``assign``, ``pick``, ``pick_by_key`` and
``apply``).  Guarantees the
container half of the language: list, tuple and dict displays; indexing (a whole number
at the point, negative too), slices of tuples and lists, dict keys (constants); ``len``,
iteration (a dict by its keys), ``zip``, ``enumerate``, ``reversed``, ``sorted`` (by the
numbers at the point, or their keys), ``list``/``tuple``/``range`` as values; list and generator
comprehensions (``if`` filters, nested ``for``) and dict comprehensions, each in its own
scope; element assignment (``xs[i] = v``, ``xs[i] += v``, ``d["k"] = v``); the methods
``append``, ``extend``, ``insert``, ``pop``, ``copy`` of a list and ``get``, ``items``,
``keys``, ``values``, ``copy`` of a dict; and ``sum`` (with ``start``) of any iterable.
A list is a Python list (so an append in a helper is seen by its caller), a tuple a
tuple, a dict a dict; a number read from a container of data becomes a sympy number.

    xs = [a, b]; xs.append(a * b)       ──►  [a, b, a*b]
    sum(c * x ** i for i, c in enumerate(cs))  ──►  c0 + c1*x + c2*x**2  (cs = [c0, c1, c2])
"""

import ast

import sympy

from symdiff.errors import SymdiffError
from symdiff.witnesses.symbolic.values import _describe, _outside_value

_SEQUENCES = (tuple, list)


class ContainerReader:
    """The container expressions, statements and builtins of the interpreted language."""

    def iterate(self, value, node):
        """The items a ``for`` or a comprehension runs through ``value``: a tuple's or a
        list's, a dict's keys."""
        if isinstance(value, (tuple, list)):
            return [_outside_value(item) for item in value]
        if isinstance(value, dict):
            return [_outside_value(key) for key in value]
        if isinstance(value, str):  # zip("abc", xs): its characters
            return list(value)
        raise self.not_a_container(value, node, "iterating over")

    def not_a_container(self, value, node, what):
        """The error for a number used as a container: without a point, a parameter is a
        symbol, and only a point tells its structure."""
        if self.point is None and isinstance(value, sympy.Symbol):
            return self.fail(SymdiffError, node, f"{value} is used as a container, and "
                             "without a point it is a number", hint="pass at= (a point) "
                             "with its tuple, list or dict, to give its structure")
        return self.unsupported(node, f"{what} {_describe(value)}")

    def index(self, value, node):
        """A position: a whole number at the point."""
        number = self.number(value, node, "index")
        if number != int(number):
            raise self.fail(SymdiffError, node, f"index {number} is not a whole number",
                            hint="index with a whole number (round with int())")
        return int(number)

    def key(self, value, node):
        """A dict key: a string, or a whole number."""
        return value if isinstance(value, str) else self.index(value, node)

    def _eval_List(self, node):
        return [item for elt in node.elts for item in self.element(elt)]

    def _eval_Tuple(self, node):
        return tuple(item for elt in node.elts for item in self.element(elt))

    def element(self, elt):
        """The items one element of a display gives: one, or a starred iterable's."""
        if isinstance(elt, ast.Starred):
            return self.iterate(self.eval(elt.value), elt)
        return [self.eval(elt)]

    def _eval_Dict(self, node):
        result = {}
        for key, value in zip(node.keys, node.values):
            if key is None:  # {**other}
                result.update(self.mapping(self.eval(value), value))
            else:
                result[self.key(self.eval(key), key)] = self.eval(value)
        return result

    def mapping(self, value, node):
        if not isinstance(value, dict):
            raise self.unsupported(node, f"unpacking {_describe(value)} as a dict")
        return value

    def _eval_Subscript(self, node):
        return self.subscript(self.eval(node.value), node)

    def subscript(self, base, node):
        """``base[...]`` for the subscript ``node``: an item of a dict, tuple or list."""
        if isinstance(base, dict):
            key = self.key(self.eval(node.slice), node.slice)
            if key not in base:
                raise self.fail(SymdiffError, node, f"the key {key!r} is not in "
                                f"`{ast.unparse(node.value)}`", hint="read a key it has")
            return _outside_value(base[key])
        if not isinstance(base, _SEQUENCES):
            raise self.not_a_container(base, node, f"indexing `{ast.unparse(node.value)}`,")
        if isinstance(node.slice, ast.Slice):
            bounds = [None if part is None else self.index(self.eval(part), part)
                      for part in (node.slice.lower, node.slice.upper, node.slice.step)]
            if bounds[2] == 0:
                raise self.fail(SymdiffError, node, "a slice step of 0")
            return base[slice(*bounds)]
        index = self.index(self.eval(node.slice), node.slice)
        if not -len(base) <= index < len(base):
            raise self.fail(SymdiffError, node, f"index {index} is outside the table",
                            hint="index with a whole number inside the table")
        return _outside_value(base[index])

    def contains(self, container, item, node):
        """``item in container``: a dict's keys, or the items of a tuple or list, compared
        as Python compares them (numbers by their values at the point)."""
        if isinstance(container, dict):
            return self.key(item, node) in container
        if not isinstance(container, _SEQUENCES):
            raise self.unsupported(node, f"`in` {_describe(container)}")
        if isinstance(item, str):
            return item in container
        wanted = self.number(item, node, "condition")
        return any(not isinstance(x, str) and self.number(x, node, "condition") == wanted
                   for x in self.iterate(container, node))

    def sequence_operation(self, op, left, right, node):
        """``a + b`` of two lists or two tuples, ``xs * n`` and ``n * xs``; or
        ``NotImplemented`` where neither side is a sequence."""
        if not (isinstance(left, _SEQUENCES) or isinstance(right, _SEQUENCES)):
            return NotImplemented
        if isinstance(op, ast.Add) and type(left) is type(right):
            return left + right
        if isinstance(op, ast.Mult) and isinstance(left, _SEQUENCES) != isinstance(
                right, _SEQUENCES):
            items, count = (left, right) if isinstance(left, _SEQUENCES) else (right, left)
            return items * max(0, self.index(count, node))
        raise self.unsupported(node, f"the operator in `{ast.unparse(node)}` on "
                               f"{_describe(left)} and {_describe(right)}")

    def assign_item(self, target, value):
        """``xs[i] = value`` or ``d[k] = value``."""
        self.store_item(self.eval(target.value), target, value)

    def store_item(self, base, target, value):
        """``base[...] = value`` for the subscript ``target``."""
        if isinstance(base, dict):
            base[self.key(self.eval(target.slice), target.slice)] = value
            return
        if not isinstance(base, list) or isinstance(target.slice, ast.Slice):
            raise self.unsupported(target, f"assigning to `{ast.unparse(target)}` "
                                   f"({_describe(base)})")
        index = self.index(self.eval(target.slice), target.slice)
        if not -len(base) <= index < len(base):
            raise self.fail(SymdiffError, target, f"index {index} is outside the list",
                            hint="assign inside the list, or append")
        base[index] = value

    # comprehensions: each runs in a scope of its own, over the enclosing ones

    def comprehension(self, node, make):
        """Run ``node``'s generators, calling ``make()`` once per combination that passes
        the filters; the comprehension's names live in a scope of their own."""
        saved = self.env, self.scopes
        self.env, self.scopes = {}, (self.env,) + self.scopes
        try:
            self.generate(node.generators, make, node)
        finally:
            self.env, self.scopes = saved

    def generate(self, generators, make, node):
        first, rest = generators[0], generators[1:]
        if first.is_async:
            raise self.unsupported(node, "an async comprehension")
        for item in self.iterate(self.eval(first.iter), first.iter):
            self.tick(node)
            self.assign(first.target, item)
            if all(self.truth(test) for test in first.ifs):
                if rest:
                    self.generate(rest, make, node)
                else:
                    make()

    def _eval_ListComp(self, node):
        items = []
        self.comprehension(node, lambda: items.append(self.eval(node.elt)))
        return items

    _eval_GeneratorExp = _eval_ListComp  # consumed where it is made: a list does

    def _eval_DictComp(self, node):
        items = {}

        def make():
            items[self.key(self.eval(node.key), node.key)] = self.eval(node.value)
        self.comprehension(node, make)
        return items

    # builtins and methods of containers

    def container_builtin(self, func, args, kwargs, node):
        """The value of a builtin over containers, or ``NotImplemented`` for any other call."""
        if func is len and len(args) == 1:
            if not isinstance(args[0], dict):
                raise self.not_a_container(args[0], node, "len() of")
            return sympy.Integer(len(args[0]))
        if func is range and not kwargs:
            return [sympy.Integer(i) for i in self.range_of(node)]
        if func is sum and 1 <= len(args) + len(kwargs) <= 2 and set(kwargs) <= {"start"}:
            start = args[1] if len(args) == 2 else kwargs.get("start", sympy.S.Zero)
            items = list(self.iterate(args[0], node))
            if any(getattr(item, "ndim", 0) for item in items):  # arrays, as NumPy adds them
                return sum(items, start)
            return sympy.Add(self.expr(start, node), *(self.expr(i, node) for i in items))
        if func in (all, any) and len(args) == 1 and not kwargs:  # a check: no derivative
            truths = (self.truthy(item, node) for item in self.iterate(args[0], node))
            return sympy.Integer(1 if func(truths) else 0)
        if func in (list, tuple) and len(args) <= 1 and not kwargs:
            return func(self.iterate(args[0], node) if args else ())
        if func is dict and len(args) == 1 and isinstance(args[0], dict) and not kwargs:
            return dict(args[0])  # a new dict of the same entries
        if func is zip and not set(kwargs) - {"strict"}:
            columns = [self.iterate(arg, node) for arg in args]
            if kwargs.get("strict") and len({len(c) for c in columns}) > 1:
                raise ValueError("zip() arguments have different lengths")
            return list(zip(*columns))
        if func is enumerate and len(args) == 1 and not set(kwargs) - {"start"}:
            start = self.index(kwargs.get("start", sympy.S.Zero), node)
            return [(sympy.Integer(i), item)
                    for i, item in enumerate(self.iterate(args[0], node), start)]
        if func is reversed and len(args) == 1 and not kwargs:
            return list(reversed(self.iterate(args[0], node)))
        if func is sorted and len(args) == 1 and not set(kwargs) - {"reverse", "key"}:
            items = self.iterate(args[0], node)
            key = kwargs.get("key")  # the order at the point, by the keys there
            numbers = [self.number(item if key is None else self.apply(key, item, node), node,
                                   "sorted() item") for item in items]
            order = sorted(range(len(items)), key=numbers.__getitem__,
                           reverse=bool(self.number(kwargs.get("reverse", sympy.S.Zero),
                                                    node, "reverse")))
            return [items[i] for i in order]
        if func in (min, max) and len(args) == 1 and not kwargs and isinstance(
                args[0], (list, dict)):
            return self.pick(func.__name__, (tuple(self.iterate(args[0], node)),), node)
        if func in (min, max) and kwargs and set(kwargs) <= {"key", "default"} and len(
                args) == 1:
            items = self.iterate(args[0], node)
            if not items and "default" in kwargs:  # an empty iterable: the default
                return kwargs["default"]
            if "key" not in kwargs:
                return self.pick(func.__name__, (tuple(items),), node)
            return self.pick_by_key(func, items, kwargs["key"], node)
        return NotImplemented

    def container_method(self, base, name, args, node):
        """``base.name(*args)`` for a list or a dict, or ``NotImplemented``."""
        if isinstance(base, list):
            if name == "append" and len(args) == 1:
                base.append(args[0])
                return None
            if name == "extend" and len(args) == 1:
                base.extend(self.iterate(args[0], node))
                return None
            if name == "insert" and len(args) == 2:
                base.insert(self.index(args[0], node), args[1])
                return None
            if name == "pop" and len(args) <= 1:
                if not base:
                    raise IndexError("pop from empty list")
                return _outside_value(base.pop(*(self.index(a, node) for a in args)))
            if name == "copy" and not args:
                return list(base)
        if isinstance(base, dict):
            if name == "get" and len(args) in (1, 2):
                key = self.key(args[0], node)
                return _outside_value(base[key]) if key in base else (
                    args[1] if len(args) == 2 else None)
            if name in ("items", "keys", "values", "copy") and not args:
                return {"items": lambda: [(_outside_value(k), _outside_value(v))
                                          for k, v in base.items()],
                        "keys": lambda: [_outside_value(k) for k in base],
                        "values": lambda: [_outside_value(v) for v in base.values()],
                        "copy": lambda: dict(base)}[name]()
        return NotImplemented
