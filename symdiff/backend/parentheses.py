"""Parentheses only where the tree needs them: astor and ast.unparse place them by
different rules, and kept only where they change the tree they are the same for both.

    return (a, b)        ──►   return a, b
    x ** (-y)                  x ** -y
"""

import ast
import keyword
import tokenize

from symdiff.backend.tokens import in_fstrings, matching, tokens_of


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
    tokens = tokens_of(text)
    if tokens is None:
        return text
    meaning = None  # the tree the text means: parsed once a pair may go
    start = 0
    while True:
        inside = in_fstrings(tokens)
        for i in range(start, len(tokens)):
            if i in inside or not _is_grouping(tokens, i):
                continue  # inside an f-string: one token before Python 3.12, many after
            close = matching(tokens, i)
            shorter = _without(text, tokens[i], tokens[close])
            fewer = tokens_of(shorter)
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
