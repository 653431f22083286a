"""The package's layers: each stage imports only the stages below it.

Every import of every module under ``symdiff/`` is read with ``ast``, the ones inside
functions too (deferring an import hides a dependency, it does not remove one), and each
module is mapped to its layer: the package it lies in (``symdiff.lower.calls`` is
``lower``), or the top-level module itself (``symdiff.api`` is ``api``).  ``LAYERS`` lists
the layers from the bottom up; a module may import its own layer and those listed before
it, never one listed after:

    errors, markers                  what a user catches and writes; import nothing
    core                             types and IR expressions: what rules and IR speak
    primitives, ir                   the records of the primitives (their type rules and
                                     derivative builders written in core); the IR's
                                     statements (ir reads the records)
    analysis, frontend, lower, ad,   the passes, each reading the ones before it
    optimize, backend
    pipeline, specialized, api,      running the passes, the public transforms, checking
    higher, vjp, checking
    symdiff, cli, __main__           the package's public names, the command line

The witnesses stand apart (``WITNESSES``: ``symdiff.witnesses`` and ``symdiff.tape``, its
public name): from ``checking`` up a layer may import them, below it none.  They
recompute what symdiff's output should be, so they import none of the stages whose
output they check (``CHECKED``: a witness built on the IR, the registry's rules or a pass
would repeat their mistakes instead of catching them).  They may import ``errors`` and
``markers`` (the exceptions a user catches; ``stop_gradient`` and the rules a user gives,
which are the user's, not symdiff's) and, of the frontend, only ``frontend.parse`` and
``frontend.wrappers`` (``WITNESS_FRONTEND``): these read the user's function as written
(its source, its syntax tree at the real file's lines, what a decorator wraps), the input
symdiff and a witness both start from, not the output of a stage.  What those two import
in turn is checked too: through them a witness reaches no rule and no pass, only the plain
module of ``THROUGH_PARSE`` (the tree helpers parse builds a lambda's ``def`` with).  Which witness may import which of these, with a
reason each, is ``tests/witnesses/test_independence.py``'s finer list.  The tape
witness's own modules form no cycle: ``value`` is its bottom, the rest import downward.

Edges that still run against the order are listed in ``KNOWN``, each with why it is
still there.  The list only shrinks: an entry whose import is gone fails, so it is
removed the moment its import is.

Run ``pytest tests/test_layers.py``; a failure names the file and line of each import
that runs upward, e.g. ``symdiff/ir/check.py:34 imports symdiff.analysis.types (ir
below analysis)``.
"""

import ast
import pathlib

from test_layout import _targets, find_cycle, modules

ROOT = pathlib.Path(__file__).resolve().parent.parent

LAYERS = [  # from the bottom up; a layer imports only itself and those before it
    "errors", "markers", "core", "structures",
    "primitives", "ir",
    "analysis", "frontend", "lower", "ad", "optimize", "backend",
    "pipeline", "specialized", "api", "higher_arrays", "higher_containers", "higher", "vjp", "checking",
    "symdiff",  # the package's public names (symdiff/__init__.py)
    "cli", "__main__",
]
WITNESSES = {"witnesses", "tape"}
WITNESS_USERS = LAYERS[LAYERS.index("checking"):]  # the layers that may import a witness
CHECKED = {"core", "primitives", "ir", "analysis", "lower", "ad", "optimize", "backend"}
WITNESS_ALLOWED = {"errors", "markers"}
WITNESS_FRONTEND = {"symdiff.frontend.parse", "symdiff.frontend.wrappers"}
THROUGH_PARSE = {  # what the witnesses reach of the checked stages, through parse alone
    "symdiff.ir.syntax",  # function_def: a lambda read as the def it stands for
}
TAPE = "symdiff.witnesses.tape"

KNOWN = {  # (importer, imported) -> why the upward import is still there; only shrinks
}


def layer_of(module):
    """The layer of a dotted module name of the package."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def import_lines(name, path, known):
    """``[(line, imported module)]`` for every import of one module, anywhere in it.

    ``from p import n`` imports the module ``p.n`` when there is one, else reads ``n``
    from ``p``; a relative import is resolved against the module's package.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found |= {(node.lineno, t) for t in _targets(node, package, known)}
    return sorted(found)


def all_imports():
    """``{module: [(line, imported module)]}`` for the whole package."""
    known = modules()
    return {name: import_lines(name, path, known) for name, path in known.items()}


def where(module, line):
    return f"{modules()[module].relative_to(ROOT).as_posix()}:{line}"


def stage_violation(importer, imported):
    """Why ``importer`` may not import ``imported``, or None when it may."""
    low, high = layer_of(imported), layer_of(importer)
    if low == high:
        return None
    if high in WITNESSES:
        return witness_violation(importer, imported)
    if low in WITNESSES:
        return None if high in WITNESS_USERS else f"{high} imports no witness"
    if LAYERS.index(low) > LAYERS.index(high):
        return f"{high} below {low}"
    return None


def witness_violation(importer, imported):
    low = layer_of(imported)
    if low in WITNESSES or low in WITNESS_ALLOWED or imported in WITNESS_FRONTEND:
        return None
    if low in CHECKED:
        return f"a witness imports no stage it checks ({low})"
    return f"a witness imports of the frontend only {sorted(WITNESS_FRONTEND)}"


def upward_imports():
    """``[(importer, imported, where, why)]`` for every import against the order."""
    found = []
    for importer, lines in sorted(all_imports().items()):
        for line, imported in lines:
            why = stage_violation(importer, imported)
            if why:
                found.append((importer, imported, where(importer, line), why))
    return found


def reached_from(starts, graph):
    """Every module reached from ``starts`` by imports, ``starts`` included."""
    seen, stack = set(), list(starts)
    while stack:
        module = stack.pop()
        if module not in seen:
            seen.add(module)
            stack.extend(graph.get(module, ()))
    return seen


def test_no_import_runs_against_the_layers():
    found = [f"{at} imports {imported} ({why})"
             for importer, imported, at, why in upward_imports()
             if (importer, imported) not in KNOWN]
    assert not found, "imports against the layer order:\n" + "\n".join(found)


def test_each_known_exception_still_exists():
    upward = {(importer, imported) for importer, imported, _, _ in upward_imports()}
    stale = [f"{importer} -> {imported}" for importer, imported in KNOWN
             if (importer, imported) not in upward]
    assert not stale, f"remove these entries from KNOWN: {stale}"


def test_the_witnesses_reach_no_stage_they_check():
    graph = {name: [imported for _, imported in lines]
             for name, lines in all_imports().items()}
    starts = [name for name in graph if layer_of(name) in WITNESSES]
    reached = sorted(name for name in reached_from(starts, graph)
                     if layer_of(name) in CHECKED and name not in THROUGH_PARSE)
    assert not reached, f"the witnesses reach, through the frontend: {reached}"


def test_the_tape_witness_has_no_cycle():
    graph = {name: sorted({imported for _, imported in lines if imported.startswith(TAPE)})
             for name, lines in all_imports().items() if name.startswith(TAPE + ".")}
    # the package's __init__ gathers its modules' names: it is the top, not part of a cycle
    graph = {name: [t for t in targets if t != TAPE] for name, targets in graph.items()}
    cycle = find_cycle(graph)
    assert cycle is None, "the tape witness's import cycle: " + " -> ".join(cycle)


def test_the_tape_value_is_the_bottom():
    value = f"{TAPE}.value"
    imported = {t for _, t in all_imports()[value] if t.startswith("symdiff.")}
    assert imported <= {"symdiff.errors"}, f"{value} imports {sorted(imported)}"


def test_the_layer_check_names_an_upward_import():
    assert stage_violation("symdiff.ir.printer", "symdiff.backend.emit") == "ir below backend"
    assert stage_violation("symdiff.primitives.registry", "symdiff.ir.nodes") == \
        "primitives below ir"
    assert stage_violation("symdiff.backend.emit", "symdiff.ir.nodes") is None
    assert stage_violation("symdiff.lower.calls", "symdiff.lower.names") is None
    assert stage_violation("symdiff.__main__", "symdiff.cli.main") is None
    assert stage_violation("symdiff.backend.travel", "symdiff") == "backend below symdiff"
    assert stage_violation("symdiff.checking.compare", "symdiff.witnesses.tape") is None
    assert stage_violation("symdiff.ad.taping", "symdiff.tape") == "ad imports no witness"
    assert stage_violation("symdiff.witnesses.symbolic.build", "symdiff.ir.nodes") == \
        "a witness imports no stage it checks (ir)"
    assert stage_violation("symdiff.tape", "symdiff.frontend.parse") is None
    assert stage_violation("symdiff.witnesses.finite", "symdiff.frontend.fence") is not None


def test_imports_are_read_inside_functions(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("from symdiff.ir import nodes\nfrom . import names\n"
                      "def f():\n    from symdiff.lower import hoist\n    import symdiff\n")
    known = {"symdiff", "symdiff.ir", "symdiff.ir.nodes", "symdiff.ir.names",
             "symdiff.lower", "symdiff.lower.hoist"}
    assert import_lines("symdiff.ir.m", module, known) == [
        (1, "symdiff.ir.nodes"), (2, "symdiff.ir.names"), (4, "symdiff.lower.hoist"),
        (5, "symdiff")]
