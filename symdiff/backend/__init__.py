"""The back end, from the Python tree ``backend.to_python`` writes of the sweeps: ``printer``
with ``tokens``, ``parentheses`` and ``linebreaks`` (the text), ``bindings`` (what the text
imports and binds), ``emit``, ``compile`` (a live function), ``travel`` (pickling) and
``display`` (notebooks).
"""
