"""Analyses of a Program that change nothing: ``defuse`` (the one def-use index, keyed by
statement id), ``types`` (the one type inference; ``expression_types``, an expression's), ``activity`` (what a derivative flows through)
and ``graph`` (the dependency graph ``f.graph`` shows).
"""
