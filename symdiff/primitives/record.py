"""The record of one primitive: everything symdiff states about it, in one place.

Expects nothing.  Guarantees a frozen ``Primitive`` per primitive, built by the
constructors below from the tables of ``scalar`` and ``scipy``; ``registry`` answers
every question the passes ask of them.  A record holds:

- how it computes (``forward``, a Python expression over ``params`` and, in partials,
  the primal output ``out``) and its derivative: one elementwise partial per argument
  (``None``: it does not depend on that argument), from which its per-argument VJP and
  JVP builders (``vjps``, ``jvps``: see ``derivatives``) are derived, or, for a
  primitive that is not elementwise (``sum``, ``getitem``, ``matmul``, ``where``), its
  own builders in ``vjp`` and ``jvp``;
- the names a user reaches it by (``math``, ``numpy``, ``builtin``, ``scipy`` names,
  a ``method`` of SciPy's ``norm``, or the Python ``operator`` its forward is), what it
  computes differently under one family's names (``overrides``, see ``Spelling``), and
  the calls that pick another primitive by their argument count (``variants``);
- its type rule (``typed``: the result type and whether the call may raise, from the
  arguments' types; the record states ``result``, a rule of ``type_rules``, and ``total``,
  that it never raises on numbers) and its properties: ``cheap`` (one arithmetic step: recomputed rather than saved, hoisted out of
  loops), ``foldable`` (the optimizer computes it on constants);
- the ``domain`` its tests sample, its convention ``note`` at the points where the
  derivative is not defined, and its ``bridge``: the expression over ``params`` that
  computes it on the tape engine's ``Value``s (names ``tape``, ``math`` and ``Value``).

    sin = unary("sin", "math.sin(x)", "math.cos(x)", math=("sin",), numpy=("sin",))
"""

from dataclasses import dataclass, replace

from symdiff.primitives import type_rules
from symdiff.primitives.derivatives import from_partials
from symdiff.primitives.texts import numpy_text

@dataclass(frozen=True)
class Spelling:
    """What a primitive computes differently under one family's names (None: as the rule)."""

    forward: str = None
    partials: tuple = None
    result: object = None  # its result rule there, where it differs (``math.pow``: floats)


@dataclass(frozen=True)
class Primitive:
    name: str
    forward: str
    partials: tuple
    domain: tuple = ((-3.0, 3.0),)
    note: str = ""
    params: tuple = ("x", "y")  # the names standing for the arguments in the texts
    defaults: tuple = ()  # values of the last parameters when a call leaves them out
    ints: tuple = ()  # the parameters that take integers (never differentiated)
    underived: tuple = ()  # parameters whose derivative is not known (``zeta``'s ``s``):
    # a call where one carries a derivative is refused (``analysis.activity``)
    overrides: tuple = ()  # (family, Spelling): "math", "numpy" or "arrays", where it differs
    vjp: tuple = None  # for a primitive that is not elementwise: a VJP builder per argument
    jvp: tuple = None  # ... and a JVP builder per argument (None: from ``partials``)
    math: tuple = ()  # ``math.<name>`` for each name
    numpy: tuple = ()  # ``numpy.<name>``
    builtin: tuple = ()  # a builtin's name
    scipy: tuple = ()  # ``scipy.special.<name>``
    method: tuple = ()  # ``scipy.stats.norm.<name>``
    operator: str = None  # the operator its forward is (``+``)
    variants: tuple = ()  # (argument count, primitive): ``math.log(x, b)`` is ``logb``
    chain: bool = False  # more arguments than params: a left fold (``max(a, b, c)``)
    pair: tuple = None  # (function, index): one half of a function returning two numbers
    result: object = type_rules.floats  # the result rule (``type_rules``): argument types -> type
    total: bool = False  # never raises on numbers
    cheap: bool = False
    foldable: bool = False
    bridge: str = None  # how the tape computes it, on Values
    arithmetic: bool = False  # computed by its operands' own operators (numpy's, on numpy's)
    internal: bool = False  # no name of its own: lowering makes it (``copy``)
    array_result: object = None  # an array operation's type rule: (types, consts) -> type
    array_vjp: object = None  # ... its VJP builders: (argument types, result type) -> tuple
    array_jvp: object = None  # ... and its JVP builders, the same way
    broadcasting: bool = False  # an array operation that broadcasts its operands (``where``)
    writes: bool = False  # ``x[i] = v``: its value is ``x`` written at ``i`` (``indexing``)
    scatters: bool = False  # its VJP adds ``g`` at an index of ``x``'s adjoint (``Scattered``)
    effectful: bool = False  # a draw: changes a generator's state (``random``)
    by_position: int = None  # an array operation's parameters a call may give by position
    keywords: tuple = ()  # (keyword, parameter): NumPy's names of its parameters (``a_min``)
    optional: tuple = ()  # ... and the names by which one may be left out, standing for None
    # (``min``, ``max``: the method's, and the function's since NumPy 2.1, not mixed with those)
    without: tuple = ()  # (parameter, op): the record a call computes where that parameter
    # is None or left out, of the others in order (``np.clip(x, None, hi)``: ``minimum``)

    @property
    def arity(self):
        return len(self.params)

    def typed(self, args, consts=(), by=None, certain=False):
        """The type rule: a ``type_rules.Typed`` (the result type, whether the call may
        raise) for arguments of types ``args``, ``consts`` the constants among them, called
        by the names of ``by`` ("math", "numpy", or None); with ``certain``, the type every
        value has (``type_rules.typed``)."""
        return type_rules.typed(self, args, consts, by, certain)

    @property
    def vjps(self):
        """The VJP builder of each argument (None: its contribution is zero)."""
        return self.vjp if self.vjp is not None else from_partials(self.partials, self.params)

    @property
    def jvps(self):
        """The JVP builder of each argument (None: its contribution is zero)."""
        return self.jvp if self.jvp is not None else from_partials(self.partials, self.params)

    def spelled(self, family):
        """The primitive as the family ``family`` computes it: "math", "numpy", or None for
        Python's operators and builtins; "arrays" is "numpy" on array operands, with the
        partials a record states for arrays alone (``abs``: ``numpy.sign(x)``, one pass
        and the array's dtype, where the scalar text is two tests and two selections)."""
        if family is None:
            return self
        if family == "arrays":
            on_arrays = dict(self.overrides).get("arrays", Spelling())
            rule = self.spelled("numpy")
            return rule if on_arrays.partials is None else replace(rule, partials=tuple(
                None if p is None else numpy_text(p) for p in on_arrays.partials))
        override = dict(self.overrides).get(family, Spelling())
        rule = replace(self, forward=override.forward or self.forward,
                       partials=override.partials or self.partials,
                       result=override.result or self.result, overrides=())
        if family == "numpy":
            rule = replace(rule, partials=tuple(None if p is None else numpy_text(p)
                                                for p in rule.partials))
        return rule


def primitive(name, forward, partials, domain=None, note="", params=("x", "y"), **facts):
    """A record; its domain defaults to (-3, 3) per argument and its bridge to the tape's
    function of the same name."""
    params = params[:len(partials)]
    if domain is None:
        domain = ((-3.0, 3.0),) * len(params)
    facts.setdefault("bridge", f"tape.{name}({', '.join(params)})")
    return Primitive(name, forward, tuple(partials), tuple(domain), note, tuple(params),
                     **facts)


def unary(name, forward, partial, domain=(-3.0, 3.0), note="", **facts):
    return primitive(name, forward, (partial,), (domain,), note, params=("x",), **facts)


def table(*records):
    """The records by name, in order (a name given twice is a mistake)."""
    found = {}
    for record in records:
        if record.name in found:
            raise ValueError(f"primitive {record.name!r} is stated twice")
        found[record.name] = record
    return found


