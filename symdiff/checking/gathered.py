"""Gathered: a point of ``check`` of a function taking ``*args``, and the calls made at it.

``check`` and its locator keep a point as the lowered ``Program`` has its parameters: one
value per parameter, the arguments ``*args`` gathers as one tuple, the value of the last
positional one (so each is a row of that tuple: ``args[0]``, ``args[1]``).  The function,
its generated gradient and the tape's take them spread out, as the call gives them;
``spreading`` makes each take the gathered point.

    def f(x, *args): ...        point (1.0, (2.0, 3.0))  ->  f(1.0, 2.0, 3.0)
"""

import functools


def spreading(fn, program):
    """``fn`` taking a gathered point (see the module), ``*args``'s tuple spread out
    again when it calls ``fn``; ``fn`` itself for a program without ``*args``."""
    vararg = getattr(program, "vararg", None)
    if vararg is None:
        return fn
    named = program.params.index(vararg)

    @functools.wraps(fn)
    def spread(*point, **kwargs):
        return fn(*point[:named], *point[named], **kwargs)
    return spread
