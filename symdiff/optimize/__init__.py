"""Exact rewrites of generated code, run to a fixed point by ``driver``: ``fold``
(constants), ``copies`` (copy propagation), ``reuse`` (common values and accumulations),
``fuse`` (values read once, into their reader) and ``prune`` (dead statements).
"""
