"""Automatic differentiation: the forward and reverse sweeps of a Program (reverse),
tangents (forward), and how overwritten values are kept for the reverse sweep (taping).
"""
