"""Random programs for differential testing, shared by tests/end_to_end/test_fuzz.py and scripts/fuzz.py.

``generate(seed, index)`` writes one random function of two or three float parameters
as source text, drawn from a ``random.Random`` seeded by ``(seed, index)`` alone, so
any program can be rebuilt from the two numbers a report prints.  The programs use
the language symdiff reads: straight-line and re-assignments, ``+=``/``-=``/``*=``,
``if``/``else`` on comparisons, ``for`` over ``range(k)`` with loop-carried values,
``while`` with a bounded counter, ``min``/``max``/``abs``, integer powers and float
powers of positive bases, and math functions kept on their domains (``exp`` of bounded
arguments, ``log``/``sqrt`` of ``t * t + c``, division by ``1.0 + t * t``).  Each
returns one number and raises nowhere on finite inputs (overflow aside).

Programs also call functions of their own, written by the same generator: module-level
helpers (``def _h3_0(...)`` or ``_h3_0 = lambda ...``, placed before the function) and
functions nested at the top of a body (``def g0(...)`` or ``g0 = lambda ...``), which
read the enclosing function's variables as they are at the call.  A helper may return
several values, from each of its ``return`` statements, to a call that unpacks them;
its last parameter may have a number as default, which a call leaves out or passes by
position or keyword.  The differentiated function itself is sometimes one lambda.
(Features ``helper``, ``lambda``, ``nested_def``, ``nested_lambda``, ``multi_return``
and ``defaults``; ``Program.features`` names those a program uses.)

Programs may read module-level tables of constants (``_T3_0 = (0.5, -1.25)``, a tuple
or a list, written before the helpers): looped over (``for e in _T3_0``, ``for e in
reversed(_T3_0)``, ``for i, e in enumerate(...)``, ``for e, h in zip(...)``), indexed by a loop index that stays in range
or by a constant, and measured (``range(len(_T3_0))``, ``/ len(_T3_0)``); feature
``table``.  A loop may have an ``else:`` clause, which never breaks or continues an
enclosing loop itself (feature ``loop_else``).

A function may check its inputs (feature ``check``): at the top of its body, and maybe at
the top of its loop bodies, ``if x > 1.8: raise ValueError(f"check 0: x = {x:.4f}")``
or ``assert x <= 1.8, ...`` on a parameter, drawn from a generator of their own so a
program is otherwise the one written without them.

``load(programs, directory, module_name)`` writes a batch to one module file and
imports it: symdiff reads the source of what it differentiates from that file.

The ``compare_*`` functions check one program at one point and return a list of
``Mismatch`` records, each able to print the program source and the point.
"""

import ast
import importlib.util
import math
import multiprocessing
import random
import re
import sys
import tempfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import symdiff
import symdiff.tape
from symdiff.errors import SymdiffError
from symdiff.witnesses.symbolic import evaluate_grad

try:
    import oracles
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import oracles

PARAMS = ("x", "y", "z")
LOCALS = ("a", "b", "c", "d", "g", "h", "p", "q", "r", "s", "u", "w")
TRICKY_LOCALS = ("dx", "dy", "t1", "stack", "result")  # names the generator's own code uses
CONSTANTS = ("0.5", "1.5", "2.0", "0.25", "3.0", "0.1", "1.0", "0.75")
ALL_FEATURES = frozenset({"if", "for", "while", "break", "minmax", "abs", "pow", "math",
                          "divide", "augmented", "tuple", "ifexp", "loop_index",
                          "early_return", "bare_output", "loop_overwrite", "nested_return",
                          "helper", "lambda", "multi_return", "nested_def", "nested_lambda",
                          "defaults", "table", "loop_else", "check"})
LOOP_FEATURES = frozenset({"for", "while"})
# Programs with these features meet known symdiff bugs (see tests/end_to_end/test_fuzz.py); the
# default runs leave them out, and a strict xfail test keeps them in.  None are known.
KNOWN_BUG_FEATURES = frozenset()
DEFAULT_FEATURES = ALL_FEATURES - KNOWN_BUG_FEATURES

RTOL_TAPE, ATOL_TAPE = 1e-10, 1e-12   # generated vs tape: the same arithmetic, reordered
RTOL_SYMPY, ATOL_SYMPY = 1e-9, 1e-9   # generated vs sympy
CONDITION_STEP = 1e-14  # a relative move of the point (45 ulps): a few dozen roundings
LARGE = 1e8  # points where the value or a partial is larger are skipped (overflow ahead)
SPECIAL_VALUES = (0.0, -0.0, 1.0, -1.0, 0.5)


@dataclass
class Program:
    seed: int
    index: int
    name: str
    params: tuple
    source: str  # the function and its helpers; ``MODULE_HEADER`` comes first in the file
    features: frozenset
    fn: object = None  # set by ``load``


MODULE_HEADER = "import math\n\n"


# --- the generator ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Size:
    """How big programs get: statements at top level and per nested block, expression
    depths to draw from, and how deeply blocks nest."""
    top: tuple
    inner: tuple
    depths: tuple
    nesting: int


SIZES = {
    "small": Size(top=(1, 4), inner=(1, 2), depths=(1, 1, 2, 2), nesting=1),
    "medium": Size(top=(2, 6), inner=(1, 3), depths=(1, 2, 2, 3), nesting=2),
}
NESTED_FIRST_RATE = 0.15  # bodies that start by defining a function (more may follow)
BODY_SIZE = Size(top=(0, 2), inner=(1, 2), depths=(1, 1, 2), nesting=1)  # helpers' bodies

HELPER_PARAMS = ("x", "y", "a", "t", "u")  # a module helper's: often the caller's names too
NESTED_PARAMS = ("t", "u", "v")
DEFAULT_PARAM = "scale"  # the one parameter with a default, always the last
DEFAULT_VALUES = ("0.5", "1.5", "2.0", "-0.5", "-1.0")
MAX_HELPERS = 2  # module-level helpers per program
MAX_NESTED = 2  # nested functions per program
MAX_LEVEL = 2  # nested functions nest at most this deep in a module-level one
LAMBDA_RATE = 0.08  # programs whose function is one lambda
MAX_TABLES = 2  # module-level tables per program
TABLE_VALUES = ("0.5", "-1.25", "2.0", "1.5", "0.25", "-0.75", "1.0", "-0.5", "3.0")
LOOP_INDICES = ("i", "j", "k")  # the int index of a loop nested this deep in others
CHECK_RATE = 0.3  # programs whose function checks its inputs (feature ``check``)
CHECK_BOUNDS = ("1.6", "1.8", "-1.7", "-1.9")  # a parameter beyond one fails the check


@dataclass(frozen=True)
class _Callee:
    """A function a program may call: its parameters (the last ``defaults`` of them have
    a number as default) and how many values it returns."""
    name: str
    params: tuple
    defaults: int
    arity: int


class _Context:
    """What the functions of one program share: the features allowed and used, the
    module-level helpers finished so far (their text goes before the differentiated
    function) and how many functions were named, so that each name is defined once."""

    def __init__(self, rng, allowed, index):
        self.rng = rng
        self.allowed = allowed
        self.index = index
        self.used = set()
        self.helpers = []  # the _Callee of each finished helper: any function may call it
        self.helper_lines = []
        self.helpers_named = 0
        self.nested_named = 0
        self.called = set()  # the names of the functions called so far
        self.tables = []  # (name, length) of each module-level table
        self.table_lines = []

    def table(self):
        """(name, length) of a module-level table of 1 to 5 constants, a tuple or a list:
        a new one while ``MAX_TABLES`` allows (sometimes), else one made already."""
        rng = self.rng
        if self.tables and (len(self.tables) >= MAX_TABLES or rng.random() < 0.6):
            return rng.choice(self.tables)
        name = f"_T{self.index}_{len(self.tables)}"
        values = [rng.choice(TABLE_VALUES) for _ in range(rng.randint(1, 5))]
        if rng.random() < 0.5:
            text = f"[{', '.join(values)}]"
        else:
            text = f"({', '.join(values)}{',' if len(values) == 1 else ''})"
        self.table_lines.append(f"{name} = {text}")
        self.tables.append((name, len(values)))
        return name, len(values)


class _Generator:
    """Writes the body of one function: the differentiated one, a module-level helper or
    a nested function.  ``callees`` are the nested functions it may call (besides the
    module helpers), ``outer`` the names of the enclosing functions it may read but never
    assigns (assigning would make them its own), ``arity`` how many values each of its
    ``return`` statements gives, ``level`` how deeply it is nested."""

    def __init__(self, context, size, callees=(), outer=(), arity=1, level=0):
        self.context = context
        self.rng = context.rng
        self.allowed = context.allowed
        self.used = context.used
        self.size = size
        self.callees = list(callees)
        self.inherited = len(self.callees)  # those after these are defined in this body
        self.outer = frozenset(outer)
        self.arity = arity
        self.level = level
        self.lines = []
        self.counter = 0  # for fresh counter names of while loops
        self.loops = 0  # how many loops enclose the statement being written
        self.branches = 0  # how many if statements enclose it
        self.breakable = True  # False in a loop's else clause, until a loop in it
        self.bounds = {}  # each int loop index -> how many values it takes

    def enabled(self, feature, probability=1.0):
        if feature in self.allowed and self.rng.random() < probability:
            self.used.add(feature)
            return True
        return False

    # expressions over ``names`` (float variables); ``ints`` are loop indices

    def leaf(self, names, ints):
        rng = self.rng
        if ints and self.enabled("loop_index", 0.15):
            return f"{rng.choice(ints)} * {rng.choice(CONSTANTS)}"
        if self.enabled("table", 0.05):
            return self.entry(ints)
        if rng.random() < 0.88:
            return rng.choice(names)
        return rng.choice(CONSTANTS)

    def entry(self, ints):
        """``T[i]`` for a table ``T`` and an enclosing loop's index ``i`` that never
        passes its end, else ``T[n]`` for a constant ``n`` (maybe negative)."""
        name, length = self.context.table()
        fitting = [i for i in ints if self.bounds[i] <= length]
        if fitting and self.rng.random() < 0.7:
            return f"{name}[{self.rng.choice(fitting)}]"
        return f"{name}[{self.rng.randrange(-length, length)}]"

    def atom(self, names, ints, depth):
        """An expression safe to put before ``**`` or after a unary minus."""
        text = self.expr(names, ints, depth)
        simple = text.isidentifier() or _is_number(text) or _is_entry(text)
        return text if simple else f"({text})"

    def expr(self, names, ints, depth):
        rng = self.rng
        if depth <= 0 or rng.random() < 0.25:
            return self.leaf(names, ints)
        sub = depth - 1
        kind = rng.choices(
            ("arith", "neg", "divide", "intpow", "floatpow", "smooth", "exp", "logsqrt",
             "minmax", "abs", "ifexp", "call", "mean"),
            (6, 1, 1.5, 1.5, 1, 2, 1, 1.2, 1.2, 0.8, 0.5, 2 if self.uncalled(False) else 0.3,
             0.4))[0]
        if kind == "neg":
            return f"-{self.atom(names, ints, sub)}"
        if kind == "divide" and self.enabled("divide"):
            t = self.atom(names, ints, sub - 1)
            return f"{self.atom(names, ints, sub)} / (1.0 + {t} * {t})"
        if kind == "intpow" and self.enabled("pow"):
            return f"{self.atom(names, ints, sub)} ** {rng.choice((2, 3))}"
        if kind == "floatpow" and self.enabled("pow"):
            t = self.atom(names, ints, sub - 1)
            exponent = rng.choice(("0.5", "1.5", "2.5", "0.3", "-0.5"))
            if rng.random() < 0.5 and self.enabled("abs"):
                return f"(1.0 + abs({self.expr(names, ints, sub - 1)})) ** {exponent}"
            return f"({t} * {t} + {rng.choice(('0.5', '1.0'))}) ** {exponent}"
        if kind == "smooth" and self.enabled("math"):
            function = rng.choice(("sin", "cos", "tanh"))
            return f"math.{function}({self.expr(names, ints, sub)})"
        if kind == "exp" and self.enabled("math"):
            inner = self.expr(names, ints, sub - 1)
            bounded = rng.choice((f"math.sin({inner})", f"math.tanh({inner})",
                                  f"-{self.atom(names, ints, sub - 1)} ** 2",
                                  f"0.5 * math.cos({inner})"))
            return f"math.exp({bounded})"
        if kind == "logsqrt" and self.enabled("math"):
            t = self.atom(names, ints, sub - 1)
            function = rng.choice(("log", "sqrt"))
            return f"math.{function}({t} * {t} + {rng.choice(('1.0', '0.5', '2.0'))})"
        if kind == "minmax" and self.enabled("minmax"):
            function = rng.choice(("min", "max"))
            return f"{function}({self.expr(names, ints, sub)}, {self.expr(names, ints, sub)})"
        if kind == "abs" and self.enabled("abs"):
            return f"abs({self.expr(names, ints, sub)})"
        if kind == "ifexp" and self.enabled("ifexp"):
            return (f"({self.atom(names, ints, sub)} if {self.condition(names, ints)} "
                    f"else {self.atom(names, ints, sub)})")
        if kind == "call" and (callee := self.callee(many=False)):
            return self.call(callee, names, ints, sub)
        if kind == "mean" and self.enabled("table"):
            return f"{self.atom(names, ints, sub)} / len({self.context.table()[0]})"
        op = rng.choice(("+", "-", "*", "+", "*"))
        left, right = self.expr(names, ints, sub), self.expr(names, ints, sub)
        if op != "+" and not _is_simple(right):
            right = f"({right})"
        if op == "*" and not _is_simple(left):
            left = f"({left})"
        return f"{left} {op} {right}"

    def condition(self, names, ints):
        rng = self.rng
        left = rng.choice(names)
        right = rng.choice([n for n in names if n != left] or list(CONSTANTS))
        if rng.random() < 0.3:
            right = rng.choice(CONSTANTS)
        op = rng.choice(("<", ">", "<=", ">="))
        if rng.random() < 0.2:
            return f"abs({left}) {op} {rng.choice(CONSTANTS)}"
        if rng.random() < 0.2:
            other = self.expr(names, ints, 1)
            return f"{left} {op} {right} and {other} < {rng.choice(CONSTANTS)}"
        return f"{left} {op} {right}"

    def value(self, names, ints, depth):
        """An expression to assign or return, kept from coming straight out of a rule that
        reads its own output unless the ``bare_output`` feature allows it."""
        value = self.expr(names, ints, depth)
        if _reads_output(value) and not self.enabled("bare_output"):
            value = f"0.5 * ({value})"
        return value

    def returned(self, names, ints, depth, terms=()):
        """What a ``return`` statement gives: ``arity`` values, comma-separated; ``terms``
        are added to the first."""
        values = [self.value(names, ints, depth) for _ in range(self.arity)]
        values[0] = " + ".join([values[0], *terms])
        return ", ".join(values)

    # calls

    def known(self, many):
        """The functions defined so far that this one may call and that return several
        values (``many``) or one."""
        return [c for c in self.callees + self.context.helpers if (c.arity > 1) == many]

    def uncalled(self, many):
        """Those of ``known(many)`` not called yet: calls to them are made likelier."""
        return [c for c in self.known(many) if c.name not in self.context.called]

    def callee(self, many):
        """A function to call that returns several values (``many``) or one: one defined
        already (one not called yet, mostly), or a new module-level helper; None when
        there is none."""
        known, uncalled = self.known(many), self.uncalled(many)
        if uncalled or (known and self.rng.random() < 0.7):
            chosen = self.rng.choice(uncalled or known)
        else:
            chosen = self.new_helper(many) or (self.rng.choice(known) if known else None)
        if chosen is not None:
            self.context.called.add(chosen.name)
        return chosen

    def call(self, callee, names, ints, depth):
        """``name(arguments)``: an expression for each parameter without a default; the
        one with a default is left out or passed by position or by keyword."""
        required = len(callee.params) - callee.defaults
        arguments = [self.expr(names, ints, depth) for _ in range(required)]
        if callee.defaults:
            way = self.rng.choice(("left out", "position", "keyword"))
            if way == "position":
                arguments.append(self.expr(names, ints, depth))
            elif way == "keyword":
                arguments.append(f"{callee.params[-1]}={self.expr(names, ints, depth)}")
        return f"{callee.name}({', '.join(arguments)})"

    def targets(self, names, count):
        """``count`` distinct names to unpack a call into, each a new local (then added to
        ``names``) or a name this function may assign; None when there are too few."""
        fresh = [n for n in LOCALS if n not in names]
        old = self.assignable(names)
        if len(fresh) + len(old) < count:
            return None
        chosen = []
        for _ in range(count):
            pool = old if old and (not fresh or self.rng.random() < 0.4) else fresh
            chosen.append(pool.pop(self.rng.randrange(len(pool))))
        names.extend(n for n in chosen if n not in names)
        return chosen

    # functions

    def arity_drawn(self):
        """How many values a new nested function returns: one, or two or three."""
        return self.rng.choice((2, 2, 3)) if self.enabled("multi_return", 0.4) else 1

    def new_helper(self, many):
        """A new module-level helper (a ``def``, or a name bound to a lambda) returning
        several values or one; None when the features or ``MAX_HELPERS`` allow none."""
        context, rng = self.context, self.rng
        kinds = [k for k in ("helper", "lambda") if k in self.allowed]
        if not kinds or context.helpers_named >= MAX_HELPERS or (
                many and "multi_return" not in self.allowed):
            return None
        kind = rng.choice(kinds)
        self.used.add(kind)
        if many:
            self.used.add("multi_return")
        name = f"_h{context.index}_{context.helpers_named}"
        context.helpers_named += 1
        params = rng.sample(HELPER_PARAMS, rng.randint(1, 3))
        arity = rng.choice((2, 2, 3)) if many else 1
        lines, callee = self.define(name, params, arity, kind == "lambda", 0, (), (), 0)
        context.helper_lines += lines
        context.helpers.append(callee)
        return callee

    def settle(self, names, indent):
        """Call each function defined in this body that is not called yet (each is defined
        to be called), unpacking those returning several values into names; the terms for
        the final return to add up: the calls and the names."""
        terms = []
        for callee in self.callees[self.inherited:]:
            if callee.name in self.context.called:
                continue
            self.context.called.add(callee.name)
            call = self.call(callee, names, [], 1)
            if callee.arity == 1:
                terms.append(call)
                continue
            targets = self.targets(names, callee.arity)
            if targets is not None:
                self.emit(indent, f"{', '.join(targets)} = {call}")
                terms += targets
        return terms

    def nested(self, names, indent):
        """Define a function here, at the top of this body (``def gN(...)`` or ``gN =
        lambda ...``), reading the names readable here, which every later call finds bound
        (maybe to newer values: closures bind late), and calling the functions defined
        before it.  False when the features or the limits allow none."""
        context, rng = self.context, self.rng
        kinds = [k for k in ("nested_def", "nested_lambda") if k in self.allowed]
        if not kinds or self.level >= MAX_LEVEL or context.nested_named >= MAX_NESTED:
            return False
        kind = rng.choice(kinds)
        self.used.add(kind)
        name = f"g{context.nested_named}"
        context.nested_named += 1
        shadowed = [n for n in names if n not in (*NESTED_PARAMS, DEFAULT_PARAM)]
        shadowing = (rng.choice(shadowed),) if shadowed and rng.random() < 0.2 else ()
        params = rng.sample(NESTED_PARAMS + shadowing, rng.randint(1, 2))
        lines, callee = self.define(name, params, self.arity_drawn(), kind == "nested_lambda",
                                    indent, tuple(names), self.callees, self.level + 1)
        self.lines += lines
        self.callees.append(callee)
        return True

    def define(self, name, params, arity, as_lambda, indent, outer, callees, level):
        """The lines defining function ``name`` at ``indent`` and its ``_Callee``: a lambda,
        or a ``def`` whose body a new generator writes, with a second ``return`` under an
        ``if`` when the ``early_return`` feature says so.  A parameter with a default may
        follow ``params``."""
        rng = self.rng
        signature, defaults = list(params), 0
        if self.enabled("defaults", 0.3):
            signature.append(f"{DEFAULT_PARAM}={rng.choice(DEFAULT_VALUES)}")
            params, defaults = (*params, DEFAULT_PARAM), 1
        callee = _Callee(name, tuple(params), defaults, arity)
        outer = [n for n in outer if n not in params]  # a parameter hides its namesake
        body = _Generator(self.context, BODY_SIZE, callees, outer, arity, level)
        readable = list(params) + outer
        head = "    " * indent
        if as_lambda:
            value = body.returned(readable, [], rng.choice(BODY_SIZE.depths) + 1)
            value = f"({value})" if arity > 1 else value
            return [f"{head}{name} = lambda {', '.join(signature)}: {value}"], callee
        names = body.body(readable, indent + 1, rng.randint(*BODY_SIZE.top))
        if body.enabled("early_return", 0.4):
            body.emit(indent + 1, f"if {body.condition(names, [])}:")
            body.emit(indent + 2, f"return {body.returned(names, [], 1)}")
            names = body.block(names, [], indent + 1, rng.randint(0, 1), 0)
        terms = body.settle(names, indent + 1)
        value = body.returned(names, [], rng.choice(BODY_SIZE.depths), terms)
        body.emit(indent + 1, f"return {value}")
        return [f"{head}def {name}({', '.join(signature)}):", *body.lines], callee

    # statements

    def emit(self, indent, text):
        self.lines.append("    " * indent + text)

    def exit(self, names, ints, indent):
        """``if <condition>: break`` (or ``continue``, or ``return <value>``); False when
        the features allow none of them here."""
        rng = self.rng
        exits = []
        if self.loops and self.breakable and "break" in self.allowed:
            exits += ["break", "continue"]
        nested = self.loops > 1 or self.branches > 0  # the return's `if` nests in these
        if "nested_return" in self.allowed or (not nested and "early_return" in self.allowed):
            exits.append("return")
        if not exits:
            return False
        chosen = rng.choice(exits)
        self.used.add({"break": "break", "continue": "break", "return": (
            "nested_return" if nested else "early_return")}[chosen])
        self.emit(indent, f"if {self.condition(names, ints)}:")
        if chosen == "return":
            chosen = f"return {self.returned(names, ints, 1)}"
        self.emit(indent + 1, chosen)
        return True

    def overwrite(self, target, value, in_loop):
        """``value`` for ``target = value``: inside a loop it reads ``target`` unless the
        ``loop_overwrite`` feature is on."""
        if not in_loop or re.search(rf"\b{target}\b", value) or self.enabled(
                "loop_overwrite"):
            return value
        return f"{value} + 0.5 * {target}"

    def assignable(self, names):
        """The names this function may assign: its own, not those it reads from outside."""
        return [n for n in names if n not in self.outer]

    def fresh_local(self, names):
        pool = [n for n in LOCALS if n not in names]
        if self.rng.random() < 0.08:
            pool = [n for n in TRICKY_LOCALS if n not in names] or pool
        return self.rng.choice(pool) if pool else None

    def count(self):
        return self.rng.randint(*self.size.inner)

    def loop_body(self, names, ints, indent, depth):
        """The body of a loop just opened, where ``break`` and ``continue`` are allowed."""
        self.loops += 1
        breakable, self.breakable = self.breakable, True
        self.block(names, ints, indent + 1, self.count(), depth + 1, True)
        self.loops -= 1
        self.breakable = breakable

    def loop_else(self, names, ints, indent, depth, in_loop):
        """Maybe an ``else:`` clause for the loop just written, reading the names readable
        before the loop.  No ``break`` or ``continue`` of its own (one would leave an
        enclosing loop, or be no statement at all), though loops in it may have some."""
        if not self.enabled("loop_else", 0.15):
            return
        self.emit(indent, "else:")
        breakable, self.breakable = self.breakable, False
        self.block(names, ints, indent + 1, self.count(), depth + 1, in_loop)
        self.breakable = breakable

    def range_loop(self, names, ints, indent, depth, in_loop):
        """``for i in range(k):`` with ``k`` a number, or the length of a table."""
        index = LOOP_INDICES[len(ints)]
        if self.enabled("table", 0.2):
            table, self.bounds[index] = self.context.table()
            self.emit(indent, f"for {index} in range(len({table})):")
        else:
            self.bounds[index] = self.rng.randint(1, 4)
            self.emit(indent, f"for {index} in range({self.bounds[index]}):")
        self.loop_body(names, ints + [index], indent, depth)
        self.loop_else(names, ints, indent, depth, in_loop)

    def table_loop(self, names, ints, indent, depth, in_loop):
        """Maybe ``for e in T:``, ``for e in reversed(T):``, ``for i, e in enumerate(T):``
        or ``for e, h in zip(T, U):`` over module-level tables, the elements new locals of the body (constants:
        their derivatives are zero); False when the feature or the names left allow none."""
        rng = self.rng
        first = self.fresh_local(names)
        second = self.fresh_local(names + [first]) if first else None
        if second is None or not self.enabled("table", 0.35):
            return False
        table, length = self.context.table()
        shape = rng.choice(("for", "enumerate", "zip", "reversed"))
        inner, body_ints = names + [first], ints
        if shape == "for":
            self.emit(indent, f"for {first} in {table}:")
        elif shape == "reversed":
            self.emit(indent, f"for {first} in reversed({table}):")
        elif shape == "enumerate":
            index = LOOP_INDICES[len(ints)]
            self.bounds[index] = length
            body_ints = ints + [index]
            self.emit(indent, f"for {index}, {first} in enumerate({table}):")
        else:
            self.emit(indent, f"for {first}, {second} in zip({table}, "
                              f"{self.context.table()[0]}):")
            inner.append(second)
        self.loop_body(inner, body_ints, indent, depth)
        self.loop_else(names, ints, indent, depth, in_loop)
        return True

    def block(self, names, ints, indent, count, depth, in_loop=False):
        """Write ``count`` statements; return the names readable after them.  The caller
        keeps those of its own block only: a name first set in a branch or a loop body
        is read nowhere after it (it might not exist)."""
        inner = list(names)
        for _ in range(count):
            self.statement(inner, ints, indent, depth, in_loop)
        return inner

    def body(self, names, indent, count):
        """The top of a function's body: maybe a nested function first, where most of the
        body can call it, then ``count`` statements; the names readable after them."""
        names = list(names)
        if self.rng.random() < NESTED_FIRST_RATE:
            self.nested(names, indent)
        return self.block(names, [], indent, count, 0)

    def statement(self, names, ints, indent, depth, in_loop):
        rng = self.rng
        kinds = ["new", "reassign", "augmented", "if", "for", "while", "tuple", "break",
                 "unpack", "nested"]
        weights = [3, 2, 2, 1.2, 1, 0.7, 0.4, 0.5 if in_loop else 0.15 * bool(depth),
                   2 if self.uncalled(True) else 0.4,
                   0 if depth else 0.5]  # functions are defined at the top of a body
        if in_loop:
            weights[1:3] = [4, 3]  # loop-carried values
        if depth >= self.size.nesting:
            weights[3:6] = [0, 0, 0]
        kind = rng.choices(kinds, weights)[0]
        assignable = self.assignable(names)
        target = rng.choice(assignable)  # for a reassignment: its old value is read, often

        def value():  # written only where used: a call in it may define a helper
            return self.value(names + [target] * 3, ints, rng.choice(self.size.depths))

        if in_loop and kind in ("tuple", "unpack") and not self.enabled("loop_overwrite"):
            kind = "reassign"
        if kind == "augmented" and self.enabled("augmented"):
            op = rng.choice(("+=", "-=", "*="))
            right = value()
            if op == "*=":
                right = f"0.5 + 0.25 * math.sin({right})" if "math" in self.allowed else "0.5"
            self.emit(indent, f"{target} {op} {right}")
        elif kind == "if" and self.enabled("if"):
            self.emit(indent, f"if {self.condition(names, ints)}:")
            self.branches += 1
            self.block(names, ints, indent + 1, self.count(), depth + 1, in_loop)
            if rng.random() < 0.7:
                self.emit(indent, "else:")
                self.block(names, ints, indent + 1, self.count(), depth + 1, in_loop)
            self.branches -= 1
        elif kind == "for" and self.enabled("for"):
            if not self.table_loop(names, ints, indent, depth, in_loop):
                self.range_loop(names, ints, indent, depth, in_loop)
        elif kind == "while" and self.enabled("while"):
            counter = f"n{self.counter}" if self.counter else "n"
            self.counter += 1
            self.emit(indent, f"{counter} = 0")
            test = f"{counter} < {rng.randint(1, 4)}"
            if rng.random() < 0.3:
                test += f" and {rng.choice(names)} < {rng.choice(('2.0', '5.0', '10.0'))}"
            self.emit(indent, f"while {test}:")
            self.emit(indent + 1, f"{counter} += 1")  # first, so `continue` cannot spin
            self.loop_body(names, ints, indent, depth)
            self.loop_else(names, ints, indent, depth, in_loop)
        elif kind == "tuple" and self.enabled("tuple") and len(assignable) >= 2:
            first, second = rng.sample(assignable, 2)
            self.emit(indent, f"{first}, {second} = {second}, {value()}")
        elif kind == "break" and self.exit(names, ints, indent):
            pass
        elif kind == "unpack" and (callee := self.callee(many=True)):
            call = self.call(callee, names, ints, rng.choice(self.size.depths) - 1)
            targets = self.targets(names, callee.arity)
            if targets is None:
                self.emit(indent, f"{target} = {self.overwrite(target, value(), in_loop)}")
            else:
                self.emit(indent, f"{', '.join(targets)} = {call}")
        elif kind == "nested" and self.nested(names, indent):
            pass
        elif kind == "reassign":
            self.emit(indent, f"{target} = {self.overwrite(target, value(), in_loop)}")
        else:
            name = self.fresh_local(names)
            if name is None:
                self.emit(indent, f"{target} = {self.overwrite(target, value(), in_loop)}")
            else:
                self.emit(indent, f"{name} = {value()}")
                names.append(name)


_OUTPUT_RULES = ("exp", "tanh", "sqrt")  # derivatives symdiff states through the output


def _reads_output(text):
    """True when the value of ``text`` comes straight from an operation whose derivative
    rule reads its own result (``/``, ``exp``, ``tanh``, ``sqrt``), maybe through
    conditional expressions: assigned to a variable, that result is the variable."""
    node = ast.parse(text, mode="eval").body
    pending = [node]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.IfExp):
            pending += [node.body, node.orelse]
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            return True
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", None) in _OUTPUT_RULES:
            return True
    return False


def _is_number(text):
    try:
        float(text)
    except ValueError:
        return False
    return True


def _is_simple(text):
    """A name, a number, a table entry or one call (``math.sin(a)``, ``_h3_0(a, b)``): no
    parentheses needed around it."""
    return text.isidentifier() or _is_number(text) or _is_entry(text) or (
        re.match(r"[\w.]+\(", text) is not None and text.endswith(")")
        and _balanced_once(text))


def _is_entry(text):
    """True for an entry of a table, ``_T3_0[i]`` or ``_T3_0[-2]``."""
    return re.fullmatch(r"\w+\[-?\w+\]", text) is not None


def _balanced_once(text):
    """True when the first ``(`` closes at the very end (``f(a) + g(b)`` is not simple)."""
    depth = 0
    for position, char in enumerate(text):
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return position == len(text) - 1
    return False


def generate(seed, index, features=DEFAULT_FEATURES, size="medium"):
    """Program ``index`` of ``seed``: the same text for the same arguments."""
    rng = random.Random(seed * 1_000_003 + index)
    params = PARAMS[:rng.choice((2, 2, 3))]
    context = _Context(rng, frozenset(features), index)
    generator = _Generator(context, SIZES[size])
    name = f"f_{seed}_{index}"
    if generator.enabled("lambda", LAMBDA_RATE):
        body = generator.expr(list(params), [], max(SIZES[size].depths) + 1)
        lines = [f"{name} = lambda {', '.join(params)}: {body}"]
    else:
        lines = _function(generator, name, params, size)
        lines = _with_checks(lines, params, context, seed, index)
    text = "\n".join(context.table_lines + context.helper_lines + lines) + "\n"
    return Program(seed, index, name, params, text, frozenset(context.used))


def _function(generator, name, params, size):
    """The lines of ``def name(params)``: a random body, then the return of one number."""
    rng = generator.rng
    names = generator.body(list(params), 1, rng.randint(*SIZES[size].top))
    terms = generator.settle(names, 1)
    made = [n for n in names if n not in params]
    if rng.random() < 0.2 and not terms:
        result = rng.choice(names)  # one variable, its adjoint the seed 1.0
    else:
        chosen = rng.sample(made, min(len(made), rng.randint(1, 2))) + [rng.choice(params)]
        result = " + ".join(chosen + terms)
        if rng.random() < 0.5:
            result = f"{result} + {generator.expr(names, [], 2)}"
    return [f"def {name}({', '.join(params)}):", *generator.lines, f"    return {result}"]


def _with_checks(lines, params, context, seed, index):
    """``lines`` with input checks inserted: one at the top of the function's body, and
    maybe one at the top of each loop body, on a parameter (``if x > 1.8: raise
    ValueError(f"check 0: x = {x:.4f}")``, or ``assert x <= 1.8, ...`` where ``if`` is not
    allowed).  Drawn from a generator of their own, so the rest of the program is the one
    written without them."""
    rng = random.Random(f"checks:{seed}:{index}")
    if "check" not in context.allowed or rng.random() > CHECK_RATE:
        return lines
    context.used.add("check")
    made = []

    def check(indent):
        name, bound = rng.choice(params), rng.choice(CHECK_BOUNDS)
        message = f'f"check {len(made)}: {name} = {{{name}:.4f}}"'
        fails = f"{name} < {bound}" if bound.startswith("-") else f"{name} > {bound}"
        holds = f"{name} >= {bound}" if bound.startswith("-") else f"{name} <= {bound}"
        if "if" in context.allowed and rng.random() < 0.6:
            error = rng.choice(("ValueError", "OverflowError"))
            made.append(f"{indent}if {fails}:\n{indent}    raise {error}({message})")
        else:
            made.append(f"{indent}assert {holds}, {message}")
        return made[-1]

    out = [lines[0], check("    ")]
    for line in lines[1:]:
        out.append(line)
        stripped = line.lstrip()
        if stripped.startswith(("for ", "while ")) and rng.random() < 0.5:
            out.append(check(line[:len(line) - len(stripped)] + "    "))
    return out


def load(programs, directory, module_name, header=None):
    """Write ``programs`` to ``directory/module_name.py`` below ``header`` (by default the
    fuzzer's), import it, set each ``.fn``."""
    path = Path(directory) / f"{module_name}.py"
    header = MODULE_HEADER if header is None else header
    path.write_text(header + "\n\n".join(p.source for p in programs))
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    for program in programs:
        program.fn = getattr(module, program.name)
    return module


# --- points ------------------------------------------------------------------------------------

def points(program, count, special_rate=0.1):
    """``count`` points for ``program``, each (point, special); a tenth are special points:
    zeros of both signs, small whole numbers and ties between parameters."""
    rng = random.Random(f"points:{program.seed}:{program.index}")
    found = []
    for _ in range(count):
        n = len(program.params)
        point = [round(rng.uniform(-2.0, 2.0), 6) for _ in range(n)]
        special = rng.random() < special_rate
        if special:
            for i in range(n):
                roll = rng.random()
                if roll < 0.4:
                    point[i] = rng.choice(SPECIAL_VALUES)
                elif roll < 0.8 and i:
                    point[i] = point[rng.randrange(i)]  # a tie with an earlier parameter
        found.append((tuple(point), special))
    return found


# --- comparisons -------------------------------------------------------------------------------

@dataclass
class Mismatch:
    kind: str
    program: Program
    point: tuple
    expected: object = None
    got: object = None
    detail: str = ""

    def __str__(self):
        lines = [f"{self.kind}: program {self.program.index} of seed {self.program.seed} "
                 f"at {self.point!r}", f"  expected {self.expected!r}",
                 f"  got      {self.got!r}"]
        if self.detail:
            lines.append(f"  {self.detail}")
        return "\n".join(lines) + "\n" + MODULE_HEADER + self.program.source


@dataclass
class Tally:
    programs: int = 0
    points: int = 0
    skipped_points: int = 0
    sympy_points: int = 0
    sympy_skipped: int = 0
    raising_points: int = 0  # points where one of the program's own checks failed
    mismatches: list = field(default_factory=list)

    def add(self, other):
        for name in ("programs", "points", "skipped_points", "sympy_points", "sympy_skipped",
                     "raising_points"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.mismatches += other.mismatches


def close(a, b, rtol, atol):
    """Close numbers, or both nan, or the same infinity."""
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= atol + rtol * max(abs(a), abs(b))


def all_close(left, right, rtol, atol):
    return len(left) == len(right) and all(close(a, b, rtol, atol) for a, b in zip(left, right))


def as_tuple(value):
    return tuple(value) if isinstance(value, tuple) else (value,)


def value_at(program, point):
    """``fn(*point)`` when it is a moderate finite number, else None (skip the point)."""
    try:
        value = program.fn(*point)
    except (ArithmeticError, ValueError, AssertionError):  # a domain, or its own checks
        return None
    if not isinstance(value, (int, float)) or not math.isfinite(value) or abs(value) > LARGE:
        return None
    return value


def _overflows(program, point):
    """True when a local variable of the function, or of a helper or nested function it
    calls, holds inf or nan at some moment of the call at ``point``, even if the result
    is finite.  The generated reverse sweep then multiplies a zero adjoint by it (nan),
    where the tape never visits the value."""
    filename, found = program.fn.__code__.co_filename, []

    def local(frame, event, arg):
        found.extend(v for v in frame.f_locals.values()
                     if isinstance(v, float) and not math.isfinite(v))
        return local

    previous = sys.gettrace()
    sys.settrace(lambda frame, event, arg: (
        local if frame.f_code.co_filename == filename else None))
    try:
        program.fn(*point)
    except (ArithmeticError, ValueError):
        pass
    finally:
        sys.settrace(previous)
    return bool(found)


def _call(make, *args, **options):
    """``make(*args, **options)(*point)`` for the point passed as ``at``: (result, None),
    or (None, what it raised).  Building the function is inside: it may raise too."""
    point = options.pop("at")
    try:
        return make(*args, **options)(*point), None
    except Exception as exc:  # reported as a mismatch, not raised: the fuzzer goes on
        return None, f"{type(exc).__name__}: {exc}"


class _Slow(Exception):
    """The sympy witness ran past its time limit."""


SYMPY_SECONDS = 10.0  # sympy may take this long on one program (a long unrolled loop)


def compare_gradients(program, point, special, use_sympy=True):
    """Generated gradient vs tape (and vs sympy at ordinary points).

    Returns (mismatches, checked, sympy_used); ``checked`` is False when the point
    was skipped (the function raises there, or its value or gradient is huge).
    """
    if value_at(program, point) is None:
        return [], False, False
    wrt = tuple(range(len(program.params)))
    generated, error = _call(symdiff.grad, program.fn, wrt=wrt, at=point)
    if error:
        return [Mismatch("generated gradient raised", program, point, "a gradient", error)], \
            True, False
    taped, error = _call(symdiff.tape.grad, program.fn, wrt=wrt, at=point)
    if error:
        return [Mismatch("tape raised", program, point, generated, error)], True, False
    if any(math.isfinite(v) and abs(v) > LARGE for v in taped):
        return [], False, False
    found = []
    if not all_close(generated, taped, RTOL_TAPE, ATOL_TAPE):
        if _overflows(program, point):
            return [], False, False  # 0 * inf in the reverse sweep: nan, like JAX's
        found.append(Mismatch("generated != tape", program, point, taped, generated))
    if not use_sympy or special:
        return found, True, False
    try:
        with oracles.time_limit(SYMPY_SECONDS, _Slow):
            symbolic = evaluate_grad(program.fn, point, wrt=wrt)
    except (SymdiffError, _Slow):  # too large or slow for sympy, or not real there
        return found, True, False
    except Exception as exc:  # the witness itself failed: worth a look
        found.append(Mismatch("sympy raised", program, point, generated,
                              f"{type(exc).__name__}: {exc}"))
        return found, True, False
    if not all_close(generated, as_tuple(symbolic), RTOL_SYMPY, ATOL_SYMPY):
        if not found and _ill_conditioned(program, point, symbolic, wrt):
            return found, True, False  # no float gradient meets sympy's to 1e-9 here
        found.append(Mismatch("generated != sympy", program, point, symbolic, generated))
    return found, True, True


def _ill_conditioned(program, point, symbolic, wrt):
    """True when sympy's own gradient moves past the sympy tolerance as the point moves
    by ``CONDITION_STEP`` (relative).  Float rounding inside the program moves it that
    much, so there it decides the digits compared (``sin`` of a number in the millions,
    say) and neither side is wrong.  The tape, computed in floats like the generated
    gradient, still has to agree with it."""
    nearby = tuple(v + CONDITION_STEP * max(1.0, abs(v)) for v in point)
    try:
        with oracles.time_limit(SYMPY_SECONDS, _Slow):
            moved = evaluate_grad(program.fn, nearby, wrt=wrt)
    except Exception:  # no answer nearby: the mismatch stands
        return False
    return not all_close(as_tuple(symbolic), as_tuple(moved), RTOL_SYMPY, ATOL_SYMPY)


def _raised(make, point):
    """(class name, message) of what ``make()(*point)`` raises, or None."""
    try:
        make()(*point)
    except Exception as exc:  # whatever it is: both sides must raise the same
        return type(exc).__name__, str(exc)
    return None


def compare_raising(program, point):
    """Where the function's own input checks fail, the gradient (optimized or not), the
    jvp and the tape raise what it raises: the same class with the same message."""
    expected = _raised(lambda: program.fn, point)
    if expected is None or not expected[1].startswith("check "):
        return []
    wrt = tuple(range(len(program.params)))
    found = []
    for kind, make, args in (
            ("generated", lambda: symdiff.grad(program.fn, wrt=wrt), point),
            ("unoptimized", lambda: symdiff.grad(program.fn, wrt=wrt, optimize=False), point),
            ("jvp", lambda: symdiff.jvp(program.fn), point + (1.0,) * len(point)),
            ("tape", lambda: symdiff.tape.grad(program.fn, wrt=wrt), point)):
        got = _raised(make, args)
        if got != expected:
            found.append(Mismatch(f"{kind} raises otherwise", program, point, expected, got))
    return found


def compare_optimizer(program, point):
    """``optimize=False`` gives exactly the numbers ``optimize=True`` does."""
    if value_at(program, point) is None:
        return []
    wrt = tuple(range(len(program.params)))
    optimized, error = _call(symdiff.grad, program.fn, wrt=wrt, at=point)
    raw, raw_error = _call(symdiff.grad, program.fn, wrt=wrt, optimize=False,
                            at=point)
    if error or raw_error or not all_close(optimized, raw, 0.0, 0.0):
        return [Mismatch("optimize=False != optimize=True", program, point,
                         optimized if not error else error, raw if not raw_error else raw_error)]
    return []


def compare_jvp(program, point, direction):
    """The jvp tangent against the gradient's dot product with ``direction``."""
    value = value_at(program, point)
    if value is None:
        return []
    wrt = tuple(range(len(program.params)))
    gradient, error = _call(symdiff.grad, program.fn, wrt=wrt, at=point)
    if error or not all(math.isfinite(g) for g in gradient):
        return []
    result, error = _call(symdiff.jvp, program.fn, at=point + tuple(direction))
    if error:
        return [Mismatch("jvp raised", program, point, "a tangent", error,
                         f"direction {direction!r}")]
    primal, tangent = result
    expected = math.fsum(g * v for g, v in zip(gradient, direction))
    scale = math.fsum(abs(g * v) for g, v in zip(gradient, direction))
    found = []
    if not close(tangent, expected, 1e-9, 1e-9 * max(1.0, scale)):
        found.append(Mismatch("jvp tangent != grad . v", program, point, expected, tangent,
                              f"direction {direction!r}"))
    if not close(primal, value, 1e-12, 0.0):
        found.append(Mismatch("jvp value != f", program, point, value, primal))
    return found


def compare_hessian(program, point, special=False):
    """The Hessian is symmetric (to 1e-9, relative to its largest entry) and, at an
    ordinary point, matches finite differences of the tape gradient.  A special point
    may sit on a kink that the differences cannot see (``abs(z ** 2)`` at 0, ``max(x,
    y) ** 2`` at a tie), where the conventions give one side's Hessian."""
    if value_at(program, point) is None:
        return []
    matrix, error = _call(symdiff.hessian, program.fn, at=point)
    if error:
        return [Mismatch("hessian raised", program, point, "a matrix", error)]
    if isinstance(matrix, float):  # one parameter: the Hessian is bare, as grad is
        matrix = ((matrix,),)
    if not all(math.isfinite(v) for row in matrix for v in row):
        return []
    scale = max(1.0, max(abs(v) for row in matrix for v in row))
    n = len(matrix)
    for i in range(n):
        for j in range(i + 1, n):
            if abs(matrix[i][j] - matrix[j][i]) > 1e-9 * scale:
                return [Mismatch("hessian not symmetric", program, point,
                                 f"H[{i}][{j}] == H[{j}][{i}]", matrix)]
    if special:
        return []
    estimate = _tape_hessian(program, point)
    if estimate is not None and not all(
            close(a, b, 1e-5, 1e-6 * scale) for row, fd_row in zip(matrix, estimate)
            for a, b in zip(row, fd_row)):
        return [Mismatch("hessian != finite differences of the tape gradient", program,
                         point, estimate, matrix)]
    return []


def _tape_hessian(program, point, step=1e-5):
    """Central differences of the tape gradient, or None where they are not steady
    (a kink, a branch or a loop count nearby): two step sizes must agree."""
    gradient = symdiff.tape.grad(program.fn, wrt=tuple(range(len(point))))

    def column(j, h):
        h *= max(1.0, abs(point[j]))
        up, down = list(point), list(point)
        up[j] += h
        down[j] -= h
        return [(a - b) / (up[j] - down[j]) for a, b in zip(gradient(*up), gradient(*down))]

    try:
        coarse = [column(j, step) for j in range(len(point))]
        fine = [column(j, step / 2) for j in range(len(point))]
    except (ArithmeticError, ValueError):
        return None
    values = [v for col in coarse + fine for v in col]
    if not all(math.isfinite(v) for v in values):
        return None
    scale = max(1.0, max(abs(v) for v in values))
    if any(abs(a - b) > 1e-6 * scale for c, f in zip(coarse, fine) for a, b in zip(c, f)):
        return None
    return [[fine[j][i] for j in range(len(point))] for i in range(len(point))]


# --- a whole run ----------------------------------------------------------------------------

def run(seed, count, directory, features=DEFAULT_FEATURES, size="medium", points_per_program=3,
        sympy_every=1, optimizer_every=0, jvp_every=0, hessian_every=0, batch=25,
        stop_after=None, start=0):
    """Generate ``count`` programs of ``seed`` and check them; a ``Tally`` of what was seen.

    ``*_every=k`` runs that comparison on every k-th program (0: never).  Each ``batch``
    of programs goes to a module file of its own: symdiff finds a lambda by walking the
    syntax tree of its whole file, so small files keep that cheap.
    """
    tally = Tally()
    for first in range(start, start + count, batch):
        programs = [generate(seed, index, features, size)
                    for index in range(first, min(start + count, first + batch))]
        load(programs, directory, f"fuzz_{seed}_{first}_{size}_{_tag(features)}")
        for program in programs:
            tally.programs += 1
            check_program(program, tally, points_per_program, sympy_every, optimizer_every,
                          jvp_every, hessian_every)
            if stop_after is not None and len(tally.mismatches) >= stop_after:
                return tally
    return tally


def run_job(job):
    """``run(**job)`` in a temporary directory of its own; the tally comes back without
    the loaded functions, so it can cross a process boundary."""
    with tempfile.TemporaryDirectory(prefix="symdiff-fuzz-") as directory:
        tally = run(directory=directory, **job)
    for mismatch in tally.mismatches:
        mismatch.program.fn = None
    return tally


def run_jobs(jobs, processes=1):
    """``run_job`` for each of ``jobs`` (dicts of ``run`` arguments), in that order; in
    ``processes`` forked workers where the platform forks, else one after another."""
    if processes > 1 and "fork" in multiprocessing.get_all_start_methods():
        with multiprocessing.get_context("fork").Pool(processes) as pool:
            return pool.map(run_job, jobs, chunksize=1)
    return [run_job(job) for job in jobs]


def check_program(program, tally, points_per_program=3, sympy_every=1, optimizer_every=0,
                  jvp_every=0, hessian_every=0):
    index = program.index
    chosen = points(program, points_per_program)
    sympy_done = False
    for point, special in chosen:
        use_sympy = bool(sympy_every) and index % sympy_every == 0 and not sympy_done
        found, checked, used = compare_gradients(program, point, special, use_sympy)
        tally.points += checked
        tally.skipped_points += not checked
        if use_sympy and checked and not special:
            sympy_done = True  # one sympy point per program: it is the slow witness
            tally.sympy_points += used
            tally.sympy_skipped += not used
        tally.mismatches += found
        failed = _raised(lambda: program.fn, point)
        if failed is not None and failed[1].startswith("check "):  # its own check failed
            tally.raising_points += 1
            tally.mismatches += compare_raising(program, point)
    point, special = chosen[0]
    if optimizer_every and index % optimizer_every == 0:
        tally.mismatches += compare_optimizer(program, point)
    if jvp_every and index % jvp_every == 0:
        rng = random.Random(f"direction:{program.seed}:{index}")
        direction = tuple(rng.uniform(-1.0, 1.0) for _ in program.params)
        tally.mismatches += compare_jvp(program, point, direction)
    if hessian_every and index % hessian_every == 0:
        tally.mismatches += compare_hessian(program, point, special)


def _tag(features):
    return "default" if features == DEFAULT_FEATURES else format(zlib.crc32(
        ",".join(sorted(features)).encode()), "x")


# --- shrinking a failing program ---------------------------------------------------------------

_COUNTER = re.compile(r"n\d* \+= 1")


def _blocks(lines):
    """(start, end) line ranges of each statement with its nested block, innermost last:
    the statements of every function, and the helpers whole.  The last line (the final
    return, or the lambda) stays; a range whose removal breaks the program (a ``def``
    line, a helper still called) is tried, and rejected, like any other."""
    spans = []
    for start in range(len(lines) - 1):
        if _COUNTER.fullmatch(lines[start].strip()):
            continue  # a while loop without its counter would never end
        indent = len(lines[start]) - len(lines[start].lstrip())
        end = start + 1
        while end < len(lines) - 1 and len(lines[end]) - len(lines[end].lstrip()) > indent:
            end += 1
        spans.append((start, end))
    return spans


def shrink(program, still_fails, directory, rounds=40):
    """A smaller variant of ``program`` (statements deleted, blocks flattened) for which
    ``still_fails(variant)`` holds; ``program`` itself if nothing smaller does."""
    counter = [0]

    def attempt(lines):
        counter[0] += 1
        candidate = Program(program.seed, program.index, program.name, program.params,
                            "\n".join(lines) + "\n", program.features)
        try:
            compile(candidate.source, "<shrink>", "exec")
            load([candidate], directory, f"shrink_{program.seed}_{program.index}_{counter[0]}")
            return candidate if still_fails(candidate) else None
        except Exception:
            return None

    best = program
    for _ in range(rounds):
        lines = best.source.rstrip("\n").split("\n")
        smaller = None
        for start, end in _blocks(lines):
            smaller = attempt(lines[:start] + lines[end:])  # drop the statement
            if smaller is None and end > start + 1 and lines[start].rstrip().endswith(":"):
                body = [line[4:] for line in lines[start + 1:end]]  # keep only its body
                smaller = attempt(lines[:start] + body + lines[end:])
            if smaller is not None:
                break
        if smaller is None:
            return best
        best = smaller
    return best
