"""The generated text of every function symdiff is tested on, in every variant.

A record to compare against when the middle of the pipeline is rebuilt: for each
function of the end-to-end corpus, the golden cases and the examples, the text of

    grad        symdiff.source(f)                       (optimized)
    raw         symdiff.source(f, optimize=False)
    value       value_and_grad(f).source
    forward     jvp(f).source
    second      the gradient of grad(f, wrt=<first>) by <first> (grad of grad)

or, where symdiff refuses a variant, the class of the error it raises.  The
texts live in ``tests/snapshots/<module>.txt``, one section per function and
variant:

    ### straight.product grad
    def grad_product(x, y):
    ...

``python tests/snapshots.py`` rewrites them; ``tests/end_to_end/test_snapshots.py`` proves
today's texts are the recorded ones.  A change to the generated text then shows
as a reviewable diff of these files.
"""

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
FOLDER = HERE / "snapshots"
VARIANTS = ("grad", "raw", "value", "forward", "second")


def _corpus_functions():
    """(module label, [(name, function)]) for the corpus, the golden cases and the examples."""
    sys.path[:0] = [str(HERE), str(HERE.parent)]
    from corpus import checks, control, lambdas, nested, straight
    import golden_cases
    from symdiff.frontend import static

    groups = [(module.__name__.rpartition(".")[2], [(c.label, c.fn) for c in module.CASES])
              for module in (straight, control, lambdas, nested, checks)]
    groups.append(("golden", [(fn.__name__, fn) for fn in golden_cases.CASES]))
    examples = []
    for path in sorted((HERE.parent / "examples").glob("*.py")):
        module = static.load(str(path))
        examples += [(f"{path.stem}.{name}", value) for name, value in module.namespace.items()
                     if callable(value) and getattr(value, "__module__", None) != "math"
                     and getattr(value, "__code__", None) is not None
                     and value.__code__.co_filename == str(path)
                     and value.__code__.co_argcount]  # a script's main() is not differentiated
    groups.append(("examples", examples))
    # built for the kinds of their first point
    from corpus import arguments, branch_local, containers, control_lists, joins, tangent_lists
    corpora = (containers, tangent_lists, joins, branch_local, control_lists, arguments)
    groups.append(("containers", [(f"{module.__name__.rpartition('.')[2]}.{c.label}", c.fn,
                                   c.points[0]) for module in corpora for c in module.CASES]))
    return groups


def _variant(fn, variant, example=()):
    import symdiff
    from symdiff.api import build

    from symdiff.specialized import container_kinds

    kinds = container_kinds(fn, example) if example else None
    if variant == "grad":
        return build(fn, kinds=kinds).source
    if variant == "raw":
        return build(fn, optimize=False, kinds=kinds).source
    if variant == "value":
        return build(fn, with_value=True, kinds=kinds).source
    if variant == "forward":
        return build(fn, mode="forward", kinds=kinds).source
    first = fn.__code__.co_varnames[0]
    inner = symdiff.grad(fn, wrt=first)
    return build(inner, first).source


def text_of(fn, variant, example=()):
    """The generated text of ``fn``'s ``variant`` (for the kinds of ``example``'s
    arguments), or ``error: <class>`` where refused."""
    from symdiff import SymdiffError

    try:
        return _variant(fn, variant, example)
    except SymdiffError as error:
        return f"error: {type(error).__name__}\n"


def render(functions):
    """The snapshot file text for one group of ``(name, function)``."""
    sections = []
    for name, fn, *example in functions:
        for variant in VARIANTS:
            sections.append(f"### {name} {variant}\n{text_of(fn, variant, *example)}")
    return "\n".join(sections)


def snapshots():
    """{file name: text} for every group."""
    return {f"{label}.txt": render(functions) for label, functions in _corpus_functions()}


if __name__ == "__main__":
    os.makedirs(FOLDER, exist_ok=True)
    for name, text in snapshots().items():
        (FOLDER / name).write_text(text)
        print(f"wrote {FOLDER / name}")
