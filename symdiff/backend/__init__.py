"""The back end: syntax helpers, the printer, emit (the text), compile (a live
function), and the function's travelling and display.
"""
