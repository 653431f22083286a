"""Functions generated code defines for itself: the derivatives of the gamma family.

Expects nothing; guarantees, for each helper, the source text of one plain ``def``
in the language symdiff reads (so a generated gradient that calls it can be
differentiated again), using only ``math`` and builtins, so generated code that
calls it stays standalone.  A rule's partial names a helper by its key (``digamma(x)``);
the writer gives it a fresh name where the user's code has taken that one, and
``emit`` writes the definition above the generated function.  On arrays a helper is
SciPy's function of each element (``ON_ARRAYS``), imported where generated code reads it:

    emitted: from scipy.special import digamma
             def grad_f(k, r): ... dr = dresult * digamma(r) ...

    rules:   "lgamma": partial "digamma(x)"
    emitted: def digamma(x): ...            (once, above grad_f)
             def grad_f(n, rate): ... dn = dresult * digamma(n) ...

Both functions shift the argument up by the recurrence until it is at least 10, then
sum the asymptotic series (its terms fall below 1e-16 of the value there), and reflect
a negative argument through ``pi / tan(pi x)``: accurate to a few ulps away from the
zeros of the function (measured against mpmath in ``tests/primitives/test_special.py``).  At a pole
(0, -1, -2, ...) the function the gradient differentiates (``lgamma``, ``gamma``)
raises first; the helpers themselves return ``nan`` there and at ``-inf``.
"""

import ast

DIGAMMA = '''
def digamma(x):
    """psi(x) = d/dx lgamma(x): recurrence up to 10, then the asymptotic series."""
    if x == -math.inf or (x <= 0.0 and x == math.floor(x)):
        return math.nan
    result = 0.0
    if x < 0.0:
        r = x - round(x)
        result = -math.pi / math.tan(math.pi * r)
        x = 1.0 - x
    while x < 10.0:
        result -= 1.0 / x
        x += 1.0
    t = 1.0 / (x * x)
    s = 0.021092796092796094 - t * 0.08333333333333333
    s = 0.007575757575757576 - t * s
    s = 0.004166666666666667 - t * s
    s = 0.003968253968253968 - t * s
    s = 0.008333333333333333 - t * s
    s = 0.08333333333333333 - t * s
    return result + (math.log(x) - 0.5 / x - t * s)
'''

TRIGAMMA = '''
def trigamma(x):
    """psi'(x): recurrence up to 10, then the asymptotic series."""
    if x == -math.inf or (x <= 0.0 and x == math.floor(x)):
        return math.nan
    result = 0.0
    if x < 0.0:
        r = x - round(x)
        q = math.pi / math.sin(math.pi * r)
        result = q * q
        x = 1.0 - x
        sign = -1.0
    else:
        sign = 1.0
    total = 0.0
    while x < 10.0:
        total += 1.0 / x / x
        x += 1.0
    t = 1.0 / (x * x)
    s = 1.1666666666666667 - t * 7.092156862745098
    s = 0.2531135531135531 - t * s
    s = 0.07575757575757576 - t * s
    s = 0.03333333333333333 - t * s
    s = 0.023809523809523808 - t * s
    s = 0.03333333333333333 - t * s
    s = 0.16666666666666666 - t * s
    return result + sign * (total + (1.0 + t * s) / x + 0.5 * t)
'''

HELPERS = {"digamma": DIGAMMA, "trigamma": TRIGAMMA}
# on arrays, a helper is SciPy's function of each element, imported by generated code
# (its operands are arrays only where the user's code called SciPy's gammaln or digamma
# of them); trigamma there is the Hurwitz zeta ``zeta(2.0, x)`` (``scipy``'s digamma
# record), which keeps float32 where ``polygamma(1, x)`` gives float64; zeta, which has no
# helper of its own, is SciPy's on numbers too (reached only where the user's code calls
# SciPy: its own record, ``scipy.special.zeta``, or digamma's on arrays)
ON_ARRAYS = {"digamma": ("scipy.special", "digamma"), "zeta": ("scipy.special", "zeta")}


def definition(key, name, math_name, builtins=None):
    """The ``def`` of helper ``key`` named ``name``, reading ``math`` as ``math_name`` and
    each builtin by its alias in ``builtins`` (where the user's code shadows it)."""
    function = ast.parse(HELPERS[key]).body[0]
    function.name = name
    renames = dict(builtins or {}, math=math_name)
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and node.id in renames:
            node.id = renames[node.id]
    return function
