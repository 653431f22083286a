"""Normalize: a fenced function -> a ``Program`` of single-operation statements.

Expects a ``ParsedFunction`` that passed ``fence`` and ``desugar`` (``symdiff.pipeline``
runs them in order, and ``hoist`` after; a helper it inlines it fences and desugars itself).  Guarantees:

- every differentiable statement applies one primitive to names or constants;
- no augmented assignment or tuple unpacking is left;
- outside loops and branches every name is assigned once (a reassignment gets a
  fresh version: ``x`` then ``x_1``); a loop or branch that updates a variable the
  earlier code still reads works on a fresh copy of it;
- ``return``, ``break`` and ``continue`` are gone: they become flags, guards and a
  final ``BreakIf`` in each loop body;
- ``and``, ``or``, chained comparisons and conditional expressions become ``If``
  statements, so only the operand Python would evaluate is ever evaluated;
- calls to the user's own functions are inlined, with fresh names;
- each statement remembers the user's line it came from.

    z = math.sin(x * y) + 1      ──►    mul_z = x * y
                                        sin_z = math.sin(mul_z)
                                        z = sin_z + 1
"""

import sys

from symdiff.errors import DecoratorError, SourceChangedError, SymdiffError, UnknownFunctionError
from symdiff.frontend.fence import fence
from symdiff.frontend.parse import parse_function
from symdiff.frontend.resolve import all_identifiers, local_names
from symdiff.ir import nodes as ir
from symdiff.ir.names import BUILTINS, Namer
from symdiff.lower.desugar import desugar
from symdiff.lower.frame import Frame
from symdiff.lower.spelling import mark_numpy_operations


def normalize(parsed, allow_tuple=False):
    """The ``Program`` of a parsed function that passed ``fence``.

    With ``allow_tuple`` (forward mode), the function may return a tuple of
    numbers; ``Program.result`` is then a tuple of operands.
    """
    namer = Namer(all_identifiers(parsed.tree) + list(BUILTINS))
    math_name = _math_alias(parsed, namer)
    program_origin = _origin(parsed, parsed.tree)
    unit = Unit(parsed, namer, math_name)
    unit.allow_tuple = allow_tuple
    frame = Frame(unit, parsed, mapping={}, stack=(parsed.fn,), top=True)
    params = []
    for name in local_names(parsed.tree)[:_param_count(parsed.tree)]:
        params.append(namer.claim(name))
        frame.mapping[name] = ir.Var(name)
    kwargs = parsed.tree.args.kwarg.arg if parsed.tree.args.kwarg is not None else None
    if kwargs is not None:
        frame.mapping[kwargs] = ir.Var(namer.claim(kwargs))
    body, result = frame.run_function_body(parsed.tree.body)
    mark_numpy_operations(body, lambda: unit.global_name("np", sys.modules["numpy"]))
    return ir.Program(name=parsed.name, params=params, body=body, result=result,
                      origin=program_origin, namespace=unit.namespace, math_name=math_name,
                      reserved=namer.taken, defaults=_defaults(parsed),
                      reads=unit.reads, custom=unit.program_rules,
                      custom_functions=unit.custom_functions,
                      tables={p: unit.table_names[p] for p in params if p in unit.table_names},
                      optional=_optional(parsed, params), kwargs=kwargs)


class Unit:
    """What all frames of one normalization share: names, namespace, parsed helpers."""

    def __init__(self, parsed, namer, math_name):
        self.main = parsed
        self.namer = namer
        self.math_name = math_name
        self.namespace = {}
        self.read = set()  # generated names some statement has read so far
        self.reads = []  # (globals dict, name, object, a list's items): what it was built from
        self.table_names = {}  # generated name read as a table -> the error if it is in wrt
        self._globals = {}
        self._parsed = {}
        self.allow_tuple = False
        self.program_rules = {}  # op -> Rule, for functions with their own rule
        self.custom_functions = {}  # op -> (function, partials)

    def custom_op(self, fn):
        """The op name of a function with its own rule, registering the rule once."""
        from symdiff.markers import CUSTOM_RULES, rule_parameters
        from symdiff.primitives.rules import custom_rule
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
        if fn not in self._parsed:
            try:
                parsed = parse_function(fn)
            except (SourceChangedError, DecoratorError):
                raise  # located at the helper's own def or decorator, where the fix is
            except Exception as exc:
                reason = exc.message if isinstance(exc, SymdiffError) else str(exc)
                raise frame.error(UnknownFunctionError, node,
                                  f"{fn.__name__} cannot be read: {reason}",
                                  "define it with def in a source file") from None
            fence(parsed)
            self._parsed[fn] = desugar(parsed)
        return self._parsed[fn]


def _is_main_global(parsed, name, value):
    return parsed.globals.get(name, parsed.closure.get(name)) is value


def _math_alias(parsed, namer):
    import math
    is_math = parsed.globals.get("math", math) is math and parsed.closure.get(
        "math", math) is math  # `import math` in the body binds it like a global
    if "math" in local_names(parsed.tree) or not is_math:
        return namer.fresh("math")
    return namer.claim("math")


def _optional(parsed, params):
    """The parameters whose default is None (``scale=None``, tested with ``is None``)."""
    values = getattr(parsed.fn, "__defaults__", None) or ()
    return tuple(p for p, v in zip(params[len(params) - len(values):], values) if v is None)


def _defaults(parsed):
    """The defaults the generated function keeps: the last ones, as far back as each is a
    number, a string (a flag the function compares) or None (an optional argument)."""
    values = getattr(parsed.fn, "__defaults__", None) or ()
    kept = []
    for value in reversed(values):
        if value is not None and not isinstance(value, (int, float, str)):
            break
        kept.append(value)
    return tuple(reversed(kept))


def _param_count(tree):
    return len(tree.args.posonlyargs) + len(tree.args.args)


def _origin(parsed, node):
    lineno = getattr(node, "lineno", parsed.tree.lineno)
    text = (parsed.source_line(lineno) or "").strip()
    return ir.Origin(parsed.filename, lineno, getattr(node, "col_offset", 0), text, parsed.name)

