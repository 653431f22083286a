"""Keys: what a dict is read by, a constant key or a loop's variable over its keys.

Expects a ``Frame`` and a subscript of a dict whose kind (``core.types.Dict``) lowering
knows.  Guarantees the index operand of the read: a ``Const`` of a string key it has
(written out, or a name holding a string constant), or a value known only when the
gradient runs (``scale[mode]``, ``mode`` a string passed in; the variable of a loop over
the keys of a dict, ``for k in params: params[k] - lr * grads[k]``, whose keys must then
all be this one's), where the dict's values are all of one kind, so one type stands for
every entry the key may read; the read is made as the gradient runs, which raises
``KeyError`` where Python does, and its adjoint is added at that key.  Anything else is
a located ``UnsupportedSyntaxError`` whose hint says what to write: a key the dict has
not, a dict read by position (a constant that is not a string), a loop over keys this
dict lacks, and a key known only when the gradient runs into a dict whose values differ
in kind (a number under one key, a list under another), read each by its key.

    scale = {"a": x * y, "b": x + y}        scale_name = scale[name]
    return scale[name] * x           ->     dscale[name] += x
"""

import ast

from symdiff.errors import UnsupportedSyntaxError
from symdiff.ir import nodes as ir
from symdiff.core.types import element


def dict_key(frame, node, kind):
    """The key ``node`` reads the dict of type ``kind`` by: a string constant (written
    out, or a name holding one), or a value read as the gradient runs (a loop's variable
    over the keys of a dict whose keys are all this one's, a string passed in), when its
    values are all of one kind (``p[k]``, ``grads[k]``, ``scale[mode]``)."""
    index = node.slice
    operand = ir.Const(index.value) if isinstance(index, ast.Constant) else frame.value(index)
    every = ", ".join(f"{ast.unparse(node.value)}[{k!r}]" for k, _ in kind.items)
    if isinstance(operand, ir.Const) and isinstance(operand.value, str):
        if element(kind, operand.value) is None:
            raise frame.error(UnsupportedSyntaxError, index, f"the dict has no key "
                              f"{operand.value!r}", "read one of its keys: " + ", ".join(
                                  repr(k) for k, _ in kind.items))
        return ir.Const(operand.value)
    if not isinstance(operand, ir.Var):
        raise frame.error(UnsupportedSyntaxError, index, "a dict is read by position or by a "
                          "key that is not one of its keys", "read each entry by its key "
                          "written out (" + every + "), or by a loop's variable over its keys")
    keys = frame.unit.keys.get(operand.name, ())  # a loop's, or any (a string passed in)
    missing = [k for k in keys if element(kind, k) is None]
    if missing:
        raise frame.error(UnsupportedSyntaxError, index, f"the loop's keys include "
                          f"{missing[0]!r}, which this dict does not have", "loop over the "
                          "keys of this dict, or of one with the same keys")
    if element(kind, None) is None:
        raise frame.error(UnsupportedSyntaxError, index, f"a {kind} is read by a key known "
                          "only when the gradient runs, and its values differ in kind",
                          "read each entry by its key written out: " + every)
    return operand
