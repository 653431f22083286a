"""Print a generated function as lines of text: statements and blocks by this module,
simple statements and expressions by astor or by the standard library's ``ast.unparse``.

Expects a function tree from ``differentiate`` (possibly optimized), its comments
``syntax.Comment`` statements.  Guarantees:

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
import io
import keyword
import os
import tokenize
import unicodedata
import warnings

from symdiff.backend.syntax import Comment, clone, comment_text
from symdiff.errors import InternalError


class UnprintableStatement(InternalError):
    """A statement of a kind the printer does not write: a bug in generated code, or, for
    a user's own function written into the text (a rule's), a reason to import it instead."""


INDENT = "    "
LIMIT = 79  # columns; a longer simple statement is broken inside brackets
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


def print_function(function, printer):
    """The lines (without newlines) of the ``def`` ``function``, printed with ``printer``."""
    if printer == "astor" and astor_module() is None:
        raise InternalError("emit", "astor does not import cleanly on this Python")
    lines = []
    _Printer(printer, lines).statement(function, 0)
    return lines


def one_line(text):
    """``text`` with every character that could end or hide a line escaped as in ``repr``."""
    return "".join(repr(ch)[1:-1] if unicodedata.category(ch) in _ESCAPED else ch
                   for ch in text)


class _Printer:
    def __init__(self, printer, lines):
        self.printer = printer
        self.lines = lines

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

    def header(self, stmt):
        """``def f(x):``, ``for i in range(n):``, ``if a < b:``: the statement printed with
        ``pass`` for its body, first line."""
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


# --- where the two printers differ --------------------------------------------------------

def minimal_parentheses(text):
    """``text`` (one statement) with every pair of grouping parentheses that its meaning
    does not need taken out: ``return (a, b)``, ``x ** (-y)``, ``a and (not b)`` become
    ``return a, b``, ``x ** -y``, ``a and not b``, as a careful person writes them.

    The printers place parentheses by different rules; kept only where they change the
    tree, they are the same for both.  Each pair goes only if the statement parses to
    the same tree without it.
    """
    if not _may_group(text):
        return text
    tokens = _tokens(text)
    if tokens is None:
        return text
    meaning = None  # the tree the text means: parsed once a pair may go
    start = 0
    while True:
        inside = _in_fstrings(tokens)
        for i in range(start, len(tokens)):
            if i in inside or not _is_grouping(tokens, i):
                continue  # inside an f-string: one token before Python 3.12, many after
            close = _matching(tokens, i)
            shorter = _without(text, tokens[i], tokens[close])
            fewer = _tokens(shorter)
            if meaning is None:
                meaning = _meaning(text)
            if (fewer is not None and [t.string for t in fewer]
                    == [t.string for j, t in enumerate(tokens) if j not in (i, close)]
                    and _meaning(shorter) == meaning):
                text, tokens, start = shorter, fewer, i
                break
        else:
            return text


def _may_group(text):
    """False when no parenthesis of ``text`` can be a grouping one, seen from its
    characters alone: each follows a ``)``, a ``]`` or a name that is not a keyword (a
    call), and no quote hides one in a string.  Most printed statements are such, and
    ``minimal_parentheses`` then has nothing to tokenize."""
    if "'" in text or '"' in text:
        return True
    i = text.find("(")
    while i != -1:
        end = i
        while end and text[end - 1] == " ":
            end -= 1
        if not end:
            return True
        if text[end - 1] not in ")]":
            start = end
            while start and (text[start - 1].isalnum() or text[start - 1] == "_"):
                start -= 1
            word = text[start:end]
            if not word or word[0].isdigit() or (keyword.iskeyword(word) and word not in (
                    "True", "False", "None")):
                return True
        i = text.find("(", i + 1)
    return False


def _in_fstrings(tokens):
    """Indices of the tokens inside f-strings (Python 3.12 on splits them into tokens)."""
    inside, depth = set(), 0
    for i, token in enumerate(tokens):
        name = tokenize.tok_name.get(token.type, "")
        if name == "FSTRING_START":
            depth += 1
        elif name == "FSTRING_END":
            depth -= 1
        elif depth:
            inside.add(i)
    return inside


def _is_fstring(token):
    """An f-string as one token (before Python 3.12) or its start (from 3.12 on)."""
    if tokenize.tok_name.get(token.type, "") == "FSTRING_START":
        return True
    prefix = token.string[:3].lower() if token.type == tokenize.STRING else ""
    return "f" in prefix.split("'")[0].split('"')[0]


def _is_grouping(tokens, i):
    """An opening parenthesis that groups (not one of a call, a def or a class)."""
    if tokens[i].string != "(":
        return False
    if i == 0:
        return True
    before = tokens[i - 1]
    if before.string in (")", "]") or before.type == tokenize.STRING:
        return False  # a call of a call's result, of a subscript, of a string's method
    return not (before.type == tokenize.NAME and (not keyword.iskeyword(before.string)
                                                  or before.string in ("True", "False",
                                                                       "None")))


def _without(text, opening, closing):
    """``text`` without the characters of two one-character tokens, and the space after
    the opening or before the closing one, which no printer writes."""
    a, b = opening.start[1], closing.start[1]
    return text[:a] + text[a + 1:b] + text[b + 1:]


def _meaning(text):
    try:
        return ast.dump(ast.parse(text))
    except SyntaxError:
        return None


# --- breaking long lines --------------------------------------------------------------------

# The operators a line is broken before (after, for a comma), loosest first.
_LOOSENESS = {",": 0, "if": 1, "else": 1, "or": 2, "and": 3,
              "<": 4, ">": 4, "==": 4, ">=": 4, "<=": 4, "!=": 4,
              "|": 5, "^": 6, "&": 7, "<<": 8, ">>": 8, "+": 9, "-": 9,
              "*": 10, "/": 10, "//": 10, "%": 10, "@": 10}
_OPENING, _CLOSING = "([{", ")]}"


def wrap(text, indent, value_start):
    """The lines of the one-line statement ``text`` at ``indent``: itself when it fits,
    else broken inside brackets from the token ``value_start`` (a function of the
    tokens giving the index where the broken part starts) on."""
    if len(indent) + len(text) <= LIMIT or value_start is None:
        return [indent + text]
    tokens = _tokens(text)
    if tokens is None or any(_is_fstring(t) or t.type not in (
            tokenize.NAME, tokenize.NUMBER, tokenize.STRING, tokenize.OP) for t in tokens):
        return [indent + text]  # an f-string is not broken: the same text on every Python
    first, last = value_start(tokens), len(tokens)
    if text.endswith(":"):
        last -= 1  # a header's colon stays after the expression
    if first is None or first >= last:
        return [indent + text]
    items = _tree(tokens[first:last])
    start, end = tokens[first].start[1], tokens[last - 1].end[1]
    lines = [indent + text[:start]]
    if _delimiters(items):
        lines[-1] += "("
        _fill(items, text, len(lines[-1]), lines)
        lines[-1] += ")"
    else:
        _split(items, text, lines)
    lines[-1] += text[end:]
    return lines


def _value_start(stmt):
    """Where the breakable expression of ``stmt`` starts, as a function of its tokens."""
    if isinstance(stmt, (ast.Assign, ast.AugAssign)):
        return lambda tokens: _after_last_top_level(tokens, lambda t: t.string.endswith("="))
    if isinstance(stmt, ast.Return) and stmt.value is not None:
        return lambda tokens: 1
    if isinstance(stmt, ast.Expr):
        return lambda tokens: 0
    if isinstance(stmt, (ast.If, ast.While)):
        return lambda tokens: 1
    return None


def _after_last_top_level(tokens, is_wanted):
    depth, found = 0, None
    for i, token in enumerate(tokens):
        if token.string in _OPENING:
            depth += 1
        elif token.string in _CLOSING:
            depth -= 1
        elif depth == 0 and token.type == tokenize.OP and is_wanted(token) and token.string not in (
                "==", "<=", ">=", "!="):
            found = i + 1
    return found


def _tokens(text):
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None
    return [t for t in tokens if t.type not in (tokenize.NEWLINE, tokenize.NL,
                                                tokenize.ENDMARKER, tokenize.INDENT,
                                                tokenize.DEDENT)]


def _matching(tokens, i):
    depth = 0
    for j in range(i, len(tokens)):
        if tokens[j].string in _OPENING:
            depth += 1
        elif tokens[j].string in _CLOSING:
            depth -= 1
            if depth == 0:
                return j
    raise InternalError("emit", "unbalanced brackets in printed text")


class _Group:
    def __init__(self, opening, items, closing):
        self.opening, self.items, self.closing = opening, items, closing

    @property
    def start(self):
        return self.opening.start[1]

    @property
    def end(self):
        return self.closing.end[1]


def _tree(tokens):
    """Tokens nested by brackets: a list of tokens and ``_Group``s."""
    stack = [[]]
    openings = []
    for token in tokens:
        if token.string in _OPENING:
            openings.append(token)
            stack.append([])
        elif token.string in _CLOSING:
            items = stack.pop()
            stack[-1].append(_Group(openings.pop(), items, token))
        else:
            stack[-1].append(token)
    return stack[0]


def _start(item):
    return item.start if isinstance(item, _Group) else item.start[1]


def _end(item):
    return item.end if isinstance(item, _Group) else item.end[1]


def _delimiters(items):
    """Indices of the loosest operators among ``items`` (one bracket level)."""
    found = []
    for i, item in enumerate(items):
        if isinstance(item, _Group) or item.string not in _LOOSENESS or i == 0:
            continue
        before = items[i - 1]
        if item.string in "+-" and not (isinstance(before, _Group) or before.type in (
                tokenize.NUMBER, tokenize.STRING) or (before.type == tokenize.NAME and (
                not keyword.iskeyword(before.string) or before.string in (
                "True", "False", "None")))):
            continue  # a sign, not a binary operator
        found.append((_LOOSENESS[item.string], i))
    if not found:
        return []
    loosest = min(level for level, _ in found)
    if loosest >= _LOOSENESS["*"] and any(isinstance(item, _Group) and item.items
                                          for item in items):
        return []  # ``a * (b + c)`` breaks inside the brackets, not after ``a``
    return [i for level, i in found if level == loosest]


def _segments(items):
    cuts = _delimiters(items)
    if not cuts:
        return [items]
    comma = items[cuts[0]].string == ","
    bounds = [i + 1 for i in cuts] if comma else cuts
    pieces, previous = [], 0
    for bound in bounds:
        pieces.append(items[previous:bound])
        previous = bound
    pieces.append(items[previous:])
    return [piece for piece in pieces if piece]


def _fill(items, text, align, lines):
    """Write ``items`` (the inside of one bracket pair) after ``lines[-1]``, each
    segment between the loosest operators on the current line while it fits."""
    for k, segment in enumerate(_segments(items)):
        piece = text[_start(segment[0]):_end(segment[-1])]
        gap = "" if k == 0 else " "
        if len(lines[-1]) + len(gap) + len(piece) > LIMIT and k > 0:
            lines.append(" " * align)
            gap = ""
        if len(lines[-1]) + len(gap) + len(piece) <= LIMIT or not any(
                isinstance(item, _Group) and item.items for item in segment):
            lines[-1] += gap + piece
        else:
            lines[-1] += gap
            _split(segment, text, lines)


def _split(segment, text, lines):
    """Write ``segment`` (no loose operator of its own) breaking inside its longest
    bracket pair."""
    groups = [item for item in segment if isinstance(item, _Group) and item.items]
    if not groups:
        lines[-1] += text[_start(segment[0]):_end(segment[-1])]
        return
    longest = max(reversed(groups), key=lambda g: g.end - g.start)
    lines[-1] += text[_start(segment[0]):longest.start + 1]
    _fill(longest.items, text, len(lines[-1]), lines)
    lines[-1] += text[longest.closing.start[1]:_end(segment[-1])]
