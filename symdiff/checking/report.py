"""Report: what ``check`` found, as data and as a table.

Expects the rows, divergences, wrong rules and notes ``symdiff.checking.compare`` builds.
Guarantees a ``CheckReport`` whose ``ok`` says whether every row agrees and every rule
given is right, whose ``str`` is the table (``check f: ok``, one row per point and
parameter, then the divergences, wrong rules and notes), and whose ``_repr_html_`` is
the same table for Jupyter, failing rows marked.  Numbers are printed with ten
significant digits; a container or table argument of a point by how many numbers it
holds (``[3 numbers]``, ``{2 numbers}`` for a dict, ``Params(2 numbers)`` for an
object; ``<float64 array 3x2>`` for an array of two or more axes); a row's ``param`` is the path of
the number it checks (``x``, ``xs[2]``, ``p["w"]``).
"""

import numbers
from dataclasses import dataclass, field

from symdiff.checking.leaves import is_object, leaves, number_leaf


@dataclass
class Row:
    point: tuple
    param: str
    generated: float
    tape: float
    sympy: object  # float, or None when sympy could not be used
    finite_difference: float
    status: str  # "ok", or what disagrees
    sympy_status: str = "ok"  # or "not used", "timed out"

    @property
    def witnesses(self):
        """The witnesses that gave this row a number to compare the generated one with,
        of ``("tape", "sympy", "finite differences")``."""
        given = (("tape", self.tape), ("sympy", self.sympy),
                 ("finite differences", self.finite_difference))
        return tuple(name for name, value in given if isinstance(value, numbers.Real) and (
            value == value))  # nan: no estimate


@dataclass
class Divergence:
    filename: str
    lineno: int
    text: str
    function: str
    argument: str
    generated: float
    tape: float  # what the witness gives
    point: tuple
    witness: str = "tape"  # or "finite differences", where the tape takes no arrays

    def __str__(self):
        where = f"{self.filename}:{self.lineno}"
        inside = "" if not self.function else f" (in {self.function})"
        at = _fmt_point(self.point) if _holds_array(self.point) else self.point
        return (f"{where}{inside}: `{self.text}` — the derivative through {self.argument} "
                f"differs: generated {self.generated!r}, {self.witness} {self.tape!r} "
                f"at {at}")


@dataclass
class RuleProblem:
    function: str
    argument: str
    rule: float
    finite_difference: float
    point: tuple

    def __str__(self):
        at = _fmt_point(self.point) if _holds_array(self.point) else self.point
        return (f"the rule given for {self.function} is wrong by {self.argument} at "
                f"{at}: rule {self.rule!r}, finite differences {self.finite_difference!r}")


class Raised:
    """What a witness gave where it raised: shown as ``raises ValueError``."""

    def __init__(self, kind):
        self.kind = kind

    def __str__(self):
        return f"raises {self.kind.__name__}"

    def __repr__(self):
        return f"Raised({self.kind.__name__})"


class NotAvailable:
    """A witness's cell where it cannot run on arrays: shown as ``n/a (arrays)``."""

    def __str__(self):
        return "n/a (arrays)"

    def __repr__(self):
        return "NotAvailable()"


NOT_AVAILABLE = NotAvailable()


@dataclass
class CheckReport:
    function: str
    params: list
    rows: list = field(default_factory=list)
    divergences: list = field(default_factory=list)
    rule_problems: list = field(default_factory=list)
    notes: list = field(default_factory=list)

    @property
    def ok(self):
        return all(row.status.startswith("ok") for row in self.rows) and not self.rule_problems

    def __bool__(self):
        return self.ok

    def __str__(self):
        head = ("point", "wrt", "generated", "tape", "sympy", "finite diff", "status")
        body = [row_cells(r) for r in self.rows]
        widths = [max(len(str(line[i])) for line in [head] + body) for i in range(len(head))]
        lines = [f"check {self.function}: {'ok' if self.ok else 'FAILED'}",
                 "  ".join(h.ljust(w) for h, w in zip(head, widths)),
                 "  ".join("-" * w for w in widths)]
        lines += ["  ".join(str(c).ljust(w) for c, w in zip(line, widths)) for line in body]
        lines += [f"diverges: {d}" for d in self.divergences]
        lines += [f"wrong rule: {p}" for p in self.rule_problems]
        lines += [f"note: {n}" for n in self.notes]
        return "\n".join(lines)

    def note(self, text):
        """Add ``text`` to the notes, once."""
        if text not in self.notes:
            self.notes.append(text)

    def _repr_html_(self):
        """Jupyter's view: the table in HTML, failing rows marked."""
        from symdiff.backend.display import report_html
        return report_html(self, row_cells)

    def _repr_pretty_(self, printer, cycle):
        """IPython's plain-text view: the printed table."""
        printer.text(str(self))


def row_cells(r):
    """The cells of one row of the table, as printed."""
    return (_fmt_point(r.point), r.param, _fmt(r.generated), _fmt(r.tape),
            r.sympy_status if r.sympy_status == "timed out" else _fmt(r.sympy),
            _fmt(r.finite_difference), r.status)


def _fmt(value):
    if value is None:
        return "n/a"
    return f"{value:.10g}" if isinstance(value, float) else str(value)


def _fmt_point(point):
    return "(" + ", ".join(_fmt_argument(v) for v in point) + ")"


def _fmt_argument(value):
    if isinstance(value, numbers.Real):
        return f"{value:.4g}"
    if is_object(value):  # its class and size say enough in a table row
        count = sum(getattr(leaf, "size", 1) for _, leaf in leaves(value) if number_leaf(
            leaf) or hasattr(leaf, "dtype"))
        return f"{type(value).__name__}({count} number{'s' * (count != 1)})"
    if isinstance(value, (tuple, list, dict)):  # its size says enough in a table row
        count = sum(getattr(leaf, "size", 1) for _, leaf in leaves(value))
        words = f"{count} number{'s' * (count != 1)}"
        return f"{{{words}}}" if isinstance(value, dict) else f"[{words}]"
    if getattr(value, "ndim", None) == 1:
        return f"[{len(value)} numbers]"
    if getattr(value, "ndim", None) is not None and getattr(value, "shape", None):
        return f"<{value.dtype} array {'x'.join(map(str, value.shape))}>"
    if hasattr(value, "bit_generator"):  # a random generator: its kind, not its address
        return f"<{type(value).__name__}({type(value.bit_generator).__name__})>"
    return repr(value)


def _holds_array(point):
    """Whether an argument of ``point`` is, or a container of it holds, a NumPy array."""
    return any(getattr(leaf, "ndim", 0) for value in point for _, leaf in leaves(value))
