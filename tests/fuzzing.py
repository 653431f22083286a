"""Random programs for differential testing, shared by tests/test_fuzz.py and scripts/fuzz.py.

``generate(seed, index)`` writes one random function of two or three float parameters
as source text, drawn from a ``random.Random`` seeded by ``(seed, index)`` alone, so
any program can be rebuilt from the two numbers a report prints.  The programs use
the language symdiff reads: straight-line and re-assignments, ``+=``/``-=``/``*=``,
``if``/``else`` on comparisons, ``for`` over ``range(k)`` with loop-carried values,
``while`` with a bounded counter, ``min``/``max``/``abs``, integer powers and float
powers of positive bases, and math functions kept on their domains (``exp`` of bounded
arguments, ``log``/``sqrt`` of ``t * t + c``, division by ``1.0 + t * t``).  Each
returns one number and raises nowhere on finite inputs (overflow aside).

``load(programs, directory, module_name)`` writes a batch to one module file and
imports it: symdiff reads the source of what it differentiates from that file.

The ``compare_*`` functions check one program at one point and return a list of
``Mismatch`` records, each able to print the program source and the point.
"""

import importlib.util
import math
import random
import sys
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import symdiff
import symdiff.tape
from symdiff.errors import SymdiffError
from symdiff.symbolic import evaluate_grad

PARAMS = ("x", "y", "z")
LOCALS = ("a", "b", "c", "d", "g", "h", "p", "q", "r", "s", "u", "w")
TRICKY_LOCALS = ("dx", "dy", "t1", "stack", "result")  # names the generator's own code uses
CONSTANTS = ("0.5", "1.5", "2.0", "0.25", "3.0", "0.1", "1.0", "0.75")
ALL_FEATURES = frozenset({"if", "for", "while", "break", "minmax", "abs", "pow", "math",
                          "divide", "augmented", "tuple", "ifexp", "loop_index"})
LOOP_FEATURES = frozenset({"for", "while"})

RTOL_TAPE, ATOL_TAPE = 1e-10, 1e-12   # generated vs tape: the same arithmetic, reordered
RTOL_SYMPY, ATOL_SYMPY = 1e-9, 1e-9   # generated vs sympy
LARGE = 1e8  # points where the value or a partial is larger are skipped (overflow ahead)
SPECIAL_VALUES = (0.0, -0.0, 1.0, -1.0, 0.5)


@dataclass
class Program:
    seed: int
    index: int
    name: str
    params: tuple
    source: str  # the ``def`` alone; ``MODULE_HEADER`` comes first in the file
    features: frozenset
    fn: object = None  # set by ``load``

    @property
    def loops(self):
        return bool(self.features & LOOP_FEATURES)


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


class _Generator:
    """Writes one function; ``allowed`` is the set of features it may use."""

    def __init__(self, rng, allowed, size):
        self.rng = rng
        self.allowed = allowed
        self.size = size
        self.used = set()
        self.lines = []
        self.counter = 0  # for fresh counter names of while loops

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
        if rng.random() < 0.88:
            return rng.choice(names)
        return rng.choice(CONSTANTS)

    def atom(self, names, ints, depth):
        """An expression safe to put before ``**`` or after a unary minus."""
        text = self.expr(names, ints, depth)
        return text if text.isidentifier() or _is_number(text) else f"({text})"

    def expr(self, names, ints, depth):
        rng = self.rng
        if depth <= 0 or rng.random() < 0.25:
            return self.leaf(names, ints)
        sub = depth - 1
        kind = rng.choices(
            ("arith", "neg", "divide", "intpow", "floatpow", "smooth", "exp", "logsqrt",
             "minmax", "abs", "ifexp"),
            (6, 1, 1.5, 1.5, 1, 2, 1, 1.2, 1.2, 0.8, 0.5))[0]
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
            if rng.random() < 0.5:
                return f"({t} * {t} + {rng.choice(('0.5', '1.0'))}) ** {exponent}"
            self.used.add("abs")
            return f"(1.0 + abs({self.expr(names, ints, sub - 1)})) ** {exponent}"
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

    # statements

    def emit(self, indent, text):
        self.lines.append("    " * indent + text)

    def fresh_local(self, names):
        pool = [n for n in LOCALS if n not in names]
        if self.rng.random() < 0.08:
            pool = [n for n in TRICKY_LOCALS if n not in names] or pool
        return self.rng.choice(pool) if pool else None

    def count(self):
        return self.rng.randint(*self.size.inner)

    def block(self, names, ints, indent, count, depth, in_loop=False):
        """``count`` statements; ``names`` grows only with names safe to read afterwards."""
        inner = list(names)  # names defined inside this block (read inside it only)
        for _ in range(count):
            self.statement(inner, ints, indent, depth, in_loop)
        return inner

    def statement(self, names, ints, indent, depth, in_loop):
        rng = self.rng
        kinds = ["new", "reassign", "augmented", "if", "for", "while", "tuple", "break"]
        weights = [3, 2, 2, 1.2, 1, 0.7, 0.4, 0.5 if in_loop else 0]
        if in_loop:
            weights[1:3] = [4, 3]  # loop-carried values
        if depth >= self.size.nesting:
            weights[3:6] = [0, 0, 0]
        kind = rng.choices(kinds, weights)[0]
        target = rng.choice(names)  # for a reassignment: its old value is read, often
        value = self.expr(names + [target] * 3, ints, rng.choice(self.size.depths))
        if kind == "augmented" and self.enabled("augmented"):
            op = rng.choice(("+=", "-=", "*="))
            if op == "*=":
                value = f"0.5 + 0.25 * math.sin({value})" if "math" in self.allowed else "0.5"
            self.emit(indent, f"{target} {op} {value}")
        elif kind == "if" and self.enabled("if"):
            self.emit(indent, f"if {self.condition(names, ints)}:")
            self.block(names, ints, indent + 1, self.count(), depth + 1, in_loop)
            if rng.random() < 0.7:
                self.emit(indent, "else:")
                self.block(names, ints, indent + 1, self.count(), depth + 1, in_loop)
        elif kind == "for" and self.enabled("for"):
            index = ("i", "j", "k")[len(ints)]
            self.emit(indent, f"for {index} in range({rng.randint(1, 4)}):")
            self.block(names, ints + [index], indent + 1, self.count(), depth + 1, True)
        elif kind == "while" and self.enabled("while"):
            counter = f"n{self.counter}" if self.counter else "n"
            self.counter += 1
            self.emit(indent, f"{counter} = 0")
            test = f"{counter} < {rng.randint(1, 4)}"
            if rng.random() < 0.3:
                test += f" and {rng.choice(names)} < {rng.choice(('2.0', '5.0', '10.0'))}"
            self.emit(indent, f"while {test}:")
            self.emit(indent + 1, f"{counter} += 1")  # first, so `continue` cannot spin
            self.block(names, ints, indent + 1, self.count(), depth + 1, True)
        elif kind == "tuple" and self.enabled("tuple") and len(names) >= 2:
            first, second = rng.sample(names, 2)
            self.emit(indent, f"{first}, {second} = {second}, {value}")
        elif kind == "break" and self.enabled("break"):
            self.emit(indent, f"if {self.condition(names, ints)}:")
            self.emit(indent + 1, rng.choice(("break", "continue")))
        elif kind == "reassign":
            self.emit(indent, f"{target} = {value}")
        else:
            name = self.fresh_local(names)
            if name is None:
                self.emit(indent, f"{target} = {value}")
            else:
                self.emit(indent, f"{name} = {value}")
                names.append(name)


def _is_number(text):
    try:
        float(text)
    except ValueError:
        return False
    return True


def _is_simple(text):
    return text.isidentifier() or _is_number(text) or (
        text.startswith(("math.", "min(", "max(", "abs(")) and text.endswith(")")
        and _balanced_once(text))


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


def generate(seed, index, features=ALL_FEATURES, size="medium"):
    """Program ``index`` of ``seed``: the same text for the same arguments."""
    rng = random.Random(seed * 1_000_003 + index)
    params = PARAMS[:rng.choice((2, 2, 3))]
    generator = _Generator(rng, frozenset(features), SIZES[size])
    names = generator.block(list(params), [], 1, rng.randint(*SIZES[size].top), 0)
    made = [n for n in names if n not in params]
    chosen = rng.sample(made, min(len(made), rng.randint(1, 2))) + [rng.choice(params)]
    result = " + ".join(chosen)
    if rng.random() < 0.5:
        result = f"{result} + {generator.expr(names, [], 2)}"
    name = f"f_{seed}_{index}"
    lines = [f"def {name}({', '.join(params)}):", *generator.lines, f"    return {result}"]
    return Program(seed, index, name, params, "\n".join(lines) + "\n",
                   frozenset(generator.used))


def load(programs, directory, module_name):
    """Write ``programs`` to ``directory/module_name.py``, import it, set each ``.fn``."""
    path = Path(directory) / f"{module_name}.py"
    path.write_text(MODULE_HEADER + "\n\n".join(p.source for p in programs))
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
        return (f"{self.kind}: program {self.program.index} of seed {self.program.seed} at "
                f"{self.point!r}\n  expected {self.expected!r}\n  got      {self.got!r}"
                f"{chr(10) + '  ' + self.detail if self.detail else ''}\n"
                f"{MODULE_HEADER}{self.program.source}")


@dataclass
class Tally:
    programs: int = 0
    points: int = 0
    skipped_points: int = 0
    sympy_points: int = 0
    sympy_skipped: int = 0
    mismatches: list = field(default_factory=list)

    def add(self, other):
        for name in ("programs", "points", "skipped_points", "sympy_points", "sympy_skipped"):
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
    except (ArithmeticError, ValueError):
        return None
    if not isinstance(value, (int, float)) or not math.isfinite(value) or abs(value) > LARGE:
        return None
    return value


def _call(function, point):
    try:
        return function(*point), None
    except Exception as exc:  # reported as a mismatch, not raised: the fuzzer goes on
        return None, f"{type(exc).__name__}: {exc}"


def compare_gradients(program, point, special, use_sympy=True):
    """Generated gradient vs tape (and vs sympy at ordinary points).

    Returns (mismatches, checked, sympy_used); ``checked`` is False when the point
    was skipped (the function raises there, or its value or gradient is huge).
    """
    if value_at(program, point) is None:
        return [], False, False
    wrt = tuple(range(len(program.params)))
    generated, error = _call(symdiff.grad(program.fn, wrt=wrt), point)
    if error:
        return [Mismatch("generated gradient raised", program, point, "a gradient", error)], \
            True, False
    taped, error = _call(symdiff.tape.grad(program.fn, wrt=wrt), point)
    if error:
        return [Mismatch("tape raised", program, point, generated, error)], True, False
    if any(math.isfinite(v) and abs(v) > LARGE for v in taped):
        return [], False, False
    found = []
    if not all_close(generated, taped, RTOL_TAPE, ATOL_TAPE):
        found.append(Mismatch("generated != tape", program, point, taped, generated))
    if not use_sympy or special:
        return found, True, False
    try:
        symbolic = evaluate_grad(program.fn, point, wrt=wrt)
    except SymdiffError:  # too large for the sympy witness, or not real at the point
        return found, True, False
    if not all_close(generated, as_tuple(symbolic), RTOL_SYMPY, ATOL_SYMPY):
        found.append(Mismatch("generated != sympy", program, point, symbolic, generated))
    return found, True, True


def compare_optimizer(program, point):
    """``optimize=False`` gives exactly the numbers ``optimize=True`` does."""
    if value_at(program, point) is None:
        return []
    wrt = tuple(range(len(program.params)))
    optimized, error = _call(symdiff.grad(program.fn, wrt=wrt), point)
    raw, raw_error = _call(symdiff.grad(program.fn, wrt=wrt, optimize=False), point)
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
    gradient, error = _call(symdiff.grad(program.fn, wrt=wrt), point)
    if error or not all(math.isfinite(g) for g in gradient):
        return []
    result, error = _call(symdiff.jvp(program.fn), point + tuple(direction))
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


def compare_hessian(program, point):
    """The Hessian is symmetric (to 1e-9, relative to its largest entry)."""
    if value_at(program, point) is None:
        return []
    matrix, error = _call(symdiff.hessian(program.fn), point)
    if error:
        return [Mismatch("hessian raised", program, point, "a matrix", error)]
    if not all(math.isfinite(v) for row in matrix for v in row):
        return []
    scale = max(1.0, max(abs(v) for row in matrix for v in row))
    n = len(matrix)
    for i in range(n):
        for j in range(i + 1, n):
            if abs(matrix[i][j] - matrix[j][i]) > 1e-9 * scale:
                return [Mismatch("hessian not symmetric", program, point,
                                 f"H[{i}][{j}] == H[{j}][{i}]", matrix)]
    return []


# --- a whole run ----------------------------------------------------------------------------

def run(seed, count, directory, features=ALL_FEATURES, size="medium", points_per_program=3,
        sympy_every=1, optimizer_every=0, jvp_every=0, hessian_every=0, batch=100,
        stop_after=None, start=0):
    """Generate ``count`` programs of ``seed`` and check them; a ``Tally`` of what was seen.

    ``*_every=k`` runs that comparison on every k-th program (0: never).
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
    point = chosen[0][0]
    if optimizer_every and index % optimizer_every == 0:
        tally.mismatches += compare_optimizer(program, point)
    if jvp_every and index % jvp_every == 0:
        rng = random.Random(f"direction:{program.seed}:{index}")
        direction = tuple(rng.uniform(-1.0, 1.0) for _ in program.params)
        tally.mismatches += compare_jvp(program, point, direction)
    if hessian_every and index % hessian_every == 0:
        tally.mismatches += compare_hessian(program, point)


def _tag(features):
    return "all" if features == ALL_FEATURES else format(zlib.crc32(
        ",".join(sorted(features)).encode()), "x")
