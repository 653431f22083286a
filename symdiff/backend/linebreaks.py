"""Breaking a statement longer than the limit: only inside brackets, where a line break
changes nothing, before the loosest operators of the outermost level, continuation
lines aligned after the opening bracket.

    dx = g * (a_long_name + another_long_name)   ──►   dx = g * (a_long_name
                                                                 + another_long_name)
"""

import keyword
import tokenize

from symdiff.backend.tokens import CLOSING, OPENING, is_fstring, tokens_of

LIMIT = 79  # columns; a longer simple statement is broken inside brackets
# The operators a line is broken before (after, for a comma), loosest first.
_LOOSENESS = {",": 0, "if": 1, "else": 1, "or": 2, "and": 3,
              "<": 4, ">": 4, "==": 4, ">=": 4, "<=": 4, "!=": 4,
              "|": 5, "^": 6, "&": 7, "<<": 8, ">>": 8, "+": 9, "-": 9,
              "*": 10, "/": 10, "//": 10, "%": 10, "@": 10}


def wrap(text, indent, value_start):
    """The lines of the one-line statement ``text`` at ``indent``: itself when it fits,
    else broken inside brackets from the token ``value_start`` (a function of the
    tokens giving the index where the broken part starts) on."""
    if len(indent) + len(text) <= LIMIT or value_start is None:
        return [indent + text]
    tokens = tokens_of(text)
    if tokens is None or any(is_fstring(t) or t.type not in (
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


def after_last_top_level(tokens, is_wanted):
    depth, found = 0, None
    for i, token in enumerate(tokens):
        if token.string in OPENING:
            depth += 1
        elif token.string in CLOSING:
            depth -= 1
        elif depth == 0 and token.type == tokenize.OP and is_wanted(token) and token.string not in (
                "==", "<=", ">=", "!="):
            found = i + 1
    return found


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
        if token.string in OPENING:
            openings.append(token)
            stack.append([])
        elif token.string in CLOSING:
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
