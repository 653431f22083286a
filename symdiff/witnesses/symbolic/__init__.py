"""The sympy witness: a user function -> its value as a sympy expression.

Expects a function in the language symdiff supports.  Guarantees a sympy
expression in real symbols named after its positional parameters, built by
interpreting the syntax tree over sympy values: the function never runs, no text
goes through ``sympify``, and no derivative comes from symdiff's rules table.

    def f(x, y):                 symbolic(f)       ->  x*y + sin(x)
        z = x * y      ──►       symbolic_grad(f)  ->  (y + cos(x), x)
        return z + math.sin(x)

Control flow is decided, not represented: an ``if``, ``while`` or ``range`` bound
that depends on the inputs is evaluated at the point ``at=``, giving the expression
valid around it; ``min``/``max`` pick the argument Python returns there (the first
on a tie, a kink).  ``abs`` differentiates to ``sign`` (0 at 0); ``floor``, ``ceil``,
``int``, ``//`` and ``%`` (``x - y*floor(x/y)``) are flat between jumps;
``stop_gradient(e)`` is ``e`` with derivative 0.  Without a point, ``min``/``max`` of
symbols stay sympy ``Min``/``Max``, whose derivatives use ``Heaviside(0) = 1/2``:
never sample a comparison at a kink.

Loops are unrolled and calls inlined: a tree over ``MAX_NODES`` nodes, or over
``MAX_ITERATIONS`` loop iterations, is refused with a ``SymdiffError``.  Numbers at
a point come from ``point``, which visits each shared subexpression once (``evalf``
walks the whole, exponentially larger, tree).

Tuples, lists and dicts are read as Python reads them (``containers``); a container
argument at the point gets one real symbol per number, named by its path (``xs_2``,
``p_w``), and its derivatives come in its structure (``arguments``).

NumPy arrays are NumPy arrays of sympy values (``arrays``): a float array argument gets
one real symbol per element (``W_1_2``), NumPy's broadcasting, views and indexing act
on them as on numbers, and NumPy's functions are read by ``numpy_calls`` (elementwise by
the scalar table, sums and rearrangements by NumPy's own code on the symbols, ``max``
and masks decided at the point, ``linalg`` by sympy's matrices); the derivatives by an
array come as an array of its shape and dtype.  A point whose arrays hold more than
``MAX_ELEMENTS`` numbers is refused.

Importing this package imports sympy; ``symdiff`` imports it only when a witness is
asked for (``symdiff.symbolic``, ``symdiff.symbolic_grad``, ``symdiff.check``).  Modules:
``values`` and ``functions`` (Python's values and functions as sympy ones),
``primitives`` (the names the witness knows), ``point`` (numbers at a point),
``expressions``, ``containers``, ``arrays``, ``numpy_calls`` and ``interpreter``
(reading a function body),
``arguments`` (the symbols of the parameters), ``build`` (these entry points).
"""


from symdiff.witnesses.symbolic.build import (MAX_ELEMENTS, evaluate, evaluate_grad, symbolic,
                                             symbolic_grad)
from symdiff.witnesses.symbolic.expressions import MAX_ITERATIONS, MAX_NODES

__all__ = ["MAX_ELEMENTS", "MAX_ITERATIONS", "MAX_NODES", "evaluate", "evaluate_grad",
           "symbolic", "symbolic_grad"]
