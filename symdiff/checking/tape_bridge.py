"""Tape bridge: each operation of a lowered program, as the tape engine computes it.

Expects an operation name of the lowered IR (``"mul"``, ``"sin"``, ``"hypot_3"``, the op of
a function with a ``symdiff.defgrad`` rule) and its ``Program``.  Guarantees a callable on
tape ``Value``s and numbers: the tape's own operation (its derivatives are the tape's,
never the rules table's), or the user's function run on the tape by its rule, or by its
own code (``own_code``, so that a wrong rule shows).  An operation the tape has no
counterpart for is symdiff's bug: ``InternalError``.  The interpreter and the divergence
locator read the program through this one table.
"""

import math
import operator

from symdiff import tape
from symdiff.errors import InternalError
from symdiff.ir import nodes as ir

TAPE_OPS = {
    "add": operator.add, "sub": operator.sub, "mul": operator.mul, "div": operator.truediv,
    "pow": operator.pow, "floordiv": operator.floordiv, "mod": operator.mod,
    "neg": operator.neg, "pos": operator.pos, "abs": abs, "max": max, "min": min,
    "copy": lambda x: x * 1.0 if isinstance(x, tape.Value) else x,
    "float": lambda x: x * 1.0 if isinstance(x, tape.Value) else float(x),
    "int": lambda x: int(x), "logb": lambda x, b: tape.log(x, b),
    "stop_gradient": lambda x: x.detach() if isinstance(x, tape.Value) else x,
    "factorial": math.factorial, "comb": math.comb, "perm": math.perm, "ulp": math.ulp,
    "isnan": math.isnan, "isinf": math.isinf, "isfinite": math.isfinite,
    "frexp_mantissa": lambda x: tape.frexp(x)[0], "frexp_exponent": lambda x: tape.frexp(x)[1],
    "modf_fraction": lambda x: tape.modf(x)[0], "modf_integer": lambda x: tape.modf(x)[1],
    "isclose": lambda a, b, rel_tol, abs_tol: math.isclose(a, b, rel_tol=rel_tol,
                                                           abs_tol=abs_tol),
    **{f"norm_{method}": (lambda method: lambda *args: getattr(tape.norm, method)(*args))(method)
       for method in ("cdf", "pdf", "logpdf", "logcdf", "sf", "ppf")},
}
TAPE_VARIADIC = {  # ops of several numbers written out (``fsum_3``): their numbers in a row
    "hypot": lambda args: tape.hypot(*args), "fsum": tape.fsum, "prod": math.prod,
    "dist": lambda args: tape.dist(args[:len(args) // 2], args[len(args) // 2:]),
    "sumprod": lambda args: tape.sumprod(args[:len(args) // 2], args[len(args) // 2:]),
}


def tape_op(program, op, own_code=False):
    """The tape's operation ``op``; for a function with a user rule, by that rule, or by the
    function's own code (``own_code``, for the locator's local partials)."""
    if op in program.custom_functions:
        return tape.on_values(program.custom_functions[op][0], own_rule=not own_code)
    name, _, count = op.rpartition("_")
    if name in TAPE_VARIADIC and count.isdigit():
        return lambda *args: TAPE_VARIADIC[name](args)
    found = TAPE_OPS.get(op) or getattr(tape, op, None)
    if found is None:
        raise InternalError("check", f"the tape engine has no operation for {op!r}")
    return found


def operand(value, env):
    """The value of an IR operand (a ``Var`` read from ``env``, or a constant)."""
    if isinstance(value, ir.Var):
        return env[value.name]
    return value.value


def raw(value):
    """The number a tape ``Value`` holds; anything else as it is."""
    return value.data if isinstance(value, tape.Value) else value
