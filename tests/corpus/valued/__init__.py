"""The corpus of functions whose result is not one number (``results``): what
``symdiff.vjp`` differentiates (``tests/end_to_end/test_vjp.py``).

``VALUED_CASES`` maps a function's label to its ``corpus.arrays.case.Case``.  The table
is not named ``CASES`` on purpose, as the array corpus's is not: the IR evaluator's tests
run the ``CASES`` of the modules directly in ``corpus/``, on number results.
"""

from . import results

VALUED_CASES = {case.label: case for case in results.CASES}
