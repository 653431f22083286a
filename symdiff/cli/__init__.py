"""The command line, ``symdiff show | check | graph``: ``main``, ``arguments``,
``points`` (``--at``'s Python literals), ``loading`` (imported or read statically), ``commands``, ``terminal``, ``debug`` (each
stage's IR) and ``errors`` (user errors exit 2, symdiff's own bugs 3).
"""
