"""The tape's gradients of a user function: ``grad`` and ``value_and_grad``.

Expects a user function returning one number, and which of its parameters to
differentiate by.  Guarantees a function that runs the unchanged ``fn`` on ``Value``s
(through ``running.on_values``), walks the tape back from the result, and returns the
gradient as floats, shaped as ``symdiff.grad`` shapes it: one float for one parameter,
else a tuple in the order asked.

    def f(x, y):                 grad(f)(2.0, 3.0)           -> (3.0, 2.0)
        return x * y             value_and_grad(f)(2.0, 3.0) -> (6.0, (3.0, 2.0))
"""

import inspect
import numbers

from symdiff.errors import SymdiffError
from symdiff.witnesses.tape.running import on_values
from symdiff.witnesses.tape.value import Value, _data


def _saturated_value(x):
    """The value returned as a float where it fits in one (a big int stays as it is)."""
    try:
        return float(x)
    except OverflowError:
        return x


def _resolve_wrt(label, signature, wrt):
    """The names of the parameters to differentiate by, and whether one float is wanted."""
    params = signature.parameters
    positional = [p.name for p in params.values() if p.kind <= p.POSITIONAL_OR_KEYWORD]
    if wrt is None:  # every positional parameter but the optional ones (default None)
        chosen = [n for n in positional if params[n].default is not None] or positional
        return chosen, len(chosen) == 1
    single = not isinstance(wrt, (tuple, list))
    names = []
    for item in [wrt] if single else wrt:
        if type(item) is int and -len(positional) <= item < len(positional):
            names.append(positional[item])
        elif isinstance(item, str) and item in params and params[item].kind not in (
                params[item].VAR_POSITIONAL, params[item].VAR_KEYWORD):
            names.append(item)
        else:
            raise SymdiffError(f"{label} has no parameter {item!r} to differentiate by",
                               hint=f"its positional parameters are {positional}")
    if not names:
        raise SymdiffError("wrt=(): nothing to differentiate by", hint="name a parameter")
    return names, single


def _differentiate(fn, wrt, with_value):
    label, signature = getattr(fn, "__name__", repr(fn)), inspect.signature(fn)
    names, single = _resolve_wrt(label, signature, wrt)

    def differentiated(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        inputs = {}
        for name in names:
            arg = bound.arguments[name]
            if not isinstance(arg, (Value, numbers.Real)):
                raise SymdiffError(f"cannot differentiate {label} by {name!r}: "
                                   f"it is a {type(arg).__name__}, not a number")
            inputs[name] = bound.arguments[name] = Value(arg)
        out = on_values(fn)(*bound.args, **bound.kwargs)
        if isinstance(out, Value):
            out.backward()
        elif not isinstance(out, numbers.Real):
            raise SymdiffError(f"{label} returned a {type(out).__name__}",
                               hint="the tape differentiates functions returning one number")
        grads = tuple(inputs[name].grad for name in names)
        result = grads[0] if single else grads
        return (_saturated_value(_data(out)), result) if with_value else result

    differentiated.__name__ = differentiated.__qualname__ = f"grad_{label}"
    return differentiated


def grad(fn, wrt=None):
    """A function returning the gradient of ``fn`` at its arguments, by the tape.

    ``wrt=None`` means every positional parameter (one float when there is exactly one);
    a name or an index gives one float, a tuple or list of them a tuple in that order.
    Arguments may be ints.  A parameter ``fn`` does not use gets 0.0, and so does every
    parameter when ``fn`` returns a plain number.  ``fn`` itself runs unchanged.
    """
    return _differentiate(fn, wrt, with_value=False)


def value_and_grad(fn, wrt=None):
    """Like ``grad``, but the function returns ``(float(fn(...)), gradient)``."""
    return _differentiate(fn, wrt, with_value=True)
