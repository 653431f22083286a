"""Interpret: the statements of a lowered program, run on tape ``Value``s.

Expects a ``Program`` (``symdiff.pipeline.lower``'s, as the built gradient keeps it) and an
environment binding its parameters to numbers or ``Value``s.  Guarantees that the
statements run in order, as the function would run them (the IR evaluator), each
operation by the tape's own operation (``symdiff.checking.tape_bridge``), and that every ``Assign`` is noted in
``runs`` as ``(statement, its id, output, arguments)``: what the
divergence locator and the rule checks read.
"""

from symdiff.checking.tape_bridge import raw, tape_op, tape_reduction
from symdiff.ir.evaluate import Evaluator


class Interpreter(Evaluator):
    """The IR evaluator (``symdiff.ir.evaluate``) with the tape's operations, noting each
    operation's output in ``runs``; ``env`` binds the parameters and fills as it runs."""

    def __init__(self, program, env, runs):
        super().__init__(program, lambda stmt: tape_op(program, stmt.op), env=env, index=raw,
                         observe=lambda stmt, out, args: runs.append(
                             (stmt, stmt.sid, out, args)), reductions=tape_reduction)


def keywords(program, kwargs):
    """The environment entry of the ``**kwargs`` parameter, if the function has one."""
    return {program.kwargs: dict(kwargs)} if program.kwargs else {}
