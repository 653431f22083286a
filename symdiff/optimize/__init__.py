"""Exact rewrites of generated code: folding, copy propagation, reuse, fusing
single uses and dropping dead statements.
"""
