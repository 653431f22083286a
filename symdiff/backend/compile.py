"""Compile: module text -> a live function, registered with ``linecache``.

Expects the text from ``emit`` and the namespace of constants it reads.
Guarantees a function whose source ``inspect.getsource`` can show and whose
tracebacks point at real lines of that text, under a stable pseudo-filename
(``<symdiff grad_f of model.py>``): the same function gives the same name, and a
second text under a name already taken (closures of one factory bind other values)
gets that name with its digest, so each function's text stays readable.
"""

import hashlib
import linecache
import types


def compile_module(text, function_name, namespace, origin_filename, variant="", parsed=None):
    """Execute ``text`` in a fresh namespace and return the function it defines.

    ``variant`` tells apart the texts generated for one function with other
    options (``wrt``, value and gradient, unoptimized), so none hides another.
    ``parsed``: the module ``ast.parse(text)`` gives (``emit_parsed``'s), compiled in
    place of the text, which is then not parsed again.
    """
    variant = f" [{variant}]" if variant else ""
    filename = f"<symdiff {function_name}{variant} of {origin_filename}>"
    held = linecache.cache.get(filename)
    if held is not None and "".join(held[2]) != text:  # another text of that name (closures
        digest = hashlib.sha1(text.encode()).hexdigest()[:10]  # of one factory): both stay
        filename = f"<symdiff {function_name}{variant} of {origin_filename} #{digest}>"
    return run_text(text, function_name, namespace, filename, parsed)


def run_text(text, function_name, namespace, filename, parsed=None):
    """``text`` registered under ``filename`` and executed: the function it defines
    (``parsed``: its module tree, compiled in its place)."""
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    scope = dict(namespace)
    scope["__name__"] = f"symdiff.generated.{function_name}"
    exec(compile(text if parsed is None else parsed, filename, "exec"), scope)
    # The text's header re-creates the functions no import reaches (a script's rule
    # functions) for the text on its own; here the function calls the functions
    # themselves, so one with a rule keeps it when the gradient is differentiated again.
    # Numbers and tables stay as the text binds them: read when the gradient was built.
    scope.update((name, value) for name, value in namespace.items()
                 if isinstance(value, types.FunctionType))
    return scope[function_name]
