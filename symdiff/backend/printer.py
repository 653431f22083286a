"""Print a generated function as lines of text: statements and blocks by this module,
simple statements and expressions by ``backend.direct`` (straight from the tree), and
those it does not read by astor or by the standard library's ``ast.unparse``.

Expects a function tree from ``differentiate`` (possibly optimized), its comments
``ir.syntax.Comment`` statements.  Guarantees:

- A comment is written as one ``# ...`` line straight from its text, with every line
  break, control and format character escaped (``\\n``, ``\\u2028``): no text of the
  user's becomes code, and nothing is ever recovered from printed text by a pattern.
- The same lines from either printer (``"astor"``, ``"unparse"``).  Where the two spell
  something differently, the spelling is normalized here: strings by ``repr`` (one
  line, always), and parentheses only where the tree needs them (``return a, b``,
  ``x ** -y``, ``a and not b``), each one taken out only if the statement then parses
  to the same tree.
- A simple statement (or ``if``/``while`` header) longer than 79 columns is broken only
  inside brackets, where a line break changes nothing: at the operators of its
  outermost level, continuation lines aligned after the opening bracket.

    def grad_f(x):                                  def grad_f(x):
        Comment('line 3: y = x * x')       ──►          # line 3: y = x * x
        dx = 2.0 * x                                    dx = 2.0 * x
        return dx                                       return dx

``emit`` proves the result parses back to the tree; this module only writes it.
"""

import ast
import copy
import os
import unicodedata
import warnings

from symdiff.backend import direct
from symdiff.backend.linebreaks import after_last_top_level, wrap
from symdiff.backend.parentheses import minimal_parentheses
from symdiff.errors import InternalError
from symdiff.ir.syntax import Comment, clone, comment_text


class UnprintableStatement(InternalError):
    """A statement of a kind the printer does not write: a bug in generated code, or, for
    a user's own function written into the text (a rule's), a reason to import it instead."""


INDENT = "    "
PRINTERS = ("astor", "unparse")
_ESCAPED = {"Cc", "Cf", "Cs", "Zl", "Zp"}  # control, format, surrogate, line/paragraph separators


def default_printer():
    """``"astor"`` where it imports without an error or a warning, else ``"unparse"``;
    ``SYMDIFF_PRINTER`` in the environment forces one."""
    forced = os.environ.get("SYMDIFF_PRINTER")
    if forced:
        if forced not in PRINTERS:
            raise ValueError(f"SYMDIFF_PRINTER={forced!r}: use one of {', '.join(PRINTERS)}")
        return forced
    return "astor" if astor_module() is not None else "unparse"


_ASTOR = []  # [module or None], once the import has been tried


def astor_module():
    """astor, or None where it does not import cleanly (Python 3.13 warns that the
    ``ast.Num`` it reads is deprecated; Python 3.14 removed it)."""
    if not _ASTOR:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                import astor
            except Exception:  # ImportError, or AttributeError for the classes 3.14 removed
                astor = None
        _ASTOR.append(None if caught else astor)
    return _ASTOR[0]


def print_function(function, printer, direct_first=True):
    """The lines (without newlines) of the ``def`` ``function``, printed with ``printer``;
    with ``direct_first``, each statement ``backend.direct`` writes is written by it (the
    same text, without printing and re-parsing), the others by ``printer``."""
    if printer == "astor" and astor_module() is None:
        raise InternalError("emit", "astor does not import cleanly on this Python")
    lines = []
    _Printer(printer, lines, direct_first).statement(function, 0)
    return lines


def one_line(text):
    """``text`` with every character that could end or hide a line escaped as in ``repr``."""
    if text.isascii() and text.isprintable():  # from space to ``~``: none of those
        return text
    return "".join(repr(ch)[1:-1] if unicodedata.category(ch) in _ESCAPED else ch
                   for ch in text)


class _Printer:
    def __init__(self, printer, lines, direct_first=True):
        self.printer = printer
        self.lines = lines
        self.direct_first = direct_first

    # --- statements and blocks -----------------------------------------------------------

    def block(self, stmts, depth):
        for stmt in stmts:
            self.statement(stmt, depth)
        if all(isinstance(stmt, Comment) for stmt in stmts):
            self.lines.append(INDENT * depth + "pass")

    def statement(self, stmt, depth):
        indent = INDENT * depth
        if isinstance(stmt, Comment):
            self.lines.append(f"{indent}# {one_line(comment_text(stmt))}")
        elif isinstance(stmt, (ast.FunctionDef, ast.For, ast.While)):
            self.compound(stmt, self.header(stmt), depth)
        elif isinstance(stmt, ast.If):
            self.if_chain(stmt, "if", depth)
        elif isinstance(stmt, ast.Try):
            self.try_statement(stmt, depth)
        elif isinstance(stmt, (ast.Assign, ast.AugAssign, ast.Return, ast.Expr, ast.Pass,
                               ast.Break, ast.Continue, ast.Raise, ast.Assert)):
            self.lines += wrap(self.simple(stmt), indent, _value_start(stmt))
        else:
            raise UnprintableStatement("emit", f"no printer for a {type(stmt).__name__} "
                                       "statement")

    def compound(self, stmt, header, depth):
        self.lines += wrap(header, INDENT * depth, _value_start(stmt))
        self.block(stmt.body, depth + 1)
        if getattr(stmt, "orelse", None):
            self.lines.append(INDENT * depth + "else:")
            self.block(stmt.orelse, depth + 1)

    def if_chain(self, stmt, keyword_, depth):
        header = keyword_ + self.header(stmt)[2:]
        self.lines += wrap(header, INDENT * depth, _value_start(stmt))
        self.block(stmt.body, depth + 1)
        if len(stmt.orelse) == 1 and isinstance(stmt.orelse[0], ast.If):
            self.if_chain(stmt.orelse[0], "elif", depth)
        elif stmt.orelse:
            self.lines.append(INDENT * depth + "else:")
            self.block(stmt.orelse, depth + 1)

    def try_statement(self, stmt, depth):
        """``try:``, its body, then each ``except`` clause (a class and an ``as`` name:
        generated code writes no other) and its body."""
        self.lines.append(INDENT * depth + "try:")
        self.block(stmt.body, depth + 1)
        for handler in stmt.handlers:
            classes = self.simple(ast.Expr(handler.type))
            if isinstance(handler.type, ast.Tuple) and not classes.startswith("("):
                classes = f"({classes})"
            named = f" as {handler.name}" if handler.name else ""
            self.lines.append(f"{INDENT * depth}except {classes}{named}:")
            self.block(handler.body, depth + 1)

    def header(self, stmt):
        """``def f(x):``, ``for i in range(n):``, ``if a < b:``: the statement printed with
        ``pass`` for its body, first line."""
        if self.direct_first:
            text = direct.header_text(stmt)
            if text is not None:
                return text
        bare = copy.copy(stmt)  # a new node sharing the fields: printing changes nothing
        bare.body = [ast.Pass()]
        if hasattr(bare, "orelse"):
            bare.orelse = []
        lines = [line for line in self.print(bare).splitlines() if line.strip()]
        if len(lines) != 2 or lines[1].strip() != "pass":
            raise InternalError("emit", f"a {type(stmt).__name__} header printed as {lines!r}")
        if isinstance(stmt, ast.FunctionDef):
            return lines[0]
        return minimal_parentheses(lines[0] + " pass")[:-len(" pass")]

    def simple(self, stmt):
        if self.direct_first:
            text = direct.statement_text(stmt)
            if text is not None:
                return text
        text = self.print(stmt)
        if "\n" in text.strip("\n"):
            raise InternalError("emit", f"a {type(stmt).__name__} printed on several lines")
        return minimal_parentheses(text.strip("\n"))

    # --- the printers ----------------------------------------------------------------------

    def print(self, node):
        """``node`` printed by the chosen printer, strings by ``repr``."""
        if self.printer == "astor":
            return astor_module().to_source(node, indent_with=INDENT,
                                            pretty_string=_repr_string,
                                            pretty_source="".join)
        return ast.unparse(ast.fix_missing_locations(clone(node)))


def _repr_string(s, *args, **kwargs):
    return repr(s)


def _value_start(stmt):
    """Where the breakable expression of ``stmt`` starts, as a function of its tokens."""
    if isinstance(stmt, (ast.Assign, ast.AugAssign)):
        return lambda tokens: after_last_top_level(tokens, lambda t: t.string.endswith("="))
    if isinstance(stmt, ast.Return) and stmt.value is not None:
        return lambda tokens: 1
    if isinstance(stmt, ast.Expr):
        return lambda tokens: 0
    if isinstance(stmt, (ast.If, ast.While)):
        return lambda tokens: 1
    return None


