"""The tape's gradients of a user function: ``grad`` and ``value_and_grad``.

Expects a user function returning one number, and which of its parameters to
differentiate by; an argument may be a number, a NumPy array of floats (or ints), or a
tuple, list or dict of them, nested.  Guarantees a function that runs the unchanged ``fn``
on ``Value``s and ``ArrayValue``s (through ``running.on_values``; each number inside a
container argument becomes a ``Value``, each array an ``ArrayValue``, in a structure of
the same types), walks the tape back from the result (a number, or an array of one
element), and returns the gradient shaped as ``symdiff.grad`` shapes it: one float per
number parameter, an array of its shape and dtype per array parameter (float64 for an
array of ints; a function passed as an argument runs on Values as ``fn`` does),
the parameter's structure for a container (a list for a list, a tuple for a tuple, a dict
with the same keys in the same order); one parameter alone, else a tuple in the order
asked.  A bool or str inside a differentiated container is refused with a
``SymdiffError`` naming its path.  A function that changes a container it is passed
(``xs.append(...)``, ``xs[0] = ...``) changes the caller's as well, as the function and
the generated gradient do: the caller's container ends holding the numbers it would hold
after ``fn(...)``.

    def f(x, y):                 grad(f)(2.0, 3.0)           -> (3.0, 2.0)
        return x * y             value_and_grad(f)(2.0, 3.0) -> (6.0, (3.0, 2.0))

    def g(p):                    grad(g)({"w": [1.0, 2.0], "b": 3.0})
        return p["w"][1] * p["b"]      -> {"w": [0.0, 3.0], "b": 2.0}

    def h(w, X):                 grad(h)(np.ones(3), np.eye(3))   -> array([2., 2., 2.])
        return np.sum((X @ w) ** 2)
"""

import inspect
import numbers
import types

from symdiff.errors import SymdiffError
from symdiff.witnesses.tape import objects
from symdiff.witnesses.tape.arrays import ArrayValue, is_ndarray, numpy
from symdiff.witnesses.tape.running import on_values
from symdiff.witnesses.tape.stand_ins import stand_in
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
    positional = [p.name for p in params.values() if p.kind <= p.VAR_POSITIONAL]  # ``*args``
    # too: a tuple of the numbers the call passes
    if wrt is None:  # every positional parameter but those defaulting to None (optional
        # ones), an int or a bool (a count, an index, a flag)
        chosen = [n for n in positional if params[n].default is not None and not isinstance(
            params[n].default, int)] or positional
        return chosen, len(chosen) == 1
    single = not isinstance(wrt, (tuple, list))
    names = []
    for item in [wrt] if single else wrt:
        if type(item) is int and -len(positional) <= item < len(positional):
            names.append(positional[item])
        elif isinstance(item, str) and item in params and params[item].kind is not (
                params[item].VAR_KEYWORD):
            names.append(item)
        else:
            raise SymdiffError(f"{label} has no parameter {item!r} to differentiate by",
                               hint=f"its positional parameters are {positional}")
    if not names:
        raise SymdiffError("wrt=(): nothing to differentiate by", hint="name a parameter")
    return names, single


def _on_values(label, name, path, arg):
    """``arg`` with a fresh ``Value`` for each number, in a structure of the same types."""
    if type(arg) is dict:
        return {key: _on_values(label, name, path + (key,), item) for key, item in arg.items()}
    if type(arg) in (tuple, list):
        return type(arg)(_on_values(label, name, path + (i,), item) for i, item in enumerate(arg))
    if isinstance(arg, (Value, numbers.Real)) and not (path and isinstance(arg, bool)):
        return Value(arg)
    if objects.fields(arg) is not None:
        return _Object(label, name, path, arg)
    if is_ndarray(arg) and arg.dtype.kind in "fiu":
        return _leaf(arg)
    where = name + "".join(f'["{key}"]' if isinstance(key, str) else f"[{key!r}]"
                           for key in path)
    inside = f": {where} is" if path else ": it is"
    what = f"{arg.dtype} array" if is_ndarray(arg) else type(arg).__name__
    raise SymdiffError(f"cannot differentiate {label} by {name!r}{inside} a "
                       f"{what}, not a number",
                       hint="a bool or a str carries no derivative; leave the parameter "
                            "out of wrt= (name the others)")


def _leaf(array):
    """An ArrayValue for a parameter array, holding the array itself (nothing on the tape
    writes into a node's array); an array of ints stays one, so that it may still index
    (``logp[rows, labels]``), and its gradient is float64."""
    return _Leaf(ArrayValue(array), array.dtype)


class _Leaf:
    """A parameter array's handle, with the node it started as and the parameter's dtype:
    the code may give the handle new nodes (``x[i] = v``, ``x += v``)."""

    __slots__ = ("handle", "node", "dtype")

    def __init__(self, handle, dtype):
        self.handle, self.node, self.dtype = handle, handle._node, dtype


class _Object:
    """An object argument on the tape: the object, and its fields that hold numbers,
    containers or arrays as Values (``inputs``, name -> what ``_on_values`` made); its
    other fields are static, as they are."""

    def __init__(self, label, name, path, value):
        self.value, self.inputs = value, {}
        for field, item in objects.fields(value):
            try:
                self.inputs[field] = _on_values(label, name, path + (field,), item)
            except SymdiffError:  # a string, a function, a flag: static
                pass


def _restructured(inputs):
    """The same ``Value``s in new containers of the same types."""
    if isinstance(inputs, _Object):
        return objects.rebuilt(inputs.value, {k: _restructured(v)
                                              for k, v in inputs.inputs.items()})
    if type(inputs) is dict:
        return {key: _restructured(item) for key, item in inputs.items()}
    if type(inputs) in (tuple, list):
        return type(inputs)(_restructured(item) for item in inputs)
    return inputs.handle if isinstance(inputs, _Leaf) else inputs


def _gradients(inputs):
    """The ``.grad`` of each Value of ``inputs``, in its structure."""
    if isinstance(inputs, _Object):
        return objects.gradient(inputs.value, {k: _gradients(v)
                                               for k, v in inputs.inputs.items()})
    if type(inputs) is dict:
        return {key: _gradients(item) for key, item in inputs.items()}
    if type(inputs) in (tuple, list):
        return type(inputs)(_gradients(item) for item in inputs)
    if isinstance(inputs, _Leaf):  # 0.0 when the result does not depend on it
        np = numpy()
        grad = np.broadcast_to(inputs.node.grad, inputs.node.data.shape)
        return np.array(grad, dtype=inputs.dtype if inputs.dtype.kind == "f" else np.float64)
    return float(inputs.grad)


def _result(label, out):
    """The number ``fn`` returned, its graph walked back: a Value, an ArrayValue or an
    array of one element, or a number."""
    if isinstance(out, ArrayValue) and out.size == 1:
        out.backward()
        return out.data.reshape(())
    if isinstance(out, Value):
        out.backward()
    elif is_ndarray(out) and out.size == 1:
        return out.reshape(())
    elif not isinstance(out, numbers.Real):
        raise SymdiffError(f"{label} returned a {_kind(out)}",
                           hint="the tape differentiates functions returning one number")
    return _data(out)


def _kind(out):
    if isinstance(out, ArrayValue) or is_ndarray(out):
        return f"array of shape {out.shape}"
    return type(out).__name__


def _differentiate(fn, wrt, with_value):
    label, signature = getattr(fn, "__name__", repr(fn)), inspect.signature(fn)
    names, single = _resolve_wrt(label, signature, wrt)

    def differentiated(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        inputs = {}
        for name in names:  # the function gets containers of its own: one that changes an
            # entry in place (``params[k] = ...``) leaves the leaves read below as they were
            inputs[name] = _on_values(label, name, (), bound.arguments[name])
            bound.arguments[name] = _restructured(inputs[name])
        for name, value in bound.arguments.items():  # a function passed as a value runs
            if isinstance(value, types.FunctionType):  # on Values too (``euler(rhs, ...)``)
                bound.arguments[name] = on_values(value)
            elif stand_in(value) is not None:  # ``math.sin`` passed: the tape's sin
                bound.arguments[name] = stand_in(value)
        out = _result(label, on_values(fn)(*bound.args, **bound.kwargs))
        passed = signature.bind_partial(*args, **kwargs).arguments  # the caller's own
        for name in names:
            _write_back(passed.get(name), bound.arguments[name])
        grads = tuple(_gradients(inputs[name]) for name in names)
        result = grads[0] if single else grads
        return (_saturated_value(out), result) if with_value else result

    differentiated.__name__ = differentiated.__qualname__ = f"grad_{label}"
    return differentiated


def _write_back(original, changed):
    """Make the caller's container ``original`` hold what the function left in its own
    copy ``changed`` (numbers for Values), keeping the caller's containers inside it."""
    if type(original) is list and type(changed) is list:
        kept = original[:]
        original[:] = [_settled(kept[i] if i < len(kept) else None, item)
                       for i, item in enumerate(changed)]
    elif type(original) is dict and type(changed) is dict:
        kept = dict(original)
        original.clear()
        original.update({key: _settled(kept.get(key), item) for key, item in changed.items()})
    elif type(original) is tuple and type(changed) is tuple and len(original) == len(changed):
        for inner, item in zip(original, changed):
            _write_back(inner, item)


def _settled(original, changed):
    """What the caller's container holds at a place: its own list or dict there, changed
    as the function changed it, or the number (a new container of numbers) it left."""
    if isinstance(changed, Value):
        return changed.data
    if isinstance(changed, ArrayValue):
        return changed.data.copy()
    if type(changed) in (list, dict) and type(original) is type(changed):
        _write_back(original, changed)
        return original
    if type(changed) is dict:
        return {key: _settled(None, item) for key, item in changed.items()}
    if type(changed) in (list, tuple):
        inner = original if type(original) is tuple and len(original) == len(changed) else (
            (None,) * len(changed))
        return type(changed)(_settled(o, item) for o, item in zip(inner, changed))
    if original is not None and (hasattr(changed, "__dict__") or hasattr(type(changed),
                                                                         "_fields")):
        return original  # an object read by field: the function's copy holds Values
    return changed


def grad(fn, wrt=None):
    """A function returning the gradient of ``fn`` at its arguments, by the tape.

    ``wrt=None`` means every positional parameter but those defaulting to None, an int or
    a bool (one float when there is exactly one), ``*args`` too (a tuple of the gradients
    of the extra arguments);
    a name or an index gives one float, a tuple or list of them a tuple in that order.
    Arguments may be ints.  A parameter ``fn`` does not use gets 0.0, and so does every
    parameter when ``fn`` returns a plain number.  ``fn`` itself runs unchanged.
    """
    return _differentiate(fn, wrt, with_value=False)


def value_and_grad(fn, wrt=None):
    """Like ``grad``, but the function returns ``(float(fn(...)), gradient)``."""
    return _differentiate(fn, wrt, with_value=True)
