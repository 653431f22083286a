"""Element names: the name lowering gives the value it reads out of a container.

Expects the syntax of the read (``xs[0]``, ``p["w"]``, ``layers[i][1]``) and the IR
path of its indices.  Guarantees an identifier made of the container's name and each
index (a name's, a constant's; ``last`` for -1), which lowering makes fresh.

    >>> import ast
    >>> from symdiff.ir import nodes as ir
    >>> element_name(ast.parse("layers[i][-1]").body[0].value, (ir.Var("i"), ir.Const(-1)))
    'layers_i_last'
"""

import ast

from symdiff.ir import nodes as ir


def element_name(node, path):
    """A name for the element ``node`` reads: ``xs[0]`` -> ``xs_0``, ``xs[-1]`` ->
    ``xs_last``, ``layers[i][1]`` -> ``layers_i_1``, ``p["w"]`` and ``p.w`` -> ``p_w``."""
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        node = node.value
    parts = [node.id if isinstance(node, ast.Name) else "element"]
    for index in path:
        value = index.name if isinstance(index, ir.Var) else index.value
        if value == -1:
            value = "last"
        elif isinstance(value, int) and value < 0:
            value = f"last{-value}"
        value = str(value)
        parts.append(value if value.isidentifier() or value.isdigit() else "item")
    return "_".join(parts)
