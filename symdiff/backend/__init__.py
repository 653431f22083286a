"""The back end: ``to_python`` (the sweeps' IR as a Python tree), ``syntax`` (tree
helpers), ``printer`` with ``tokens``, ``parentheses`` and ``linebreaks`` (the text),
``bindings`` (what the text imports and binds), ``emit``, ``compile`` (a live function),
``travel`` (pickling) and ``display`` (notebooks).
"""
