"""Code written for autograd read as the NumPy it wraps, by the sympy witness.

``autograd.numpy.exp`` is autograd's wrapper of ``numpy.exp`` (its ``fun``); a function
autograd writes in Python over its primitives (``autograd.numpy.mean``) stands for the
NumPy function of the same name.  Guarantees ``unwrapped(func)``: (whether ``func`` is one
of autograd's, the NumPy or SciPy function it stands for), and ``(False, func)`` for
anything else.
"""

import importlib


def unwrapped(func):
    """(whether ``func`` is autograd's wrapper of a function, the function it wraps)."""
    module = getattr(func, "__module__", None) or ""
    inner = getattr(func, "fun", None)
    if module.split(".")[0] != "autograd":
        return False, func
    if callable(inner):
        return True, inner
    # a function autograd writes in Python over its primitives (``autograd.numpy.mean``):
    # the NumPy function of the same name
    twin = _numpy_twin(module, getattr(func, "__name__", None))
    return (True, twin) if twin is not None else (False, func)


def _numpy_twin(module, name):
    """The function ``name`` of the NumPy (SciPy) module that autograd's ``module``
    stands for, or None."""
    place = module.split(".")[1:2]
    target = {"numpy": "numpy", "scipy": "scipy"}.get(place[0] if place else "")
    if target is None or not name:
        return None
    try:
        found = getattr(importlib.import_module(target), name, None)
    except ImportError:
        return None
    return found if callable(found) else None
