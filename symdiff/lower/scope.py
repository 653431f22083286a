"""Scope: the state lowering shares across one function, and the small records it keeps.

``Unit`` is what every ``Frame`` of one lowering shares: the one ``Namer``, the
namespace generated code reads (module constants, tables, rule functions), the globals
read (so a changed module is noticed), the helpers parsed so far and the ``Reading`` of
each function tree lowered (each read once per build), the rules of functions with
their own.  ``Nested`` is a function defined inside the one being lowered, inlined
where it is called; ``Loop`` the flags of the loop being lowered.
"""

import ast
from dataclasses import dataclass

from symdiff.errors import (
    DecoratorError,
    InternalError,
    SourceChangedError,
    SymdiffError,
    UnknownFunctionError,
)
from symdiff.frontend.fence import fence
from symdiff.frontend.parse import ParsedFunction, parse_function
from symdiff.frontend.wrappers import as_numpy
from symdiff.lower.desugar import desugar
from symdiff.lower.reading import read_tree


class Unit:
    """What all frames of one normalization share: names, namespace, parsed helpers."""

    def __init__(self, parsed, namer, math_name):
        self.main = parsed
        self.namer = namer
        self.math_name = math_name
        self.namespace = {}
        self.read = set()  # generated names some statement has read so far
        self.reads = []  # (globals dict, name, object, a list's items): what it was built from
        self.ranges = set()  # generated names holding a range (``lower.ranges``)
        self.table_names = {}  # generated name read as a table -> the error if it is in wrt
        self._globals = {}
        self._parsed = {}
        self.allow_tuple = False  # (forward mode) the function may return a tuple
        self.any_result = False  # (vjp) the function may return a container or an array
        self.program_rules = {}  # op -> Rule, for functions with their own rule
        self.custom_functions = {}  # op -> (function, partials)
        self.containers = {}  # generated name -> the container type it holds
        self.arrays = {}  # parameter -> the array type the call passes it
        self.array_code = False  # the function computes with arrays (``uses_arrays``)
        self.params = set()  # the differentiated function's parameters
        self.kwargs_keys = None  # the keys its ``**kwargs`` forwarded whole holds (a call's)
        self.specialized = False  # generated for the kinds of a call's arguments
        self.generators = set()  # names holding a random generator (``primitives.random``)
        self.strings = set()  # generated names a string's method gives a string (``kind.lower()``)
        self.empty = set()  # lists made empty whose kind the first append decides
        self.given = set()  # lists appended to another list: read through it from then on
        self.shared = set()  # lists a loop's name is bound to (``Share``), and those names
        self.inserted = set()  # lists inserted into (forward mode: made anew, unshared)
        self.made_by_insert = set()  # the lists those inserts made
        self.raised = False  # a ``raise`` outside branches, loops and ``try``: nothing
        # after it runs, so nothing after it is lowered
        self.holders = set()  # containers built holding others by name
        self.holding = set()  # lists held by name inside a literal: never changed in place
        self.keys = {}  # a loop's variable over a dict's keys -> those keys
        self.unfilled = set()  # dicts made empty (``{}``), their keys those a loop fills
        self._readings = {}  # a function's tree -> its ``Reading``

    def reading(self, tree):
        """The ``reading.Reading`` of a function's tree, made once per tree however many
        frames lower it (a helper called at many places)."""
        found = self._readings.get(tree)
        if found is None:
            index = self.main.index if tree is self.main.tree else None  # (walked once)
            found = self._readings[tree] = read_tree(tree, index)
        return found

    def custom_op(self, fn):
        """The op name of a function with its own rule, registering the rule once."""
        from symdiff.markers import CUSTOM_RULES, rule_parameters
        from symdiff.primitives.registry import custom_rule
        for op, (known, _) in self.custom_functions.items():
            if known is fn:
                return op
        partials = CUSTOM_RULES[fn]
        function_name = self.global_name(fn.__name__, fn)
        params = rule_parameters(fn)[:len(partials)]
        partial_names = [None if p is None else self.global_name(f"{fn.__name__}_d{param}", p)
                         for param, p in zip(params, partials)]
        op = f"custom_{function_name}"
        self.program_rules[op] = custom_rule(function_name, partial_names)
        self.custom_functions[op] = (fn, partials)
        return op

    def global_name(self, preferred, value):
        """The name generated code uses for the global ``value`` (a constant)."""
        key = (preferred, id(value))
        if key not in self._globals:
            if not self.namer.is_issued(preferred) and _is_main_global(self.main, preferred, value):
                name = self.namer.claim(preferred)
            else:
                name = self.namer.fresh(preferred)
            self.namespace[name] = value
            self._globals[key] = name
        return self._globals[key]

    def parse_helper(self, fn, frame, node):
        """``fn``'s ``ParsedFunction``, parsed, fenced and desugared once per build."""
        if fn not in self._parsed:
            try:
                parsed = parse_function(fn)
            except (SourceChangedError, DecoratorError, InternalError):
                raise  # located at the helper's own def or decorator (or our bug)
            except Exception as exc:
                reason = exc.message if isinstance(exc, SymdiffError) else str(exc)
                raise frame.error(UnknownFunctionError, node,
                                  f"{fn.__name__} cannot be read: {reason}",
                                  "define it with def in a source file") from None
            fence(parsed)
            self._parsed[fn] = desugar(parsed)
        return self._parsed[fn]


def _is_main_global(parsed, name, value):
    return as_numpy(parsed.globals.get(name, parsed.closure.get(name))) is value


@dataclass(eq=False)
class Nested:
    """A function defined inside the one being lowered: ``def g(t): ...`` (``g = lambda
    t: ...`` is one after ``desugar``).  It is inlined where it is called, like a
    module-level helper; a name it does not bind means what that name means in
    ``definer`` at the moment of the call, as in Python, where a closure reads its
    variables when it runs."""

    tree: ast.FunctionDef
    definer: object  # the Frame of the function whose body defines it

    def __post_init__(self):
        parsed = self.definer.parsed
        self.parsed = ParsedFunction(name=self.tree.name, tree=self.tree,
                                     filename=parsed.filename, globals=parsed.globals,
                                     closure=parsed.closure)
        self.__name__ = self.tree.name
        self.__defaults__ = tuple(ast.literal_eval(d) for d in self.tree.args.defaults)


@dataclass
class Loop:
    stop: str = None  # set by break
    skip: str = None  # set by continue
    may_return: bool = False
