"""Automatic differentiation of a Program into sweeps written as IR: ``reverse`` (the
forward and reverse sweeps, with ``control`` for branches and loops and ``adjoints`` for
their accumulation), ``writer`` (a rule's partials as statements), ``taping`` (how
overwritten values come back for the reverse sweep) and ``forward`` (tangents).
"""
