"""Draws: a random generator's methods and ``np.random``'s functions, as records of
``primitives.random``.

Expects a ``Frame`` and a call.  ``is_draw`` says whether the call draws: a method of a
parameter given a NumPy ``Generator`` or of a name ``np.random.default_rng(seed)``
gave, or a function of ``np.random``.  ``draw`` emits one ``Assign`` of the draw's
record, its operands evaluated in the order Python evaluates them, its ``size`` read as
written:

    rng.normal(size=3)                    ->  draw_normal_1(rng, 0.0, 1.0, 3)
    rng.uniform(-1.0, 1.0, (n, d))        ->  draw_uniform_2(rng, -1.0, 1.0, n, d)
    rng.standard_normal(x.shape)          ->  draw_standard_normal_as(rng, x)
    np.random.randn(n, 2)                 ->  legacy_randn_2(n, 2)
    rng = np.random.default_rng(seed)     ->  default_rng(seed)

Guarantees a located ``SymdiffError`` for any other random call (naming the draw, with a
hint), for a size not written as those, and for a draw's parameter (``loc``, ``scale``)
given anything but a constant: a draw has no derivative in it, so the reparameterized
form (``mu + sigma * rng.standard_normal(n)``) is the way to differentiate through it.
"""

import ast
import functools

from symdiff.errors import UnknownFunctionError, UnsupportedSyntaxError
from symdiff.ir import nodes as ir
from symdiff.lower import names, operands
from symdiff.lower.spellings import spelling
from symdiff.primitives.random import DRAWS, LEGACY, SIZES, SPREAD, draw_name

_LISTED = ", ".join(sorted(DRAWS) + ["permutation"])
_LISTED_LEGACY = ", ".join(sorted(LEGACY) + list(SPREAD) + ["seed", "default_rng"])


def is_draw(frame, call):
    """Whether the call ``call`` draws from a generator or from ``np.random``."""
    func = call.func
    return isinstance(func, ast.Attribute) and (_generator(frame, func.value) is not None
                                                or _is_numpy_random(frame, func.value))


def _generator(frame, node):
    """The operand of the generator ``node`` names, or None."""
    if not isinstance(node, ast.Name) or names.scope_of(frame, node.id) is None:
        return None
    operand = frame.mapping.get(node.id)
    return operand if isinstance(operand, ir.Var) and (
        operand.name in frame.unit.generators) else None


def _is_numpy_random(frame, node):
    if not (isinstance(node, ast.Attribute) and node.attr == "random" and isinstance(
            node.value, ast.Name)) or names.scope_of(frame, node.value.id) is not None:
        return False
    meant = names.meaning_of(frame, node.value.id, node.value)
    return meant.kind == "module" and meant.value == "numpy"


def draw(frame, call, target):
    """Emit the draw ``call``; its result operand."""
    func, shown = call.func, ast.unparse(call.func)
    rng = _generator(frame, func.value)
    if rng is None:
        return _module_call(frame, call, shown, target)
    if func.attr == "permutation":
        args = _bound(frame, call, shown, (("x", ...),), sized=False)
        return operands.emit_op(frame, "draw_permutation", [rng] + args, target)
    if func.attr not in DRAWS:
        raise frame.error(UnknownFunctionError, call, f"{shown}: {func.attr} is not a draw "
                          "symdiff reads", f"draw with one of {_LISTED}")
    args = _bound(frame, call, shown, DRAWS[func.attr][0])
    *values, count = args
    return operands.emit_op(frame, draw_name("draw", func.attr, count), [rng] + values, target)


def _module_call(frame, call, shown, target):
    """A function of ``np.random`` called (``call.func`` is ``np.random.<attr>``)."""
    attr = call.func.attr
    module = spelling(frame, call.func.value)[2]  # the name generated code calls numpy by
    emit = functools.partial(operands.emit_op, module=module)
    if attr == "default_rng":
        args = _bound(frame, call, shown, (("seed", None),), sized=False, constants=False)
        made = emit(frame, "default_rng", args, target)
        frame.unit.generators.add(made.name)
        return made
    if attr == "seed":
        args = _bound(frame, call, shown, (("seed", None),), sized=False, constants=False)
        return emit(frame, "legacy_seed", args, target)
    if attr in SPREAD:
        if call.keywords or len(call.args) > SIZES:
            raise frame.error(UnsupportedSyntaxError, call, f"{shown} takes at most {SIZES} "
                              "sizes, by position", f"write them out: {shown}(n, 3)")
        sizes = [frame.value(a) for a in call.args]
        return emit(frame, draw_name("legacy", attr, len(sizes)), sizes, target)
    if attr not in LEGACY:
        raise frame.error(UnknownFunctionError, call, f"{shown} is not a draw symdiff reads",
                          f"draw with a generator (rng = np.random.default_rng(seed); "
                          f"rng.normal(size=n)) or one of np.random's {_LISTED_LEGACY}")
    *values, count = _bound(frame, call, shown, LEGACY[attr][0])
    return emit(frame, draw_name("legacy", attr, count), values, target)


def _bound(frame, call, shown, params, sized=True, constants=True):
    """The operands of ``call``'s arguments for ``params`` (then ``size`` where ``sized``),
    evaluated in source order, followed by the size's operands and their count (None: an
    array's shape); a parameter with a float default takes a constant where ``constants``."""
    given = _given(frame, call, shown, [p for p, _ in params] + ["size"] * sized)
    sizes, count = _size_nodes(frame, given.get("size"), shown) if sized else ([], 0)
    written = list(call.args) + [k.value for k in call.keywords]
    order = {id(n): i for i, n in enumerate(written)}
    order.update((id(n), order[id(given["size"])]) for n in sizes)  # where the size stands
    evaluated = {}
    for node in sorted([given[p] for p, _ in params if p in given] + sizes,
                       key=lambda n: order[id(n)]):
        evaluated[id(node)] = _operand(frame, node, dict(params), given, shown, constants)
    values = []
    for p, default in params:
        if p in given:
            values.append(evaluated[id(given[p])])
        elif default is ...:
            raise frame.error(UnsupportedSyntaxError, call, f"{shown} takes its {p}",
                              f"pass it: {shown}({p}, ...)")
        else:
            values.append(ir.Const(default))
    return values + [evaluated[id(n)] for n in sizes] + ([count] if sized else [])


def _given(frame, call, shown, params):
    """``{parameter: argument node}`` of ``call``, by position and by keyword."""
    if len(call.args) > len(params):
        raise frame.error(UnsupportedSyntaxError, call, f"{shown} takes {len(params)} "
                          f"arguments here, not {len(call.args)}",
                          f"its parameters are {', '.join(params)}")
    given = dict(zip(params, call.args))
    for keyword in call.keywords:
        if keyword.arg not in params or keyword.arg in given:
            raise frame.error(UnsupportedSyntaxError, keyword if keyword.arg else call,
                              f"{shown} takes no keyword argument {keyword.arg!r} here",
                              f"its parameters are {', '.join(params)}")
        given[keyword.arg] = keyword.value
    return given


def _size_nodes(frame, size, shown):
    """The nodes of a draw's sizes, and their count (None: ``x.shape``, the node ``x``)."""
    if size is None or isinstance(size, ast.Constant) and size.value is None:
        return [], 0
    if isinstance(size, ast.Attribute) and size.attr == "shape":
        return [size.value], None
    if isinstance(size, (ast.Tuple, ast.List)):
        if len(size.elts) > SIZES or any(isinstance(e, ast.Starred) for e in size.elts):
            raise frame.error(UnsupportedSyntaxError, size, f"{shown}: a size of at most "
                              f"{SIZES} sizes written out is supported",
                              "write the sizes out: size=(n, 3), or size=x.shape")
        return list(size.elts), len(size.elts)
    if isinstance(size, ast.BinOp) and any(isinstance(side, ast.Tuple) or isinstance(
            side, ast.Attribute) and side.attr == "shape" for side in (size.left, size.right)):
        raise frame.error(UnsupportedSyntaxError, size, f"{shown}: a size made by joining "
                          "shapes is not supported", "write the sizes out: "
                          "size=(16, x.shape[0]), or size=x.shape")
    return [size], 1


def _operand(frame, node, params, given, shown, constants):
    """A draw's operand: a size or a parameter without a default read as it is; a
    parameter with one (``loc``, ``scale``) only as a constant."""
    param = next((p for p, n in given.items() if n is node and p != "size"), None)
    if param is None or not isinstance(params.get(param), float) or not constants:
        return frame.value(node)
    value = _constant(node)
    if value is None:
        raise frame.error(UnsupportedSyntaxError, node, f"{shown}: its {param} here is not a "
                          "constant; a draw has no derivative in its parameters",
                          "draw a standard one and shift and scale it, which differentiates: "
                          "mu + sigma * rng.standard_normal(n), low + (high - low) * "
                          "rng.random(n)")
    return ir.Const(value)


def _constant(node):
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _constant(node.operand)
        return None if inner is None else -inner
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return node.value
    return None
