"""What the passes that write a function share: names, builtins, rule texts, comments.

``differentiate`` (reverse mode) and ``forward`` (forward mode) both write a
normalized ``Program`` with one ``Names`` per build: a name generator reserving every
user name, the builtins generated code calls (aliased where a user name shadows
one), what a rule's forward text and builders read besides the operands
(``names_for``: the ``math`` module's name, builtins' aliases, helpers' names), and
``Comment`` statements pointing back at the user's source.  Both write the
statements of ``ir.sweeps``, IR all the way: a rule's text is parsed once
(``texts.expression``) and instantiated by substitution over IR.
"""

import importlib

from symdiff.ir import nodes as ir
from symdiff.ir import sweeps as sw
from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.ir.names import BUILTINS, Namer
from symdiff.primitives.special import HELPERS, ON_ARRAYS
from symdiff.primitives.texts import NUMPY, expression as parsed, instantiate


class Names:
    """The names one build writes: the only mutable value of a build, owned by it.

    A generator reserving every user name (``fresh``), the builtins generated code calls
    (aliased where a user name shadows one), the helpers it defines (named the first time a
    rule reads one), and the trip counters of the loops written (each an int).
    """

    def __init__(self, program, defuse, read_again=False):
        self.namer = Namer(program.reserved)
        used = set(program.params) | set(defuse.assigned()) | set(program.namespace)
        self.builtins = {}  # builtin -> the name generated code calls it by
        for builtin in BUILTINS:
            if builtin in used:
                self.builtins[builtin] = self.namer.fresh(builtin)
        self.helpers = {}  # helper (``special``) -> the name generated code defines it by
        self.namespace = program.namespace
        self.imports = {}  # name -> a function of a module generated code imports by it
        self.counters = []  # the trip counters of the loops written (each an int)
        self.derivatives = {}  # name -> its adjoint's (or tangent's) name
        self.elements = None  # number -> its container's adjoint's element, once named
        self.stack = None  # (stack, push, pop): the tape's names, once asked for
        self.stack_used = False
        # ``read_again``: the text is read again by symdiff (a second derivative): one
        # tape per type of value saved (numbers share one), so each is a list of one
        # kind, and a list saved or held by another is a copy of its own
        self.read_again = read_again
        self.stacks = {}  # the type saved (None: numbers) -> (stack, push, pop)
        self.local = set()  # adjoints that live one iteration of a reverse loop

    def fresh(self, base):
        """A name not taken yet, from ``base``."""
        return self.namer.fresh(base)

    def builtin(self, name):
        """The name of a builtin in generated code: an alias where the user's code shadows it."""
        return self.builtins.get(name, name)

    def helper(self, key):
        """The name generated code calls the helper function ``key`` by (defined once)."""
        if key not in self.helpers:
            self.helpers[key] = self.namer.fresh(key)
        return self.helpers[key]

    def imported(self, module, attr):
        """The name generated code calls ``module.attr`` by: the user's own name for it
        where the code has one, else a fresh one, imported above the function."""
        function = getattr(importlib.import_module(module), attr)
        for name, value in (*self.namespace.items(), *self.imports.items()):
            if value is function:
                return name
        name = self.namer.fresh(attr)
        self.imports[name] = function
        return name

    def derivative(self, name, forwarded=None):
        """The adjoint (or tangent) of ``name``: a name of its own, or the element of its
        container's adjoint it is added into directly (``forwarded``, ``ad.facts``: number ->
        ``(container, path)``; the containers' adjoints are named first, in order)."""
        if forwarded is not None and self.elements is None:
            self.elements = {}
            for number, (container, path) in forwarded.items():
                element = ex.Name(self.derivative(container, forwarded))
                for index in path:
                    element = ex.Subscript(element, index)
                self.elements[number] = element
        element = None if self.elements is None else self.elements.get(name)
        if element is not None:
            return element
        if name not in self.derivatives:
            self.derivatives[name] = self.namer.fresh(f"d{name}")
        return self.derivatives[name]

    def stack_names(self, kind=None):
        """The names of the ``push`` and ``pop`` of the tape a value of type ``kind``
        is saved on (the tape is then written): the one tape, or with ``read_again``
        the one for ``kind`` (every number's and bool's the first)."""
        key = None if not self.read_again or kind is None or t.is_number(kind) else kind
        if key not in self.stacks:
            self.stacks[key] = tuple(self.namer.fresh(base) for base in ("stack", "push",
                                                                           "pop"))
        if self.stack is None:
            self.stack = self.stacks[key]
        self.stack_used = True
        return self.stacks[key][1:]

    def iteration_local(self, adjoint):
        """Record that ``adjoint`` lives one iteration of a reverse loop."""
        self.local.add(adjoint)

    def counter(self, base):
        """A fresh trip counter, from ``base``, recorded as one."""
        name = self.namer.fresh(base)
        self.counters.append(name)
        return name


def forward_expression(program, names, stmt):
    """What computes ``stmt``: the rule's text, or the user's own numpy or scipy call.
    An argument the user's call left out, and a keyword at its default, stay out."""
    rule = program.rule(stmt.op)
    left_out = _at_default(rule, stmt.args)
    if stmt.call is None:
        expression = instantiate(program.rule_of(stmt).forward, rule.params,
                                 operands(stmt), ex.Name(stmt.target),
                                 names_for(program, names, stmt))
        if left_out:
            params = rule.params[len(rule.params) - len(rule.defaults):]
            expression = _keywords_dropped(expression, {
                name for name, out in zip(params, left_out) if out})
        return expression
    args = list(stmt.args)
    while left_out and left_out[-1]:
        args.pop()
        left_out = left_out[:-1]
    return ex.Call(parsed(stmt.call), tuple(operand(a) for a in args))


def _keywords_dropped(expression, dropped):
    """The call ``expression`` without the keywords ``dropped``, or the part read of it
    (``numpy.linalg.eigh(a)[1]``); any other expression as it is."""
    if isinstance(expression, ex.Subscript):
        return ex.Subscript(_keywords_dropped(expression.value, dropped), expression.index)
    if not isinstance(expression, ex.Call):
        return expression
    return ex.Call(expression.func, expression.args, tuple(
        (k, v) for k, v in expression.keywords if k not in dropped))


def operands(stmt):
    """The IR expressions of ``stmt``'s operands, as its rule's builders take them."""
    return tuple(operand(a) for a in stmt.args)


def names_for(program, names, stmt):
    """What a rule's text for ``stmt`` reads besides its operands and output: a
    function of a name giving its IR expression, or None where it stays as written.
    A helper gets its name (and its definition) the first time a rule reads it."""
    module = getattr(stmt, "module", None) or program.numpy_name
    on_arrays = isinstance(stmt, ir.Assign) and program.array_types(stmt) is not None

    def name_of(name):
        if name == "NORM":  # scipy.stats.norm as the user's call names it: `st.norm`
            return parsed(stmt.call.rpartition(".")[0])
        if name in ON_ARRAYS and (on_arrays or name not in HELPERS):  # (zeta: SciPy's)
            return ex.Name(names.imported(*ON_ARRAYS[name]))
        if name in HELPERS:
            return ex.Name(names.helper(name))
        alias = names.builtins.get(name)
        if alias is not None:
            return ex.Name(alias)
        if name == NUMPY:
            return None if module is None else ex.Name(module)
        if name == "math":
            return ex.Name(program.math_name)
        return None
    return name_of


def flatten(program, chunks, within=None):
    """Statements of ``(origin, statements)`` chunks, a comment where the origin changes.

    ``within`` is the origin of the enclosing statement, whose comment already
    stands above.  A line of an inlined helper names it: ``# line 4 (in norm): ...``;
    a statement moved out of its loop says so: ``# line 4, hoisted out of its loop: ...``.
    """
    out = []
    last = None if within is None else (within.filename, within.lineno, within.function,
                                        within.hoisted)
    for origin, stmts in chunks:
        if not stmts:
            continue
        key = (origin.filename, origin.lineno, origin.function, origin.hoisted)
        if key != last:
            where = f"line {origin.lineno}"
            if origin.function != program.name:
                where += f" (in {origin.function})"
            if origin.hoisted:
                where += ", hoisted out of its loop"
            out.append(sw.Comment(f"{where}: {origin.text}"))
            last = key
        out += stmts
    return _fuse_resets(out)


def _at_default(rule, args):
    """For each parameter with a default, whether the argument is that very constant."""
    if not rule.defaults:
        return ()
    tail = args[len(args) - len(rule.defaults):]
    return tuple(isinstance(a, ir.Const) and a.text is None and type(a.value) is type(d)
                 and a.value == d for a, d in zip(tail, rule.defaults))


def operand(value):
    """The IR expression reading an operand (``ir.Var`` or ``ir.Const``) as a rule's text
    reads it: a constant the user spelled by name (``math.pi``) is that name, and a
    negative number is the negation of a positive one (never a negative constant)."""
    if isinstance(value, ir.Var):
        return ex.Name(value.name)
    if value.text:
        return parsed(value.text)
    number = value.value
    if isinstance(number, (int, float)) and not isinstance(number, bool) and (
            number < 0 or (number == 0 and str(number).startswith("-"))):
        return ex.UnaryOp("-", ex.Const(-number))
    return ex.Const(number)


def spelled_out(expr):
    """``expr`` with each constant the user spelled by name (``Const(3.14..., "math.pi")``)
    written as that name, as the expression reads back from the Python it prints as."""
    if isinstance(expr, ex.Const):
        return parsed(expr.text) if expr.text is not None else expr
    if not any(isinstance(e, ex.Const) and e.text is not None for e in ex.walk(expr)):
        return expr
    return _respell(expr)


def _respell(expr):
    if isinstance(expr, ex.Const):
        return spelled_out(expr)
    if isinstance(expr, (ex.Name, str)) or expr is None:
        return expr
    values = {}
    for name in expr.__dataclass_fields__:
        value = getattr(expr, name)
        if isinstance(value, tuple):
            value = tuple(tuple(_respell(v) for v in item) if isinstance(item, tuple)
                          else _respell(item) for item in value)
        elif not isinstance(value, (str, int)):
            value = _respell(value)
        values[name] = value
    return type(expr)(**values)


def _fuse_resets(stmts):
    """``d = 0.0`` and, next to touch ``d`` in the same block, ``d += e``: written ``d = e``.

    The new value's adjoint is ``e``; nothing between reads ``d``.
    """
    out = list(stmts)
    i = 0
    while i < len(out):
        name = _zeroed(out[i])
        following = next((j for j in range(i + 1, len(out)) if sw.mentions(out[j], name)),
                         None) if name else None
        if following is not None:
            stmt = out[following]
            if (isinstance(stmt, sw.AddTo) and stmt.target == name
                    and name not in ex.names(stmt.value)):
                value = sw.negated(stmt.value) if stmt.negate else stmt.value
                out[following] = sw.Let(name, value)
                del out[i]
                continue
        i += 1
    return out


def _zeroed(stmt):
    """The name ``stmt`` sets to ``0.0``, if that is all it does."""
    if (isinstance(stmt, sw.Let) and isinstance(stmt.value, ex.Const)
            and stmt.value.value == 0.0 and not isinstance(stmt.value.value, bool)):
        return stmt.target
    return None
