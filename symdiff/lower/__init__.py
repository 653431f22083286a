"""Lowering: a fenced function -> a Program of single-operation statements.

``desugar`` first says in one way what Python says in several; ``normalize`` then lowers
the function with a ``Frame`` per body (``frame``), whose units are functions of it:
``statements``, ``loops`` and ``control`` (exits and their guards) for statements,
``expressions``, ``calls``, ``names``, ``tables`` and ``operands`` for expressions,
``checks`` for ``raise`` and ``assert``, ``inline`` for function bodies and the helpers
inlined into them, ``scope`` for what all frames share; ``spelling`` marks the
operations that compute as numpy does; ``hoist`` moves loop invariants out, after.
"""
