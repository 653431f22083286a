"""Analyses of a Program that change nothing: activity, the dependency graph.
"""
