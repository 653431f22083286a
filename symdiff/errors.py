"""The one hierarchy of errors symdiff raises.

User errors (a construct we do not support, a name we cannot resolve) carry the
user's real file, line and column, the offending source line and a caret:

    model.py:12:8: a with statement is not supported — move it outside the function
        with open(path) as f:
        ^

``InternalError`` is kept apart: it means symdiff itself is wrong, and names the pass.
"""


class SymdiffError(Exception):
    """Base class of every error symdiff raises about a user's function."""

    def __init__(self, message, *, filename=None, lineno=None, col_offset=None,
                 source_line=None, hint=None):
        self.message = message
        self.filename = filename
        self.lineno = lineno
        self.col_offset = col_offset
        self.source_line = source_line
        self.hint = hint
        super().__init__(self._render())

    def _render(self):
        text = self.message
        if self.hint:
            text = f"{text} — {self.hint}"
        if self.filename is not None and self.lineno is not None:
            col = self.col_offset if self.col_offset is not None else 0
            text = f"{self.filename}:{self.lineno}:{col}: {text}"
        if self.source_line:
            stripped = self.source_line.rstrip("\n")
            text += f"\n    {stripped}"
            if self.col_offset is not None:
                text += "\n    " + " " * self.col_offset + "^"
        return text


class UnsupportedSyntaxError(SymdiffError):
    """A construct outside the language symdiff differentiates."""


class UnknownFunctionError(SymdiffError):
    """A call to a function symdiff has no derivative for and cannot read."""


class UndefinedNameError(SymdiffError):
    """A name that is neither a parameter, a local, a global nor a builtin."""


class SourceUnavailableError(SymdiffError):
    """The function's source text cannot be read (builtins, lambdas, C code)."""


class SourceChangedError(SourceUnavailableError):
    """The source file no longer holds the code that runs (edited after import)."""


class DecoratorError(SymdiffError):
    """A decorated function whose wrapper symdiff cannot read through."""


class RecursionCycleError(SymdiffError):
    """User functions that call each other in a cycle."""


class InternalError(Exception):
    """A bug in symdiff itself, never the user's fault: not a ``SymdiffError``, so
    ``except SymdiffError`` never swallows one.  Names the pass it happened in."""

    def __init__(self, pass_name, message):
        self.pass_name = pass_name
        self.message = f"this is a bug in symdiff (pass {pass_name}): {message}"
        super().__init__(self.message)
