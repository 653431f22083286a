"""Stand-ins: what the user's code sees in place of ``math``, ``statistics``, numpy,
SciPy and their functions when it runs on the tape.

Expects nothing imported but ``math``: numpy and SciPy are registered once the user's
code has imported them (nothing here imports them).  Guarantees ``stand_in(value)``: the
tape's function for one of theirs (``math.sin`` -> the tape's ``sin``), a namespace for
one of the modules (``math`` -> an object whose attributes are the stand-ins, the
module's own elsewhere), or None.  A ``math`` function with no derivative on the tape
raises ``SymdiffError`` when handed a Value; ``math``'s tests and integer functions
(``isnan``, ``factorial``...) read the numbers.

    stand_in(math.sin)           the tape's sin
    stand_in(math).exp           the tape's exp
    stand_in(math.gcd)(Value(4)) SymdiffError: math.gcd has no derivative on the tape
"""

import math
import statistics
import sys

from symdiff.errors import SymdiffError
from symdiff.witnesses.tape import array_functions, math_functions
from symdiff.witnesses.tape.numpy_stand_ins import numpy_stand_ins
from symdiff.witnesses.tape.scipy_functions import norm, special_stand_ins
from symdiff.witnesses.tape.statistics_functions import STATISTICS
from symdiff.witnesses.tape.value import Value, _offer, on_numbers

_TAPE = {name: getattr(math_functions, name) for name in math_functions.__all__
         if hasattr(math, name)}
_MATH_PASS_THROUGH = ("trunc",)  # Values pass through it (__trunc__)
_ON_NUMBERS = ("isnan", "isinf", "isfinite", "isclose", "factorial", "comb", "perm",
               "ulp")  # no derivative: they read the number, as math computes them
_STAND_INS = {}         # id(math, numpy or one of their functions) -> (it, tape stand-in)


class _Namespace:
    """Stands in for a module in copied functions: ``lookup(name)``, else the module's own."""

    def __init__(self, module, lookup):
        self.__module, self.__lookup = module, lookup

    def __getattr__(self, name):
        found = self.__lookup(name)
        return found if found is not None else getattr(self.__module, name)


def _refusing(name, original):
    """``math.<name>``, raising instead of silently dropping a Value's gradient."""
    def refuse(*args):
        if any(isinstance(arg, Value) for arg in args):
            raise SymdiffError(f"math.{name} has no derivative on the tape",
                               hint="use a function the tape knows, or stop_gradient")
        return original(*args)
    return refuse


def _register(module, table):
    for name, function in table.items():
        _STAND_INS[id(getattr(module, name))] = (getattr(module, name), function)
    _STAND_INS[id(module)] = (module, _Namespace(module, table.get))


_register(math, {name: _TAPE.get(name) or (on_numbers(getattr(math, name)) if name in _ON_NUMBERS
                                           else _refusing(name, getattr(math, name)))
                 for name in dir(math) if callable(getattr(math, name))
                 and not name.startswith("_") and name not in _MATH_PASS_THROUGH})
_register(statistics, STATISTICS)  # its means and spreads (the rest: the library's own)


def stand_in(value):
    """The tape's stand-in for ``value`` (math, numpy, SciPy or one of their functions), or
    None."""
    numpy = sys.modules.get("numpy")
    if numpy is not None and id(numpy) not in _STAND_INS:
        _register(numpy, _numpy_table(numpy))
    _register_scipy()
    found = _STAND_INS.get(id(value))
    return found[1] if found is not None and found[0] is value else None


def _numpy_table(numpy):
    """The scalar stand-ins, handing arrays to numpy (so to the tape's arrays), and the
    array functions numpy's protocols do not reach (``np.array`` of Values...)."""
    table = {name: array_functions.deferring(function, getattr(numpy, name))
             for name, function in numpy_stand_ins(numpy).items()}
    for name, function in array_functions.namespace_stand_ins(numpy).items():
        table.setdefault(name, function)
    return table


_offer(stand_in=stand_in)  # numpy's function of a Value reaches its stand-in (__array_ufunc__)


def _register_scipy():
    """The stand-ins for scipy.special, scipy.stats.norm and scipy itself, once imported."""
    special, stats = sys.modules.get("scipy.special"), sys.modules.get("scipy.stats")
    if special is not None and id(special) not in _STAND_INS:
        _register(special, {**special_stand_ins(special),
                            **array_functions.special_stand_ins(special)})
    if stats is not None and id(stats) not in _STAND_INS:
        _register(stats, {"norm": norm})
    scipy = sys.modules.get("scipy")
    if scipy is not None and special is not None and id(scipy) not in _STAND_INS:
        namespaces = {"special": _STAND_INS[id(special)][1]}
        if stats is not None:
            namespaces["stats"] = _STAND_INS[id(stats)][1]
        _STAND_INS[id(scipy)] = (scipy, _Namespace(scipy, namespaces.get))

