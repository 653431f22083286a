"""The ``symdiff`` command: show, check and draw the gradient of a function in a file.

    symdiff show examples/model.py:neuron            the generated gradient module
    symdiff check examples/model.py:neuron           the four-way check; exit 1 if it fails
    symdiff graph examples/model.py:neuron -o g.svg  the static dependency graph

The file is read, not run: its functions, constants, derivative rules and imports of
math, numpy and symdiff are loaded by ``symdiff.static``.  ``--import`` imports the module
instead (running its top-level code) and uses the real function object.

Exit status: 0 on success, 1 when ``check`` finds a wrong gradient, 2 for any
error (a bad path or function name, a syntax error, an unsupported construct).
"""

import argparse
import builtins
import contextlib
import importlib.util
import inspect
import io
import keyword
import linecache
import os
import re
import shutil
import subprocess
import sys
import tokenize
import traceback

from symdiff import __version__, api
from symdiff.analysis.activity import active_names
from symdiff.checking.compare import SYMPY_TIMEOUT, check
from symdiff.errors import SymdiffError, UndefinedNameError
from symdiff.frontend import static

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

Colours are used when the output is a terminal and NO_COLOR is not set.
"""

CHECK_EXAMPLES = """\
examples:
  symdiff check examples/model.py:neuron                   five random points
  symdiff check examples/model.py:neuron --points 20       twenty random points
  symdiff check examples/model.py:power --at 1.5,3 --at 0.5,2 --wrt x

Each point gives every parameter a value, in order.  The exit status is 0 when the
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

DOT_MISSING = ("--format {fmt} needs Graphviz's `dot` program, which is not on PATH: "
               "install Graphviz (apt-get install graphviz, brew install graphviz, or "
               "https://graphviz.org/download/), or use --format dot")


class CommandError(Exception):
    """A problem with the command line or its files: one line on stderr, exit status 2."""


def main(argv=None):
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(attach_values(sys.argv[1:] if argv is None else list(argv)))
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    args.static_module = None
    try:
        return args.run(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `symdiff show ... | head`
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except Exception as exc:  # every failure becomes a message and exit status 2
        if args.debug:
            traceback.print_exc()
        print(describe_error(exc, args), file=sys.stderr)
        return 2


def build_parser():
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("target", metavar="FILE.py:FUNC",
                        help="the file and the name of a top-level def function in it")
    common.add_argument("--wrt", metavar="NAMES",
                        help="comma-separated parameters (names or indices) to differentiate "
                             "by; default: every positional parameter")
    common.add_argument("--import", dest="import_module", action="store_true",
                        help="import the module, running its top-level code, and use the real "
                             "function (by default the file is only read)")
    common.add_argument("--debug", action="store_true",
                        help="show the Python traceback of an error; with show, also print "
                             "what each stage of the pipeline produced (the IR) on stderr")

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
    show.set_defaults(run=run_show)

    check_parser = commands.add_parser(
        "check", parents=[common], formatter_class=argparse.RawDescriptionHelpFormatter,
        help="check the gradient against the tape engine, sympy and finite differences",
        epilog=CHECK_EXAMPLES,
        description="Check a function's gradient four ways and print the table.")
    where = check_parser.add_mutually_exclusive_group()
    where.add_argument("--at", metavar="X,Y,...", action="append", type=point,
                       help="a point to check at, one number per parameter (repeatable)")
    where.add_argument("--points", metavar="N", type=positive_int, default=5,
                       help="how many random points to check at (default 5)")
    check_parser.add_argument("--sympy-timeout", metavar="SECONDS", type=seconds,
                              default=SYMPY_TIMEOUT,
                              help=f"time budget of the sympy witness (default {SYMPY_TIMEOUT:g}; "
                                   "0 for none); past it the sympy column says timed out")
    check_parser.set_defaults(run=run_check)

    graph = commands.add_parser(
        "graph", parents=[common], formatter_class=argparse.RawDescriptionHelpFormatter,
        help="draw the static dependency graph (DOT, SVG or PNG)", epilog=GRAPH_EXAMPLES,
        description="Write the static dependency graph of a function and its adjoints.")
    graph.add_argument("--format", choices=("dot", "svg", "png"),
                       help="output format (default: from the suffix of -o, else dot)")
    graph.add_argument("-o", "--output", metavar="FILE", help="write to FILE, not stdout")
    graph.set_defaults(run=run_graph)
    return parser


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
    """``"1.5,3"`` -> ``(1.5, 3)``: whole numbers stay ints, for ``range``."""
    try:
        return tuple(int(part) if re.fullmatch(r"\s*[-+]?\d+\s*", part) else float(part)
                     for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a point: give numbers separated by commas, like 1.0,2.5") from None


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


# --- the commands -----------------------------------------------------------------------

def run_show(args):
    fn = load_function(args)  # with --import, the module's prints go to stderr
    debug = print_stage if args.debug else None
    text = api.source(fn, wrt=parse_wrt(args.wrt), optimize=not args.raw, debug=debug)
    if use_color(sys.stdout):
        text = highlight(text)
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0


def print_stage(stage, value):
    """``show --debug``: what a stage produced, on stderr (the IR as its printer writes it)."""
    from symdiff.ir.printer import stage_text

    text = stage_text(value)
    sys.stderr.write(f"# --- after {stage} ---\n{text}{'' if text.endswith(chr(10)) else chr(10)}")


def run_check(args):
    fn = load_function(args)
    wrt = parse_wrt(args.wrt)
    for values in args.at or ():
        check_point_length(fn, values)
    try:
        with output_to_stderr():  # the function's own prints stay out of the table
            budget = args.sympy_timeout or None
            if args.at:
                report = check(fn, *args.at, wrt=wrt, sympy_timeout=budget)
            else:
                report = check(fn, wrt=wrt, samples=args.points, sympy_timeout=budget)
    except TypeError as exc:
        if wrt is not None or "integer" not in str(exc):
            raise
        raise CommandError(f"checking {fn.__name__} by every parameter failed ({exc}); if a "
                           "parameter is a count, as in range(n), leave it out with --wrt"
                           ) from exc
    if not report.rows:
        raise CommandError(f"no point was found where {fn.__name__} has a finite value: "
                           "give one with --at")
    print(report)
    return 0 if report.ok else 1


def check_point_length(fn, values):
    """A point gives every positional parameter without a default, and at most all of them."""
    params = [p for p in inspect.signature(fn).parameters.values()
              if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required = sum(p.default is p.empty for p in params)
    if required <= len(values) <= len(params):
        return
    names = ", ".join(p.name if p.default is p.empty else f"{p.name}={p.default!r}"
                      for p in params)
    takes = (f"{len(params)}" if required == len(params)
             else f"{required} to {len(params)}")
    raise CommandError(
        f"--at {','.join(map(repr, values))} has {len(values)} number"
        f"{'s' * (len(values) != 1)}, but {fn.__name__} takes {takes} parameter"
        f"{'s' * (len(params) != 1)} ({names})")


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


def run_graph(args):
    fmt = args.format or format_of(args.output) or "dot"
    dot = None
    if fmt != "dot":
        dot = shutil.which("dot")
        if dot is None:
            raise CommandError(DOT_MISSING.format(fmt=fmt.upper()))
        if fmt == "png" and args.output is None and sys.stdout.isatty():
            raise CommandError("PNG is not written to a terminal: give -o FILE.png")
    fn = load_function(args)
    gradient = api.build(fn, parse_wrt(args.wrt))
    active = active_names(gradient.program, gradient.wrt_names)
    text = gradient.graph.to_dot(active=active)
    data = text.encode() if dot is None else render(dot, text, fmt)
    if args.output is None:
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    else:
        try:
            with open(args.output, "wb") as handle:
                handle.write(data)
        except OSError as exc:
            raise CommandError(f"cannot write {args.output}: {exc.strerror}") from None
    return 0


def format_of(path):
    suffix = os.path.splitext(path or "")[1].lower()
    return {".svg": "svg", ".png": "png", ".dot": "dot", ".gv": "dot"}.get(suffix)


def render(dot, text, fmt):
    """The DOT ``text`` rendered by Graphviz as ``fmt`` bytes."""
    try:
        done = subprocess.run([dot, f"-T{fmt}"], input=text.encode(), capture_output=True,
                              timeout=120, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise CommandError(f"running {dot} failed: {exc}") from None
    if done.returncode != 0:
        first = (done.stderr.decode(errors="replace").strip().splitlines() or ["no message"])[0]
        raise CommandError(f"{dot} -T{fmt} failed (exit status {done.returncode}): {first}")
    return done.stdout


# --- finding the function ---------------------------------------------------------------

def split_target(target):
    """``"path/model.py:loss"`` -> ``("path/model.py", "loss")``."""
    path, colon, name = target.rpartition(":")
    if not colon or not name.isidentifier() or not path:
        file = path if colon and os.path.isfile(path) else target
        raise CommandError(f"{target}: name the function too, as FILE.py:FUNC"
                           f"{_functions_hint(file)}")
    return path, name


def _functions_hint(path):
    try:
        names = static.function_names(static.read_tree(path))
    except (OSError, SymdiffError):
        return ""
    if not names:
        return f" ({path} has no top-level def functions)"
    return f" (functions in {path}: {', '.join(names)})"


def load_function(args):
    """The function named by ``args.target``: read statically, or imported with --import."""
    path, name = split_target(args.target)
    if os.path.isdir(path):
        raise CommandError(f"{path} is a directory, not a Python file")
    if not os.path.isfile(path):
        raise CommandError(f"{path}: no such file")
    try:
        if args.import_module:
            return import_function(path, name)
        module = static.load(path)
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror or exc}") from None
    args.static_module = module
    if module.unreadable_rules:  # a rule for a function that cannot be told by reading
        lineno, reason = module.unreadable_rules[0]
        raise SymdiffError(reason, filename=path, lineno=lineno, col_offset=0,
                           source_line=linecache.getline(path, lineno) or None,
                           hint="pass --import to import the module and use its rules")
    return module.function(name)


def import_function(path, name):
    """Import the module at ``path`` (running it) and return its function ``name``."""
    tree = static.read_tree(path)  # a syntax error is reported with its location
    directory = os.path.dirname(os.path.abspath(path))
    if directory not in sys.path:
        sys.path.insert(0, directory)
    stem = os.path.splitext(os.path.basename(path))[0]
    module_name = stem if stem.isidentifier() and stem not in sys.modules else "symdiff_target"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise CommandError(f"{path} cannot be imported as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        with output_to_stderr():
            spec.loader.exec_module(module)
    except (Exception, SystemExit) as exc:
        raise import_error(path, exc) from exc
    found = getattr(module, name, None)
    inner = getattr(found, "fn", None)  # a function decorated with @grad
    if inspect.isfunction(inner):
        found = inner
    if found is None:
        names = static.function_names(tree)
        raise CommandError(f"{path} has no function named {name}"
                           + (f" (its functions: {', '.join(names)})" if names else ""))
    if not inspect.isfunction(found):
        raise CommandError(f"{path}: {name} is {type(found).__name__}, not a def function")
    return found


def import_error(path, exc):
    """A located error for an exception raised while importing the file at ``path``."""
    lineno = None
    for frame, line in traceback.walk_tb(exc.__traceback__):
        if os.path.abspath(frame.f_code.co_filename) == os.path.abspath(path):
            lineno = line
    message = f"importing the module raised {type(exc).__name__}: {exc}"
    return SymdiffError(message, filename=path if lineno else None, lineno=lineno,
                        source_line=linecache.getline(path, lineno) if lineno else None,
                        hint="fix the module, or leave out --import to read it without running")


def parse_wrt(text):
    """``"x"`` -> ``"x"``; ``"x,y"`` -> ``("x", "y")``; indices become ints."""
    if text is None:
        return None
    items = [part.strip() for part in text.split(",")]
    if not all(items):
        raise CommandError(f"--wrt {text}: give parameter names or indices separated by commas")
    values = tuple(int(item) if re.fullmatch(r"-?\d+", item) else item for item in items)
    return values[0] if len(values) == 1 else values


# --- errors -------------------------------------------------------------------------------

def describe_error(exc, args):
    """The message for an exception: located when it can be, always without a traceback."""
    if isinstance(exc, CommandError):
        return f"symdiff: error: {exc}"
    if isinstance(exc, UndefinedNameError) and args.static_module is not None:
        exc = _needs_import(exc, args.static_module)
    if isinstance(exc, SymdiffError):
        text = str(exc)
        return text if exc.filename is not None else f"symdiff: error: {text}"
    hint = "" if args.debug else " (run with --debug for the traceback)"
    return f"symdiff: error: {type(exc).__name__}: {exc}{hint}"


def _needs_import(exc, module):
    """An undefined global, explained: it can only be known by running the module."""
    match = re.match(r"the name (\w+) is not defined", exc.message)
    if match is None:
        return exc
    name = match.group(1)
    line = module.skipped.get(name)
    left_out = module.left_out.get(name, (None, None))[1]
    if left_out is not None:
        message = f"the name {name} can only be known by running the module: {left_out}"
    elif line is not None:
        message = (f"the name {name} can only be known by running the module (line {line} "
                   "sets it, and symdiff reads the file without running it)")
    else:
        message = (f"the name {name} can only be known by running the module: it is not "
                   "defined by anything symdiff reads without running it")
    return SymdiffError(message, filename=exc.filename, lineno=exc.lineno,
                        col_offset=exc.col_offset, source_line=exc.source_line,
                        hint="pass --import to import the module instead")


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
