"""Exact rewrites of generated code, run to a fixed point by ``driver``: ``fold``
(constants), ``copies`` (copy propagation), ``reuse`` (common values and accumulations),
``fuse`` (values read once, into their reader) and ``prune`` (dead statements), on the
sweeps as IR; ``walk`` (what each statement reads and writes, rewriting expressions) and
``facts`` (what may raise, what holds a float or an int) and ``effects`` (which calls are
pure) are what they share.
"""
