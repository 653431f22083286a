"""The tokens of one printed statement, and where its brackets and f-strings are: what
the parenthesis and line-breaking rules read."""

import io
import tokenize

from symdiff.errors import InternalError

OPENING, CLOSING = "([{", ")]}"


def in_fstrings(tokens):
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


def is_fstring(token):
    """An f-string as one token (before Python 3.12) or its start (from 3.12 on)."""
    if tokenize.tok_name.get(token.type, "") == "FSTRING_START":
        return True
    prefix = token.string[:3].lower() if token.type == tokenize.STRING else ""
    return "f" in prefix.split("'")[0].split('"')[0]


def tokens_of(text):
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None
    return [t for t in tokens if t.type not in (tokenize.NEWLINE, tokenize.NL,
                                                tokenize.ENDMARKER, tokenize.INDENT,
                                                tokenize.DEDENT)]


def matching(tokens, i):
    depth = 0
    for j in range(i, len(tokens)):
        if tokens[j].string in OPENING:
            depth += 1
        elif tokens[j].string in CLOSING:
            depth -= 1
            if depth == 0:
                return j
    raise InternalError("emit", "unbalanced brackets in printed text")
