"""The pipeline: every pass symdiff runs, once, in order.

    source ─► parse ─► fence ─► desugar ─► lower ─► hoist ─► differentiate ─► optimize
           ─► to_python ─► emit ─► compile

Each stage is a plain function from one value to the next; this module is the only
place that calls them in sequence.  ``lower`` is the front half (a user's function to
a ``Program`` of single-operation statements, what ``check``, ``graph`` and the tests
read); ``generate`` the whole, to the emitted text.  The caller's ``wrt`` is an input
like the parsed function: once the program is lowered it is resolved
(``frontend.wrt``) to the parameters ``differentiate`` writes the sweeps for, and
returned with the text (``Generated.wrt``); nothing is called back.  ``differentiate`` writes the sweeps
as IR (``ir.sweeps``), ``optimize`` rewrites that IR, and ``to_python`` lowers what is
left to the Python tree ``emit`` prints.  With ``SYMDIFF_CHECK_IR=1`` (the tests set it)
``check_program`` runs after ``lower`` and ``hoist``, ``check_sweeps`` after
``differentiate`` and ``optimize``.

A ``debug`` callable, when given, is called after every stage with the stage's name
and its value, so a pass can be looked at alone (``symdiff show --debug``):

    >>> import math
    >>> def f(x):
    ...     return math.sin(x) * x
    >>> stages = []
    >>> _ = generate(parse_function(f), debug=lambda stage, value: stages.append(stage))
    >>> stages
    ['parse', 'fence', 'desugar', 'lower', 'hoist', 'differentiate', 'optimize', 'to_python', 'emit']

A failure that is not the user's (``SymdiffError``) is our bug: it is raised as
``InternalError`` naming the stage it happened in.
"""

import contextlib
import gc
import os
import dataclasses
from dataclasses import dataclass

from symdiff.ad.forward import differentiate_forward
from symdiff.ad.reverse import differentiate
from symdiff.analysis.defuse import DefUse
from symdiff.analysis.types import annotate
from symdiff.backend.emit import emit_parsed
from symdiff.errors import InternalError, SymdiffError
from symdiff.frontend.fence import fence
from symdiff.frontend.parse import deepest_statement, parse_function
from symdiff.frontend.table_reads import check_tables
from symdiff.frontend.wrt import resolve
from symdiff.ir.check import check_program
from symdiff.ir.check_sweeps import check_sweeps
from symdiff.ir.nodes import number_statements
from symdiff.backend.to_python import to_python
from symdiff.lower.desugar import desugar
from symdiff.lower.hoist import hoist_invariants
from symdiff.lower.normalize import normalize
from symdiff.lower.user_names import name_by_the_user
from symdiff.optimize.driver import optimize_function

STAGES = ("parse", "fence", "desugar", "lower", "hoist", "differentiate", "optimize", "to_python",
          "emit", "compile")


@dataclass
class Generated:
    """What ``generate`` built: the lowered program, the generated function's tree (before
    printing) and its text; ``wrt``, the ``frontend.wrt.Choice`` of parameters it
    differentiates by; ``defuse``, the program's ``DefUse`` (the display graph reads it
    too); ``module``, the text parsed back (compiled without parsing again)."""

    program: object
    function: object
    source: str
    wrt: object
    defuse: object = None
    module: object = None  # the module tree ``source`` parses to (``emit_parsed``)


def lower(parsed, *, forward=False, debug=None, kinds=None, seeded=False):
    """The ``Program`` of a parsed function: fenced, desugared, lowered and hoisted.

    With ``forward``, the function may return a tuple of numbers, a container or an
    array (forward mode).
    ``kinds`` maps each container parameter to its type (``frontend.kinds``): the
    program is specialized to them.  With ``seeded`` (``vjp``), it may return a
    container or an array.
    """
    show = debug or _quiet
    with stage("fence", parsed):
        show("fence", fence(parsed))
    with stage("desugar", parsed):
        desugared = desugar(parsed, kinds)
    show("desugar", desugared)
    with stage("lower", parsed):
        program = annotate(number_statements(name_by_the_user(normalize(
            desugared, allow_tuple=forward, kinds=kinds, any_result=seeded or forward),
            desugared.tree)))
    verify(program, "lower")
    show("lower", program)
    with stage("hoist", parsed):
        program = hoist_invariants(program, defuse=DefUse(program))
    verify(program, "hoist")
    show("hoist", program)
    return program


def generate(parsed, wrt=None, *, prefer=None, with_value=False, optimize=True,
             forward=False, debug=None, kinds=None, target="python", seeded=False, pack=True):
    """The generated gradient (``forward``: the tangent function) of a parsed function.

    ``wrt`` and ``prefer`` are as the caller wrote them (``frontend.wrt``): once the
    program is lowered, they are resolved to a ``Choice`` of parameters (and whether one
    bare value is returned), which the sweeps are written for and ``Generated.wrt``
    holds.  ``kinds``: the container parameters' types, as ``lower`` takes them.
    ``target``: ``"python"``, or ``"numba"`` for the text numba compiles (``to_python``).
    ``seeded``: the vector-Jacobian product (``symdiff.vjp``), whose reverse sweep starts
    from a cotangent parameter of the result's structure instead of 1.0.  ``pack``: a
    loop's saves may be pushed as one tuple (``optimize_function``); without it (the text a
    second derivative reads again) they stay one by one, on a tape per type of value
    (``differentiate``'s ``read_again``).
    """
    with collector_paused():
        show = debug or _quiet
        show("parse", parsed)
        program = lower(parsed, forward=forward, debug=debug, kinds=kinds, seeded=seeded)
        choice = resolve(wrt, program, parsed, prefer, kinds, counts=not forward)
        check_tables(parsed, list(program.tables))  # those in wrt are refused by resolve
        return differentiate_program(parsed, program, choice, with_value=with_value,
                                     optimize=optimize, forward=forward, debug=debug,
                                     target=target, seeded=seeded, pack=pack)


def differentiate_program(parsed, program, choice, *, with_value=False, optimize=True,
                          forward=False, debug=None, target="python", seeded=False,
                          pack=True):
    """The stages after ``lower``, for the parameters ``choice`` names: the sweeps,
    optimized, as a Python tree, and its text."""
    show = debug or _quiet
    names = list(choice.names)
    with stage("differentiate", parsed):
        defuse = DefUse(program)
        if forward:
            generated = differentiate_forward(program, names, defuse=defuse)
        else:
            generated = differentiate(program, names, with_value=with_value,
                                      as_tuple=not choice.single, defuse=defuse,
                                      seeded=seeded, read_again=not pack)
    verify_sweeps(program, generated, "differentiate")
    show("differentiate", generated.function)
    if not forward and not with_value:  # an overflow only the value needs is not raised
        generated = dataclasses.replace(generated, returns_value=False)
    if optimize:
        with stage("optimize", parsed):
            generated = optimize_function(generated, pack=pack and target != "numba")
        verify_sweeps(program, generated, "optimize")
        show("optimize", generated.function)
    with stage("to_python", parsed):
        generated = to_python(generated, target, parsed.filename, program.scalars)
    show("to_python", generated.function)
    with stage("emit", parsed):
        source, module = emit_parsed(generated)
    show("emit", source)
    return Generated(program, generated.function, source, choice, defuse, module)


def _quiet(stage, value):
    pass


@contextlib.contextmanager
def collector_paused():
    """Python's cyclic garbage collector off while a gradient is built, as it was after
    (pauses nest: the innermost leaves it as the outer one found it).

    A build makes hundreds of thousands of small tree nodes that stay alive until it
    ends; each full pass of the collector would scan all of them again, and finds little
    to free (a quarter of the build time at 1,000 statements).  What the build leaves
    unreachable is collected as usual once it is over.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def verify(program, stage_name):
    """With ``SYMDIFF_CHECK_IR=1`` in the environment (the tests set it), ``check_program``
    on what the stage ``stage_name`` produced: a broken invariant is an ``InternalError``
    naming that stage."""
    if os.environ.get("SYMDIFF_CHECK_IR") == "1":
        check_program(program, stage_name)


def verify_sweeps(program, generated, stage_name):
    """``check_sweeps`` on the generated function as IR, as ``verify`` does on a program."""
    if os.environ.get("SYMDIFF_CHECK_IR") == "1":
        check_sweeps(program, generated, stage_name)


class stage:
    """Runs one stage: a user error passes through; any other failure is our bug, raised
    as ``InternalError`` naming the stage; a recursion too deep is the user's expression
    nested beyond what Python's own parser-sized stack reads, and said so."""

    def __init__(self, name, parsed):
        self.name, self.parsed = name, parsed

    def __enter__(self):
        return self

    def __exit__(self, kind, exc, traceback):
        if exc is None or isinstance(exc, (SymdiffError, InternalError)):
            return False
        if isinstance(exc, RecursionError):
            parsed = self.parsed
            raise parsed.error(SymdiffError, deepest_statement(parsed.tree),
                               f"{parsed.name} holds an expression nested too deeply to read",
                               "split it into several assignments") from None
        if isinstance(exc, Exception):
            raise InternalError(self.name, f"{type(exc).__name__}: {exc}") from exc
        return False


__all__ = ["STAGES", "Generated", "collector_paused", "generate", "lower", "parse_function",
           "stage"]
