"""The ``symdiff`` command: show, check and draw the gradient of a function in a file.

    symdiff show examples/model.py:neuron            the generated gradient module
    symdiff check examples/model.py:neuron           the four-way check; exit 1 if it fails
    symdiff graph examples/model.py:neuron -o g.svg  the static dependency graph

The file is read, not run: its functions, constants, derivative rules and imports of
math, numpy and symdiff are loaded by ``symdiff.frontend.static``.  ``--import`` imports
the module instead (running its top-level code) and uses the real function object.

Exit status: 0 on success, 1 when ``check`` finds a wrong gradient, 2 for an error in
what was asked (a bad path or function name, a syntax error, an unsupported construct),
3 for a bug of symdiff's own (``InternalError``).  The pieces: ``arguments`` (the
parser), ``loading`` (finding the function), ``commands``, ``errors`` (the messages and
statuses), ``terminal`` (streams and colours), ``debug`` (``--debug``'s stage dumps).
"""

import os
import sys
import traceback

from symdiff.cli.arguments import attach_values, build_parser
from symdiff.cli.commands import run_check, run_graph, run_show
from symdiff.cli.errors import describe_error, exit_status

COMMANDS = {"show": run_show, "check": run_check, "graph": run_graph}


def main(argv=None):
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(attach_values(sys.argv[1:] if argv is None else list(argv)))
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    args.static_module = None
    try:
        return COMMANDS[args.command](args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `symdiff show ... | head`
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except Exception as exc:  # every failure becomes a message and its exit status
        if args.debug:
            traceback.print_exc()
        print(describe_error(exc, args), file=sys.stderr)
        return exit_status(exc)
