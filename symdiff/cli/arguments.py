"""Arguments: the ``symdiff`` command line's parser and the values its options take.

Expects ``sys.argv[1:]``.  Guarantees a parser whose subcommands are ``show``, ``check`` and
``graph`` (``args.command``), each with the common options (the target ``FILE.py:FUNC``,
``--wrt``, ``--import``, ``--debug``), and the converters of option values: ``--at``'s
points, ``--sympy-timeout``'s seconds, ``--points``' count and ``--wrt``'s names and
indices (given to ``symdiff.frontend.wrt`` as a ``wrt`` written in Python would be);
``--at`` reads Python literals (``symdiff.cli.points``).  A
value that cannot be read is argparse's usage error (exit status 2).
"""

import argparse
import re

from symdiff import __version__
from symdiff.checking.compare import SYMPY_TIMEOUT
from symdiff.cli import points

EXAMPLES = """\
examples:
  symdiff show examples/model.py:neuron                  the generated gradient module
  symdiff show examples/model.py:neuron --wrt w,b        only d/dw and d/db
  symdiff check examples/model.py:power --at 1.5,3 --wrt x
                                                         check d/dx at x=1.5, n=3
  symdiff graph examples/model.py:neuron -o graph.svg    draw it (SVG needs Graphviz)

The file is read, never run: symdiff loads its def functions, its numeric constants
and its imports of math, numpy and symdiff without executing anything else.  Pass
--import to import the module (running its top-level code) instead.
"""

SHOW_EXAMPLES = """\
examples:
  symdiff show examples/model.py:neuron
  symdiff show examples/model.py:neuron --wrt x --raw
  symdiff show examples/model.py:neuron > grad_neuron.py
  symdiff show model.py:rosenbrock --at '[1.0, 2.0, 3.0]'   for a list argument

Colours are used when the output is a terminal and NO_COLOR is not set.
"""

CHECK_EXAMPLES = """\
examples:
  symdiff check examples/model.py:neuron                   five random points
  symdiff check examples/model.py:neuron --points 20       twenty random points
  symdiff check examples/model.py:power --at 1.5,3 --at 0.5,2 --wrt x
  symdiff check model.py:loss --at '[1.0, 2.0, 3.0], 0.5'  a list, then a number
  symdiff check model.py:loss --at 'xs=[1.0, 2.0], p={"w": 0.5}'   by name

Each point gives every parameter a value, in order or by name: numbers, or Python
literals (tuples, lists, dicts of numbers) for containers; each number of a container
is a row of the table, named by its path (xs[2], p["w"]).  The exit status is 0 when the
generated gradient agrees with the tape engine, sympy and finite differences, 1 when
it does not, and 2 on an error.
"""

GRAPH_EXAMPLES = """\
examples:
  symdiff graph examples/model.py:neuron > neuron.dot
  symdiff graph examples/model.py:neuron -o neuron.svg
  symdiff graph examples/model.py:power --wrt x --format png -o power.png

Nodes are the forward operations, labelled with the operation and the source line;
the adjoints of the active names are drawn dashed in red.  SVG and PNG are rendered
by Graphviz's `dot`, which must be on PATH; the format defaults to the suffix of -o.
"""


class CommandError(Exception):
    """A problem with the command line or its files: one line on stderr, exit status 2."""


VALUE_OPTIONS = ("--at", "--wrt")  # their values may start with "-": --at -2,3, --wrt -1
NUMBERS = re.compile(r"\s*-[\d.]|\s*-(inf|nan)\b", re.IGNORECASE)


def attach_values(argv):
    """``--at -2,3`` -> ``--at=-2,3``: argparse would take ``-2,3`` for an option."""
    out, i = [], 0
    while i < len(argv):
        if argv[i] in VALUE_OPTIONS and i + 1 < len(argv) and NUMBERS.match(argv[i + 1]):
            out.append(f"{argv[i]}={argv[i + 1]}")
            i += 2
        else:
            out.append(argv[i])
            i += 1
    return out


def point(text):
    """``"1.5,3"`` -> ``(1.5, 3)``: whole numbers stay ints, for ``range``; Python literals
    for containers, positional or named (``"[1.0, 2.0], 3"``, ``"xs=[1.0, 2.0], y=3"``;
    see ``symdiff.cli.points``)."""
    try:
        return points.read(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a point ({exc}): give Python literals separated by commas, "
            "like 1.0,2.5 or '[1.0, 2.0], 3' or 'xs=[1.0, 2.0], y=3'") from None


def seconds(text):
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds")
    return value


def positive_int(text):
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive whole number")
    return value


def build_parser():
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("target", metavar="FILE.py:FUNC",
                        help="the file and the name of a top-level def function in it")
    common.add_argument("--wrt", metavar="NAMES",
                        help="comma-separated parameters (names or indices) to differentiate "
                             "by; default: every parameter but those defaulting to None "
                             "(check: those a derivative can flow from)")
    common.add_argument("--import", dest="import_module", action="store_true",
                        help="import the module, running its top-level code, and use the real "
                             "function (by default the file is only read)")
    common.add_argument("--debug", action="store_true",
                        help="print each pipeline stage's result to stderr, and the Python "
                             "traceback of an error")

    parser = argparse.ArgumentParser(
        prog="symdiff", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Source-to-source reverse-mode differentiation of plain Python functions.",
        epilog=EXAMPLES)
    parser.add_argument("--version", action="version", version=f"symdiff {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    show = commands.add_parser(
        "show", parents=[common], formatter_class=argparse.RawDescriptionHelpFormatter,
        help="print the generated gradient module", epilog=SHOW_EXAMPLES,
        description="Print the generated gradient module of a function.")
    show.add_argument("--raw", action="store_true",
                      help="the code as generated, before the optimizer")
    show.add_argument("--at", metavar="X,Y,...", type=point,
                      help="example arguments, for a function that reads containers: the "
                           "text generated for their kinds ('[1.0, 2.0, 3.0], 0.5')")

    check_parser = commands.add_parser(
        "check", parents=[common], formatter_class=argparse.RawDescriptionHelpFormatter,
        help="check the gradient against the tape engine, sympy and finite differences",
        epilog=CHECK_EXAMPLES,
        description="Check a function's gradient four ways and print the table.")
    where = check_parser.add_mutually_exclusive_group()
    where.add_argument("--at", metavar="X,Y,...", action="append", type=point,
                       help="a point to check at, one value per parameter (repeatable): "
                            "numbers, or Python literals for containers, in order or "
                            "named ('xs=[1.0, 2.0], y=3')")
    where.add_argument("--points", metavar="N", type=positive_int, default=5,
                       help="how many random points to check at (default 5)")
    check_parser.add_argument("--sympy-timeout", metavar="SECONDS", type=seconds,
                              default=SYMPY_TIMEOUT,
                              help=f"time budget of the sympy witness (default {SYMPY_TIMEOUT:g}; "
                                   "0 for none); past it the sympy column says timed out")

    graph = commands.add_parser(
        "graph", parents=[common], formatter_class=argparse.RawDescriptionHelpFormatter,
        help="draw the static dependency graph (DOT, SVG or PNG)", epilog=GRAPH_EXAMPLES,
        description="Write the static dependency graph of a function and its adjoints.")
    graph.add_argument("--format", choices=("dot", "svg", "png"),
                       help="output format (default: from the suffix of -o, else dot)")
    graph.add_argument("-o", "--output", metavar="FILE", help="write to FILE, not stdout")
    graph.add_argument("--at", metavar="X,Y,...", type=point,
                       help="example arguments, for a function that reads containers: the "
                            "graph of the gradient generated for their kinds")
    return parser


def parse_wrt(text):
    """``"x"`` -> ``"x"``; ``"x,y"`` -> ``("x", "y")``; indices become ints."""
    if text is None:
        return None
    items = [part.strip() for part in text.split(",")]
    if not all(items):
        raise CommandError(f"--wrt {text}: give parameter names or indices separated by commas")
    values = tuple(int(item) if re.fullmatch(r"-?\d+", item) else item for item in items)
    return values[0] if len(values) == 1 else values
