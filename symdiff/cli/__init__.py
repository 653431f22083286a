"""The command line: symdiff show | check | graph.
"""
