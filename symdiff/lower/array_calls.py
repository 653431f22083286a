"""Array calls that write their sizes or their arrays out: one record per count.

Expects a call (``ast.Call``) of an array operation ``op`` whose sizes or values
``registry.array_written`` says it writes out.  Guarantees ``written_out``: the op
of their count and the call with them spread as its arguments, or None where ``op``
is not such an operation (or, for ``x.transpose()``, writes no axes); a located
error where they are not written out:

    np.reshape(x, (n, -1))        ->  reshape_2, numpy.reshape(x, n, -1)
    x.reshape(n, -1)              ->  reshape_2 (the sizes as they are)
    np.zeros((n, 3)), np.zeros(n) ->  zeros_2, zeros_1
    np.zeros(x.shape)             ->  zeros_as, numpy.zeros(x)   (x.reshape(y.shape): reshape_as)
    np.concatenate([a, b], axis=1)->  concatenate_2, numpy.concatenate(a, b, axis=1)
    np.concatenate([a, b], axis=None) -> concatenate_2, numpy.concatenate(a.ravel(), b.ravel())
    np.pad(x, ((1, 0), (0, n)))   ->  pad_2, numpy.pad(x, 1, 0, 0, n)   (np.pad(x, (1, 0)): pad_1)
    np.array(x)                   ->  array_value (of one value, a float or an array)
    np.array([[a, b], [c, d]])    ->  array_2, numpy.array(numpy.array([a, b]), numpy.array([c, d]))
"""

import ast

from symdiff.errors import UnsupportedSyntaxError
from symdiff.primitives.registry import array_written


def written_out(frame, op, call, shown):
    found = array_written(op)
    if found is None:
        return None
    head, at, how = found
    args = list(call.args)
    if head == "array" and len(args) == 1 and not call.keywords and not isinstance(
            args[0], (ast.List, ast.Tuple, ast.Starred)):
        return "array_value", call  # ``np.array(x)`` of one value: a new array of it
    if len(args) <= at:
        if head == "transpose_axes":
            return None
        raise frame.error(UnsupportedSyntaxError, call, f"{shown} takes its "
                          f"{'sizes' if how != 'list' else 'arrays'} here",
                          f"write them out: {_example(head)}")
    given = args[at]
    if head in _AS and isinstance(given, ast.Attribute) and given.attr == "shape" and (
            how == "shape" or len(args) == at + 1):  # ``np.zeros(x.shape)``: zeros_as(x)
        spread = ast.Call(call.func, args[:at] + [given.value] + args[at + 1:], call.keywords)
        return f"{head}_as", ast.copy_location(spread, call)
    if how == "pairs":
        items = _pairs(given)
        if items is None:
            raise frame.error(UnsupportedSyntaxError, given, f"{shown} takes its widths "
                              "written out here", f"write them out: {_example(head)}")
        spread = ast.Call(call.func, args[:at] + items + args[at + 1:], call.keywords)
        return f"{head}_{len(items) // 2}", ast.copy_location(spread, call)
    if how == "lists":  # ``np.select([c0, c1], [a, b])``: two lists of one length
        items = _lists(args[at:at + 2])
        if items is None:
            raise frame.error(UnsupportedSyntaxError, given, f"{shown} takes its conditions "
                              "and choices written out here", f"write them out: {_example(head)}")
        spread = ast.Call(call.func, args[:at] + items + args[at + 2:], call.keywords)
        return f"{head}_{len(items)}", ast.copy_location(spread, call)
    if how == "rest" and len(args) > at + 1 or how in ("rest", "shape") and not isinstance(
            given, (ast.Tuple, ast.List)):
        items = args[at:] if how == "rest" else [given]
        rest = [] if how == "rest" else args[at + 1:]
    elif isinstance(given, (ast.Tuple, ast.List)) and not any(
            isinstance(e, ast.Starred) for e in given.elts):
        items, rest = list(given.elts), args[at + 1:]
    else:
        raise frame.error(UnsupportedSyntaxError, given, f"{shown} takes its "
                          f"{'sizes' if how != 'list' else 'arrays'} written out here",
                          f"write them out: {_example(head)}")
    if not items:
        raise frame.error(UnsupportedSyntaxError, call, f"{shown} of nothing is not "
                          "supported", f"write them out: {_example(head)}")
    if head == "concatenate" and _flat(call):  # ``axis=None``: the arrays flat, joined
        items = [ast.copy_location(ast.Call(ast.Attribute(e, "ravel", ast.Load()), [], []), e)
                 for e in items]
        call = ast.copy_location(ast.Call(call.func, call.args, [
            k for k in call.keywords if k.arg != "axis"]), call)
        rest = rest[1:] if rest else rest  # ``np.concatenate([a, b], None)``
    if head == "array":  # ``np.array([[a, b], [c, d]])``: each row an array of its own
        items = [_row(call, e) if isinstance(e, (ast.List, ast.Tuple)) and not any(
            isinstance(v, ast.Starred) for v in e.elts) else e for e in items]
    spread = ast.Call(call.func, args[:at] + items + rest, call.keywords)
    return f"{head}_{len(items)}", ast.copy_location(spread, call)


def _flat(call):
    """Whether ``call`` says ``axis=None`` (by keyword, or by position after its arrays)."""
    given = [k.value for k in call.keywords if k.arg == "axis"] + list(call.args[1:2])
    return bool(given) and isinstance(given[0], ast.Constant) and given[0].value is None


def _row(call, row):
    """``np.array(row)`` of a row written out (``[c, -s]`` of ``[[c, -s], [s, c]]``),
    called as the user's call names numpy: the same numbers, stacked by the outer call."""
    inner = ast.Call(call.func, [row], [])
    return ast.copy_location(inner, row)


def _pairs(given):
    """The widths ``np.pad`` is given, pair by pair: ``(1, 0)`` and ``((1, 0),)`` one pair
    for every axis, ``((1, 0), (0, 2))`` one per axis, ``n`` the pair ``(n, n)``."""
    if not isinstance(given, (ast.Tuple, ast.List)):
        return [given, given]
    elts = list(given.elts)
    if all(isinstance(e, (ast.Tuple, ast.List)) and len(e.elts) == 2 for e in elts) and elts:
        return [w for e in elts for w in e.elts]
    if len(elts) == 2 and not any(isinstance(e, (ast.Tuple, ast.List, ast.Starred))
                                  for e in elts):
        return elts
    return None


def _lists(given):
    """The elements of two lists (or tuples) written out of one length, one after the
    other; None for any other."""
    if len(given) != 2 or not all(isinstance(g, (ast.List, ast.Tuple)) and g.elts and not any(
            isinstance(e, ast.Starred) for e in g.elts) for g in given) or len(
            given[0].elts) != len(given[1].elts):
        return None
    return list(given[0].elts) + list(given[1].elts)


_AS = ("reshape", "zeros", "ones", "full", "broadcast_to")  # that take another array's ``.shape``


def _example(head):
    return {"reshape": "x.reshape(n, -1)", "transpose_axes": "x.transpose(1, 0)",
            "zeros": "np.zeros((n, 3))", "ones": "np.ones((n, 3))",
            "full": "np.full((n, 3), v)", "pad": "np.pad(x, ((1, 0), (0, 2)))",
            "select": "np.select([x > 0, x < -1], [x, -x], 0.0)"}.get(
                head, f"np.{head}([a, b])")
