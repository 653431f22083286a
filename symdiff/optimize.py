"""Optimize: exact rewrites of the generated function (filled in by later passes)."""


def optimize_function(generated):
    return generated
