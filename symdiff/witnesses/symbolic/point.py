"""Numbers at a point: the float a sympy expression takes where its symbols have values.

Expects a sympy expression and a point ({Symbol: Float}).  Guarantees ``_evaluate``: the
float, or ``_NoNumber`` (``needs_point`` when a symbol has no value, else the value is
complex or undefined there).  ``_fold`` visits each shared subexpression once, bottom up
and without recursion (``evalf`` walks the whole, exponentially larger, tree of an
unrolled loop).

    _evaluate(sin(x) * x, {x: Float(2.0)}, {})  -> 1.8185948536513634
"""

class _NoNumber(Exception):
    """No real value: ``needs_point`` if a symbol has none, else complex or undefined."""

    def __init__(self, needs_point=False):
        super().__init__()
        self.needs_point = needs_point


def _fold(expr, memo, leaf, combine):
    """``combine(node, results for its args)`` bottom-up over ``expr``, memoized.

    Each shared subexpression is visited once, iteratively (no recursion limit).
    """
    stack = [(expr, False)]
    while stack:
        node, ready = stack.pop()
        if node in memo:
            continue
        if ready:
            memo[node] = combine(node, [memo[arg] for arg in node.args])
        elif node.args:
            stack.append((node, True))
            stack.extend((arg, False) for arg in node.args if arg not in memo)
        else:
            memo[node] = leaf(node)
    return memo[expr]


def _as_number(node, args=None):
    """``node``, rebuilt on the numbers ``args`` if given, as a sympy number."""
    try:
        value = node if args is None else node.func(*args)
        value = value if value.is_Number else value.evalf()
    except (AttributeError, TypeError, ValueError, ZeroDivisionError):
        raise _NoNumber from None
    if not value.is_Number:
        raise _NoNumber
    return value


def _evaluate(expr, point, memo):
    """The float ``expr`` takes at ``point`` ({Symbol: Float}); ``memo`` caches nodes."""
    def leaf(node):
        if node.is_Symbol and node not in point:
            raise _NoNumber(needs_point=True)
        return point[node] if node.is_Symbol else _as_number(node)

    return float(_fold(expr, memo, leaf, _as_number))

