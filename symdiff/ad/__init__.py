"""Automatic differentiation of a Program into sweeps written as IR: ``reverse`` (the
forward and reverse sweeps, with ``control`` for branches and loops and ``adjoints`` for
their accumulation), ``writer`` (names, rules' forward texts and comments), ``taping``
(how overwritten values come back for the reverse sweep), ``containers`` and ``changes``
(container statements), ``facts`` (what the sweeps know of containers, found before) and
``forward`` (tangents).  Every derivative is read from the registry's records, as their
per-argument VJP and JVP builders (``primitives.derivatives``, ``primitives.containers``).
"""
