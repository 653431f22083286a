"""symdiff.tape: the tape engine, reverse-mode differentiation at run time (a witness).

A ``Value`` wraps a float and records, as it is computed, the operands it came from and
the local derivative with respect to each.  ``.backward()`` walks that record in reverse
and fills in ``.grad`` on every node.  The local derivatives are written out by hand in the
engine and nowhere else: the engine shares no rule with symdiff's generator, so a wrong rule
there shows up as a disagreement here.

    >>> x = Value(2.0)
    >>> y = x * x + sin(x)
    >>> y.backward()
    >>> x.grad                      # 2 * x + cos(x)
    3.583853163452858

``grad(fn)`` runs the user's *unchanged* function on ``Value``s: it calls a copy of ``fn``
whose globals and closure cells map ``math``, ``numpy`` and the functions imported from
them, however named, to the tape's versions.  The functions and modules of the user's
own code that ``fn`` reaches are copied the same way; the stdlib, installed libraries and
symdiff run as they are, and the user's modules are never modified.  A ``math`` function
with no derivative on the tape raises ``SymdiffError`` when handed a ``Value``.  numpy's functions
on scalars keep numpy's semantics (``np.log(0.0)`` is ``-inf``, not an error; see
``symdiff.witnesses.tape.numpy_stand_ins``), math's keep math's.  A function given its own rule with
``symdiff.defgrad`` runs by that rule, as generated code calls it.  A cache
(``functools.lru_cache``) gives way to the function inside, ``functools.partial`` and
``functools.wraps``-style decorators are run through; any other wrapper of a user
function is refused when it meets a Value.

Nothing detaches a Value in silence: ``float(v)`` (what every ``math`` function does to
its argument, so ``math.tanh(v)`` outside ``grad``) raises ``TypeError`` naming the way
out (``v.tanh()``, ``symdiff.tape.tanh(v)``, or ``symdiff.tape.grad``); ``int``,
``round``, ``math.floor`` and the like, whose derivative is 0, work on the number.  An int
too large for a float stays an exact int, so the computation on it is Python's.

Conventions at awkward points (those of JAX and PyTorch):

- ``abs``/``fabs`` have derivative 0 at 0; ``floor``, ``ceil``, ``round`` and ``//`` have
  derivative 0 (``floor``/``ceil`` return plain ints, as ``math`` does), as do numpy's
  ``sign``, ``rint``, ``heaviside`` and ``trunc``.
- ``max``/``min``, numpy's ``fmax``/``fmin`` and ``clip`` pass the gradient to the
  argument they return (``clip``: to ``x`` on the bounds themselves).
- ``x % y``: 1 with respect to ``x``, ``-(x // y)`` with respect to ``y``;
  ``fmod(x, y)``: 1 and ``-trunc(x / y)``.
- Where a local derivative divides a nonzero number by zero (``sqrt`` at 0, ``asin`` at 1,
  ``x ** 0.5`` at 0) it is ``inf``, signed like the numerator; ``0 / 0`` gives ``nan``
  (``atan2`` at the origin).  ``hypot`` at the origin has partials 0, like ``abs``.
- ``x ** y``: with respect to ``x``, ``y * x ** (y - 1)``, and 0 when ``y == 0``; with
  respect to ``y``, ``x ** y * log(x)``, 0 when ``x == 0`` and ``nan`` when ``x < 0``.
- Where the forward computation fails, the same exception as ``math`` (or plain Python
  arithmetic) is raised; a negative base to a fractional power raises ``ValueError``.
- ``lgamma`` and ``gamma`` differentiate through digamma (``polygamma``, the tape's own);
  ``factorial``, ``comb``, ``perm``, ``ulp`` and the tests ``isnan``... run on the numbers
  (no derivative); ``nextafter`` has derivative 1 in ``x``; ``remainder(x, y)``: 1 and
  ``-n`` with ``n`` the rounded quotient.
- SciPy's ``special`` functions and ``stats.norm``'s methods, when the user's code calls
  them, are computed by SciPy, with the derivatives written here; a ``scale <= 0`` gives
  ``nan`` (SciPy's value) and derivative ``nan``.

NumPy arrays: an array argument of floats (or ints) becomes an ``ArrayValue``, a NumPy
array on the tape with its own hand-written VJPs, and the gradient comes back as an array
of the parameter's shape and dtype (float64 for ints), inside tuples, lists and dicts as
numbers do.  The unchanged function runs on it: the operators (``@`` included, both
sides, in-place forms with copy semantics), comparisons giving plain bool arrays,
indexing (ints, slices with steps, ``None``, ``...``, integer arrays, masks) and writes
``x[i] = v``, NumPy's ufuncs with broadcasting, reductions with ``axis``/``keepdims``,
linear algebra and shape functions (``symdiff.witnesses.tape.array_functions`` lists
them).  A reduction to one number gives a ``Value``, so arrays and scalars mix freely.
A NumPy function with no derivative on the tape raises ``SymdiffError`` naming it, at
the user's line.  ``vjp(fn, wrt)(*args)`` gives ``(value, pullback)`` for functions
returning arrays or containers of them.

- ``max``/``min`` (the reductions) share the gradient equally among tied elements (as
  JAX); ``np.maximum``/``np.minimum``/``np.clip`` pass it, elementwise, to the argument
  returned (the first on a tie), as for scalars; ``abs``, ``sign`` and ``norm`` have
  gradient 0 at 0, ``sqrt`` ``inf``; ``prod`` is exact at zeros; ``cholesky``'s VJP is
  the symmetric one (NumPy reads the lower triangle).

This module is the engine's public name and only re-exports it.  The engine lives in
``symdiff.witnesses.tape`` (``value``, the function families ``math_functions``,
``numpy_functions`` and ``scipy_functions``, ``stand_ins``, ``running``, ``gradients``,
``pullbacks``, and the array modules ``arrays``, ``array_*``),
which imports nothing of symdiff's generator.
"""

from symdiff.witnesses.tape import *  # noqa: F403 (the engine's __all__, re-exported)
from symdiff.witnesses.tape import __all__, on_numbers, on_values  # noqa: F401
