"""The independent witnesses symdiff's output is checked against.

Expects nothing of symdiff's generator.  Guarantees three ways to a derivative that share
no rule with it, and none with each other:

- ``tape``: the tape engine, which runs the user's unchanged function on Values that
  record their computation (public as ``symdiff.tape``);
- ``symbolic``: the user's function read over sympy values, differentiated by sympy
  (public as ``symdiff.symbolic`` and ``symdiff.symbolic_grad``); sympy is imported only
  when it is used;
- ``finite``: central differences of the function itself.

Each reads tuples, lists and dicts of numbers with its own few lines of traversal (none
imports ``symdiff.checking.leaves``), and gives a container parameter's gradient in its
structure.  ``deadline`` runs the sympy witness within a time budget.  What these modules may import
from the rest of symdiff is listed, with a reason each, in
``tests/witnesses/test_independence.py``.
"""
