"""Context: what one run of the optimizer knows, and the facts it remembers.

Expects the function a run rewrites (``ir.sweeps``, typed by ``analysis.sweep_types``)
and what its module binds.  Guarantees one object per ``optimize_function`` call, made
by ``Context.of``, that every pass takes: the name generated code calls ``math`` by,
the names' types (``function.types``, read live: a pass that adds a name gives it a
type there), which calls are pure (``effects.Calls``), the kinds of the program's
containers and which names are their adjoints, whether the function returns its value
(then an ``OverflowError`` computing it is raised, as the function raises it), and
``remember``: a fact about an
expression computed once per expression object in this run (expressions are frozen, so
a fact about one is a function of it and of this context).  ``analysis``: a fact about
the whole function (how often each name is assigned, say), computed once while the
driver runs the passes and dropped as soon as one reports a change (``forget``), so
a pass that changed nothing leaves the next one what it found.  Nothing is kept between
two runs: two builds never share a table.

    context = Context.of(function, "math")
    context.remember("quiet", expr, lambda e: ...)   # computed once for this expr
    context.analysis(assignment_counts, function)     # once until a pass changes it
"""

from dataclasses import dataclass, field

from symdiff.analysis.sweep_types import Module
from symdiff.optimize.effects import Calls


@dataclass
class Context:
    function: object
    math_name: str = "math"
    calls: Calls = None
    containers: dict = field(default_factory=dict)  # the program's containers -> kinds
    of_adjoints: frozenset = frozenset()  # the adjoints of containers: floats everywhere
    module: Module = field(default_factory=Module)  # the names of math, numpy, the helpers
    constants: dict = field(default_factory=dict)  # the ints the module binds -> values
    tables: dict = field(default_factory=dict)  # what ``remember`` keeps, by fact
    returns_value: bool = True  # the function's value is returned: its overflow is raised
    analyses: dict = None  # while the driver runs: each analysis of the function found

    @classmethod
    def of(cls, function, math_name="math", generated=None):
        """The context of one run over ``function`` (``generated``: the ``Generated``
        it belongs to, for its module's names and its containers)."""
        if generated is None:
            return cls(function, math_name, Calls(math_name), module=Module(math_name))
        containers = dict(getattr(generated, "containers", {}))
        adjoints = getattr(generated, "adjoints", {})
        constants = {name: value for name, value in generated.namespace.items()
                     if type(value) is int}
        return cls(function, math_name, Calls.of(generated), containers,
                   frozenset(adjoints[n] for n in containers if n in adjoints),
                   Module.of(generated), constants,
                   returns_value=getattr(generated, "returns_value", True))

    @property
    def types(self):
        return self.function.types or {}

    def type_of(self, name):
        return self.types.get(name)

    def table(self, fact):
        """The table ``remember`` keeps ``fact`` in: expression id -> (it, the fact)."""
        table = self.tables.get(fact)
        if table is None:
            table = self.tables[fact] = {}
        return table

    def remember(self, fact, expr, compute):
        """``compute(expr)``, once per expression object in this run: the entry keeps
        the object, so no other expression takes its place while the run lasts."""
        table = self.tables.get(fact)
        if table is None:
            table = self.tables[fact] = {}
        hit = table.get(id(expr))
        if hit is not None and hit[0] is expr:
            return hit[1]
        value = compute(expr)
        table[id(expr)] = (expr, value)
        return value

    def analysis(self, compute, function):
        """``compute(function, self)``: kept while the driver runs the passes over this
        context's function, until one reports a change (outside the driver, or of another
        function, computed afresh each time).  The caller must not change what it gets."""
        analyses = self.analyses
        if analyses is None or function is not self.function:
            return compute(function, self)
        found = analyses.get(compute)
        if found is None:
            found = analyses[compute] = compute(function, self)
        return found

    def forget(self):
        """Drop every analysis kept: a pass changed the function."""
        if self.analyses:
            self.analyses.clear()
