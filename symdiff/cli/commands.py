"""Commands: ``symdiff show``, ``symdiff check`` and ``symdiff graph``.

Expects the parsed arguments (``symdiff.cli.arguments``).  Guarantees each command's
output on stdout and its exit status: 0 on success, 1 when ``check`` finds a wrong
gradient; a problem with the command line or its files is a ``CommandError``, and every
other error is raised to ``symdiff.cli.main``, which reports it.  With ``--debug`` the
gradient is built with each pipeline stage's result printed to stderr
(``symdiff.cli.debug``); what is built then is what the command shows.
"""

import inspect
import os
import shutil
import subprocess
import sys

from symdiff import api
from symdiff.analysis.activity import active_names
from symdiff.checking.compare import check
from symdiff.cli.arguments import CommandError, parse_wrt
from symdiff.cli.debug import stage_printer
from symdiff.cli.loading import load_function
from symdiff.cli.points import Named
from symdiff.cli.terminal import highlight, output_to_stderr, use_color
from symdiff.specialized import container_kinds, examples_needed

DOT_MISSING = ("--format {fmt} needs Graphviz's `dot` program, which is not on PATH: "
               "install Graphviz (apt-get install graphviz, brew install graphviz, or "
               "https://graphviz.org/download/), or use --format dot")


AT_HINT = ("give example arguments with --at, one value per parameter ({params}): "
           "--at '[1.0, 2.0], 0.5' for a list and a number")


def kinds_at(fn, args):
    """The container kinds of ``--at``'s example arguments; None without it, where
    ``fn`` needs none (a located error says to give them where it does)."""
    if args.at is not None:
        return container_kinds(fn, bound_point(fn, args.at))
    missing = examples_needed(fn, parse_wrt(args.wrt), AT_HINT)
    if missing is not None:
        raise missing
    return None


def run_show(args):
    fn = load_function(args)  # with --import, the module's prints go to stderr
    kinds = kinds_at(fn, args)
    text = api.build(fn, parse_wrt(args.wrt), optimize=not args.raw,
                     debug=stage_printer(args), kinds=kinds).source
    if use_color(sys.stdout):
        text = highlight(text)
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0


def run_check(args):
    fn = load_function(args)
    wrt = parse_wrt(args.wrt)
    at = [bound_point(fn, values) for values in args.at or ()]
    if args.debug:  # built here with its stages shown; check then finds it built
        api.build(fn, wrt, prefer="active", debug=stage_printer(args))
    try:
        with output_to_stderr():  # the function's own prints stay out of the table
            budget = args.sympy_timeout or None
            if at:
                report = check(fn, *at, wrt=wrt, sympy_timeout=budget)
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


def bound_point(fn, values):
    """One ``--at`` as positional values: a named one bound to ``fn``'s parameters."""
    if isinstance(values, Named):
        try:
            return values.bind(fn)
        except ValueError as exc:
            raise CommandError(f"--at: {exc}") from None
    check_point_length(fn, values)
    return values


def check_point_length(fn, values):
    """A point gives every positional parameter without a default, and at most all of them."""
    params = [p for p in inspect.signature(fn).parameters.values()
              if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required = sum(p.default is p.empty for p in params)
    star = any(p.kind is p.VAR_POSITIONAL for p in inspect.signature(fn).parameters.values())
    if required <= len(values) and (star or len(values) <= len(params)):
        return  # (``*args`` takes any number more)
    names = ", ".join(p.name if p.default is p.empty else f"{p.name}={p.default!r}"
                      for p in params)
    takes = (f"{len(params)}" if required == len(params)
             else f"{required} to {len(params)}")
    raise CommandError(
        f"--at {', '.join(map(repr, values))} has {len(values)} value"
        f"{'s' * (len(values) != 1)}, but {fn.__name__} takes {takes} parameter"
        f"{'s' * (len(params) != 1)} ({names})")


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
    gradient = api.build(fn, parse_wrt(args.wrt), debug=stage_printer(args),
                         kinds=kinds_at(fn, args))
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
