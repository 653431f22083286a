"""symdiff.check: the generated gradient against the tape, sympy and finite
differences, and the divergence locator.
"""
