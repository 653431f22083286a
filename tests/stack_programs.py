"""Random stack programs: lists used through ``append`` and ``pop``, for the optimizer.

``generate(seed, index)`` writes one function of ``x`` and ``y`` that keeps values on
one or two lists (``s = []``, ``t = []``) and takes them back with ``pop()`` — as a
statement (``a = s.pop()``), several in one expression (``s.pop() * s.pop()``, whose
order is Python's left to right), interleaved with arithmetic, inside ``for`` loops
(balanced bodies, or a loop that fills a stack and a later loop of the same trip count
that drains it) and ``if``/``else`` branches (both arms leave the stack as deep).  The
generator tracks each stack's depth, so no program pops an empty list.  A stack may also
be read by index (``s[-1]``, ``s[0]``) and measured (``len(s)``) where it is not empty.

``compare(program, point)`` computes the gradient three ways — optimized, with
``optimize=False`` and on the tape — and returns the mismatches, each printing the
program and the point.  The optimizer must never merge, duplicate, drop or reorder a
``pop``, so all three agree exactly or to a few ulps.
"""

import math
import random
from dataclasses import dataclass

import symdiff
import symdiff.tape

try:
    import fuzzing
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import fuzzing

HEADER = "import math\n\n"
STACKS = ("s", "t")
LOCALS = ("a", "b", "c", "d")
FUNCTIONS = ("math.sin", "math.cos", "math.tanh")
CONSTANTS = ("0.5", "1.5", "2.0", "0.25", "-0.75")
RTOL, ATOL = 1e-10, 1e-12


@dataclass
class Program:
    seed: int
    index: int
    name: str
    source: str
    fn: object = None


class _Writer:
    def __init__(self, rng, indexing):
        self.rng = rng
        self.indexing = indexing
        self.lines = []
        self.depth = {s: 0 for s in STACKS}
        self.names = ["x", "y"]

    def emit(self, indent, text):
        self.lines.append("    " * indent + text)

    def atom(self, pops):
        """A name, a constant, or (while the stack allows) a pop or an indexed read."""
        rng = self.rng
        stack = rng.choice(STACKS)
        roll = rng.random()
        if roll < 0.3 and self.depth[stack] - pops[stack] > 0:
            pops[stack] += 1
            return f"{stack}.pop()"
        if self.indexing and roll < 0.4 and self.depth[stack] - pops[stack] > 0:
            return rng.choice((f"{stack}[-1]", f"{stack}[0]", f"len({stack})"))
        if roll < 0.5:
            return rng.choice(CONSTANTS)
        return rng.choice(self.names)

    def expr(self, depth, pops):
        rng = self.rng
        if depth == 0 or rng.random() < 0.3:
            return self.atom(pops)
        roll = rng.random()
        if roll < 0.25:
            return f"{rng.choice(FUNCTIONS)}({self.expr(depth - 1, pops)})"
        op = rng.choice(("+", "-", "*"))
        return f"({self.expr(depth - 1, pops)} {op} {self.expr(depth - 1, pops)})"

    def value(self, depth=2, pops=True):
        """An expression (with pops, unless not ``pops``); the depths are updated."""
        start = {s: 0 if pops else self.depth[s] for s in STACKS}  # pops: none available
        taken = dict(start)
        text = self.expr(depth, taken)
        for stack in STACKS:
            self.depth[stack] -= taken[stack] - start[stack]
        return text

    def assign(self, indent):
        target = self.rng.choice(LOCALS)
        self.emit(indent, f"{target} = {self.value()}")
        if target not in self.names:
            self.names.append(target)

    def push(self, indent):
        stack = self.rng.choice(STACKS)
        value = self.value()
        self.depth[stack] += 1
        self.emit(indent, f"{stack}.append({value})")

    def pop(self, indent):
        stack = self.rng.choice([s for s in STACKS if self.depth[s]] or [None])
        if stack is None:
            return self.push(indent)
        target = self.rng.choice(LOCALS)
        self.depth[stack] -= 1
        self.emit(indent, f"{target} = {stack}.pop()")
        if target not in self.names:
            self.names.append(target)

    def balance(self, indent, depth):
        """Pushes or pops until the stacks are as deep as ``depth``."""
        for stack in STACKS:
            while self.depth[stack] > depth[stack]:
                self.depth[stack] -= 1
                target = self.rng.choice(LOCALS)
                self.emit(indent, f"{target} = {self.rng.choice(self.names)} + {stack}.pop()")
                if target not in self.names:
                    self.names.append(target)
            while self.depth[stack] < depth[stack]:
                self.depth[stack] += 1
                self.emit(indent, f"{stack}.append({self.rng.choice(self.names)})")

    def block(self, indent, count, nesting):
        for _ in range(count):
            self.statement(indent, nesting)

    def statement(self, indent, nesting):
        rng = self.rng
        roll = rng.random()
        if nesting and roll < 0.15:
            return self.loop(indent, nesting)
        if nesting and roll < 0.25:
            return self.fill_and_drain(indent, nesting)
        if nesting and roll < 0.38:
            return self.branch(indent, nesting)
        if roll < 0.6:
            return self.push(indent)
        if roll < 0.8:
            return self.pop(indent)
        return self.assign(indent)

    def loop(self, indent, nesting):
        """A loop whose body leaves every stack as deep as it found it."""
        before, names = dict(self.depth), list(self.names)
        self.emit(indent, f"for i{indent} in range({self.rng.randint(1, 3)}):")
        self.block(indent + 1, self.rng.randint(1, 3), nesting - 1)
        self.balance(indent + 1, before)
        self.names = names  # what the body assigns may not be assigned after zero trips

    def fill_and_drain(self, indent, nesting):
        """One loop pushes once per trip, a later one of the same trip count pops as often."""
        stack, trips = self.rng.choice(STACKS), self.rng.randint(1, 3)
        target = self.rng.choice(LOCALS)
        self.emit(indent, f"{target} = {self.value(1)}")
        if target not in self.names:
            self.names.append(target)
        self.emit(indent, f"for i{indent} in range({trips}):")
        self.emit(indent + 1, f"{stack}.append({self.value(1, pops=False)} * "
                              f"{self.rng.choice(CONSTANTS)})")
        self.emit(indent, f"for i{indent} in range({trips}):")
        self.emit(indent + 1, f"{target} = {target} * {stack}.pop() + "
                              f"{self.rng.choice(FUNCTIONS)}({target})")

    def branch(self, indent, nesting):
        """Both arms leave the stacks as deep as they were."""
        before, names = dict(self.depth), list(self.names)
        left, op, right = self.rng.choice(self.names), self.rng.choice(("<", ">")), "0.25"
        self.emit(indent, f"if {left} {op} {right}:")
        self.block(indent + 1, self.rng.randint(1, 2), nesting - 1)
        self.balance(indent + 1, before)
        self.names = list(names)
        self.emit(indent, "else:")
        self.block(indent + 1, self.rng.randint(1, 2), nesting - 1)
        self.balance(indent + 1, before)
        self.names = names


def generate(seed, index, indexing=False):
    """One program; with ``indexing``, it also reads its stacks by index and length."""
    rng = random.Random(f"stack {seed} {index} {indexing}")
    writer = _Writer(rng, indexing)
    writer.emit(1, "s = []")
    writer.emit(1, "t = []")
    writer.block(1, rng.randint(2, 6), 2)
    result = writer.value(2)
    rest = " + ".join(f"{stack}.pop()" for stack in STACKS for _ in range(writer.depth[stack]))
    name = f"stack_{seed}_{index}"
    lines = [f"def {name}(x, y):", *writer.lines,
             f"    return {result}" + (f" + {rest}" if rest else "")]
    return Program(seed, index, name, "\n".join(lines) + "\n")


def load(programs, directory, module_name):
    """Write ``programs`` to one module file, import it, set each ``.fn``."""
    return fuzzing.load(programs, directory, module_name, header=HEADER)


def _close(a, b, rtol, atol):
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= atol + rtol * max(abs(a), abs(b))


def _outcome(make, *args):
    try:
        return tuple(make()(*args))
    except Exception as error:  # the exception is the outcome to compare
        return type(error)


def compare(program, point):
    """Mismatches between the optimized gradient, the unoptimized one and the tape."""
    fn = program.fn
    optimized = _outcome(lambda: symdiff.grad(fn), *point)
    raw = _outcome(lambda: symdiff.grad(fn, optimize=False), *point)
    taped = _outcome(lambda: symdiff.tape.grad(fn), *point)
    found = []
    if optimized != raw:
        found.append(("optimize=True != optimize=False", optimized, raw))
    if isinstance(taped, tuple) and isinstance(optimized, tuple):
        if not all(_close(a, b, RTOL, ATOL) for a, b in zip(optimized, taped)):
            found.append(("generated != tape", optimized, taped))
    elif taped != optimized:
        found.append(("generated != tape", optimized, taped))
    return [f"{kind} at {point!r}: {got!r} against {expected!r}\n{HEADER}{program.source}"
            for kind, got, expected in found]
