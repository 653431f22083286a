"""Tests of the independent witnesses (``symdiff.witnesses``): the tape engine, the sympy
interpreter, its deadline, and that none of them imports the generator."""
