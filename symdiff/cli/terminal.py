"""Terminal: what the ``symdiff`` command writes, and where.

Expects text for the terminal and the streams of the process.  Guarantees that what the
user's code prints while it runs goes to stderr (``output_to_stderr``), so stdout holds
only symdiff's output (``symdiff show --import f.py:f > grad.py``), and that generated
code is coloured only for a terminal, never when ``NO_COLOR`` is set (``use_color``,
``highlight``: ANSI colours for keywords, names defined, numbers, strings, comments).
"""

import builtins
import contextlib
import io
import keyword
import os
import sys
import tokenize


@contextlib.contextmanager
def output_to_stderr():
    """Send what the user's code prints to stderr, so that stdout holds only our output
    (``symdiff show --import f.py:f > grad.py``): Python's prints and, where stdout is a
    real file descriptor, what C code and child processes write to it."""
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        descriptor, target = sys.stdout.fileno(), sys.stderr.fileno()
        saved = os.dup(descriptor)
    except (AttributeError, OSError, ValueError):  # a stream with no descriptor (a test's)
        saved = None
    try:
        if saved is not None:
            os.dup2(target, descriptor)
        with contextlib.redirect_stdout(sys.stderr):
            yield
    finally:
        sys.stderr.flush()
        if saved is not None:
            os.dup2(saved, descriptor)
            os.close(saved)


# --- colours ------------------------------------------------------------------------------

RESET = "\x1b[0m"
COLORS = {"keyword": "\x1b[1;35m", "definition": "\x1b[1;34m", "builtin": "\x1b[36m",
          "number": "\x1b[33m", "string": "\x1b[32m", "comment": "\x1b[90m"}


def use_color(stream):
    """Colours only for a terminal, and never when NO_COLOR is set (https://no-color.org)."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def highlight(text):
    """Python source with ANSI colours for keywords, names defined, numbers, strings, comments."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return text
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    pieces, position, previous = [], 0, None
    for token in tokens:
        kind = _token_kind(token, previous)
        if token.type == tokenize.NAME or token.type == tokenize.OP:
            previous = token
        if kind is None:
            continue
        start = starts[token.start[0] - 1] + token.start[1]
        end = starts[token.end[0] - 1] + token.end[1]
        pieces += [text[position:start], COLORS[kind], text[start:end], RESET]
        position = end
    pieces.append(text[position:])
    return "".join(pieces)


def _token_kind(token, previous):
    if token.type == tokenize.COMMENT:
        return "comment"
    if token.type == tokenize.STRING:
        return "string"
    if token.type == tokenize.NUMBER:
        return "number"
    if token.type != tokenize.NAME:
        return None
    if previous is not None and previous.string in ("def", "class"):
        return "definition"
    if keyword.iskeyword(token.string):
        return "keyword"
    if hasattr(builtins, token.string) and not (previous is not None and previous.string == "."):
        return "builtin"
    return None
