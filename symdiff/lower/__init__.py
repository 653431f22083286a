"""Lowering: a fenced function -> a Program of single-operation statements
(normalize and the units it is made of), then hoisting of loop invariants.
"""
