"""Operands and origins of the normalized program (``symdiff.ir.nodes`` holds the
statements): a name, a constant, and where in the user's source a statement comes from.
Plain frozen data, shared by every pass."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Var:
    name: str


@dataclass(frozen=True)
class Const:
    value: object
    text: str = None  # how the user wrote it, when that reads better (``math.pi``)


@dataclass(frozen=True)
class Origin:
    """Where in the user's source a statement comes from."""

    filename: str
    lineno: int
    col_offset: int
    text: str  # the user's source line, stripped
    function: str  # the user function (the differentiated one or a helper)
    hoisted: bool = False  # moved out of the loops it stands in (``hoist``)
    indent: str = ""  # the whitespace ``text`` was stripped of, before it

    @property
    def line(self):
        """The source line as written, so ``col_offset`` points into it (an error's
        caret)."""
        return self.indent + self.text
