"""Spellings: how generated code names a primitive the user called, as the user's code
names it, so NumPy's and SciPy's functions are computed by NumPy and SciPy to the last
bit, and math's by math.

Expects a ``Frame`` and the ``func`` node of a call of a primitive.  Guarantees
``spelled(frame, func)``: the keywords ``operands.emit_op`` takes for it (``family``,
``call``, ``module``); a function passed as a value (``act(z)`` where ``act`` holds
``np.tanh``) is spelled as the module it is of computes it (``passed_spelling``: NumPy's
through numpy, SciPy's by its name, math's by the registry).

    np.tanh(x)        ->  {"family": "numpy", "call": "np.tanh", "module": "np"}
    math.sin(x)       ->  {"family": "math", "call": None, "module": None}
    norm.cdf(x)       ->  {"family": None, "call": "norm.cdf", "module": None}
"""

import ast
import sys

from symdiff.frontend.resolve import lookup
from symdiff.lower import names


def numpy_spelling(frame, func):
    """How generated code names a numpy or scipy function the user called (``np.tanh``,
    ``norm.cdf``, ``st.norm.cdf``, ``gammaln``); None for math's and the builtins."""
    root = func
    while isinstance(root, ast.Attribute):
        root = root.value
    if names.scope_of(frame, root.id) is not None:  # a function passed as a value
        return None
    found = lookup(root.id, frame.parsed.closure, frame.parsed.globals)
    if isinstance(func, ast.Attribute):
        base = names.meaning_of(frame, root.id, root)
        if base.value != "numpy" and not _is_scipy(found):
            return None
        path = ast.unparse(func).split(".", 1)[1]
        return f"{frame.unit.global_name(root.id, found)}.{path}"
    if type(found).__module__ == "numpy" and type(found).__name__ == "ufunc":
        return frame.unit.global_name(func.id, found)
    return None


def spelled(frame, func):
    """The family of names ``func`` calls a primitive by, and the text that computes it
    where numpy or scipy does, as the user's code calls it: ``emit_op``'s spelling."""
    family, call, module = spelling(frame, func)
    return {"family": family, "call": numpy_spelling(frame, func) or call, "module": module}


def spelling(frame, func):
    """``(family, call, module)`` of a primitive the user called: "numpy" with the
    text generated code calls it by and the name it calls numpy by (computed by
    numpy as the user's code does, to the last bit); "math" for math's; else None."""
    if isinstance(func, ast.Attribute):
        if not isinstance(func.value, ast.Name):
            return None, None, None  # scipy.stats.norm.cdf: computed as scipy does
        base = names.meaning_of(frame, func.value.id, func.value)
        if base.value == "math":
            return "math", None, None
        if base.value != "numpy":
            return None, None, None
        module = lookup(func.value.id, frame.parsed.closure, frame.parsed.globals)
        name = frame.unit.global_name(func.value.id, module)
        return "numpy", f"{name}.{func.attr}", name
    if names.scope_of(frame, func.id) is not None:  # a function passed as a value
        return passed_spelling(frame, names.meaning_of(frame, func.id, func).held)
    found = lookup(func.id, frame.parsed.closure, frame.parsed.globals)
    if getattr(found, "__module__", None) == "math":
        return "math", None, None
    numpy = sys.modules.get("numpy")
    if numpy is not None and (isinstance(found, numpy.ufunc) or str(
            getattr(found, "__module__", "")).startswith("numpy")):
        return "numpy", frame.unit.global_name(func.id, found), frame.unit.global_name(
            "np", numpy)
    return None, None, None


def passed_spelling(frame, held):
    """``(family, call, module)`` of the primitive function ``held`` passed as a value
    (``act=np.tanh``): NumPy's called through numpy (``np.tanh``), SciPy's by its own
    name (``expit``, imported by the header), math's by the registry; all None for a
    function of none of them (a builtin: ``abs``)."""
    numpy = sys.modules.get("numpy")
    module = getattr(held, "__module__", None) or ""
    if module == "math":
        return "math", None, None
    if numpy is not None and held is not None and (isinstance(held, numpy.ufunc) or (
            module.startswith("numpy"))):
        np_name = frame.unit.global_name("np", numpy)
        name = getattr(held, "__name__", None)
        found = name and getattr(numpy, name, None) is held
        call = f"{np_name}.{name}" if found else frame.unit.global_name(name, held)
        return "numpy", call, np_name
    if _is_scipy(held):
        return None, frame.unit.global_name(held.__name__, held), None
    return None, None, None


def scipy_spelling(frame, func):
    """The text generated code calls a SciPy function by, as the user's code names it
    (``logsumexp``, ``sp.logsumexp``)."""
    if isinstance(func, ast.Name) and names.scope_of(frame, func.id) is not None:
        return passed_spelling(frame, names.meaning_of(frame, func.id, func).held)[1]
    if isinstance(func, ast.Name):
        found = lookup(func.id, frame.parsed.closure, frame.parsed.globals)
        return frame.unit.global_name(func.id, found)
    return numpy_spelling(frame, func)


def _is_scipy(obj):
    """SciPy, one of its modules, or an object of one (``scipy.stats.norm``)."""
    module = getattr(obj, "__name__", "") if isinstance(obj, type(ast)) else (
        type(obj).__module__)
    return module.partition(".")[0] == "scipy"
