"""The package's layout: modules small enough to read whole, and no import cycle.

- No module under ``symdiff/`` is longer than ``LIMIT`` lines, except those in
  ``OVER_LIMIT``, each with the length it may not grow past.  The list only shrinks: an
  entry whose module is now within the limit (or is gone) fails, so it is removed the
  moment its module is split.
- The modules' imports form no cycle.  Every import is read, the ones inside functions
  too: a function-level import still ties the importer to the imported module, and
  deferring it only hides the cycle until the function runs.  The few such deferred
  edges that close a cycle today are listed in ``DEFERRED``, each with the reason it is
  deferred; that list only shrinks too (an entry that closes no cycle, or names an
  import that is gone, fails).  Cycles are searched by a depth-first search over the
  modules and their imports in sorted order, so the cycle reported is always the same.
"""

import ast
import functools
import pathlib

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "symdiff"
LIMIT = 400

OVER_LIMIT = {}  # module -> the lines it has and may not grow past: none left

DEFERRED = {  # (importer, imported) -> why the import is inside a function: none left
}


def modules():
    """``{dotted module name: path}`` of every module of the package."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports(name, path, known):
    """``{imported module: True when only imported inside a function}`` for one module.

    ``from p import n`` imports the module ``p.n`` when there is one, else reads ``n``
    from ``p``; a relative import is resolved against the module's package.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    edges = {}
    for node, deferred in _import_nodes(tree):
        for target in _targets(node, package, known):
            if target != name:
                edges[target] = edges.get(target, True) and deferred
    return edges


def _import_nodes(tree):
    """Every import statement of ``tree``, with whether it stands inside a function."""
    stack = [(tree, False)]
    while stack:
        node, in_function = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node, in_function
        inner = in_function or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                 ast.Lambda))
        stack.extend((child, inner) for child in ast.iter_child_nodes(node))


def _targets(node, package, known):
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names if alias.name in known]
    if node.level:
        base = package.split(".")[:len(package.split(".")) - node.level + 1]
        source = ".".join(base + ([node.module] if node.module else []))
    else:
        source = node.module
    found = []
    for alias in node.names:
        if f"{source}.{alias.name}" in known:
            found.append(f"{source}.{alias.name}")
        elif source in known:
            found.append(source)
    return found


@functools.lru_cache(maxsize=None)
def package_imports():
    """``{module: imports(module)}`` for the whole package, read once."""
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def import_graph(skip=()):
    """``{module: sorted imported modules}``, leaving out the edges in ``skip``."""
    return {name: sorted(t for t in edges if (name, t) not in skip)
            for name, edges in package_imports().items()}


def find_cycle(graph):
    """The first cycle a depth-first search in sorted order meets, as a list of modules
    ending where it started; None when the graph has none."""
    state = {}  # module -> "open" while on the search path, "done" after
    for root in sorted(graph):
        if root in state:
            continue
        path, iterators = [root], [iter(graph[root])]
        state[root] = "open"
        while iterators:
            step = next(iterators[-1], None)
            if step is None:
                state[path.pop()] = "done"
                iterators.pop()
            elif state.get(step) == "open":
                return path[path.index(step):] + [step]
            elif step not in state:
                state[step] = "open"
                path.append(step)
                iterators.append(iter(graph.get(step, ())))
    return None


def line_count(path):
    return len(path.read_text(encoding="utf-8").splitlines())


def test_modules_are_within_the_limit():
    too_long = {}
    for path in modules().values():
        key = path.relative_to(PACKAGE.parent).as_posix()
        count = line_count(path)
        if count > OVER_LIMIT.get(key, LIMIT):
            too_long[key] = count
    assert not too_long, (f"modules over {LIMIT} lines (or past their entry in "
                          f"OVER_LIMIT): {too_long}; split them by responsibility")


def test_the_allow_list_only_shrinks():
    stale = []
    for key, allowed in OVER_LIMIT.items():
        path = PACKAGE.parent / key
        if not path.exists():
            stale.append(f"{key} is gone")
        elif line_count(path) <= LIMIT:
            stale.append(f"{key} has {line_count(path)} lines now")
        assert allowed > LIMIT, key
    assert not stale, f"remove these entries from OVER_LIMIT: {stale}"


def test_no_import_cycle():
    cycle = find_cycle(import_graph(skip=DEFERRED))
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_each_deferred_import_is_needed():
    stale = []
    for importer, imported in DEFERRED:
        edges = package_imports().get(importer, {})
        if imported not in edges:
            stale.append(f"{importer} no longer imports {imported}")
        elif not edges[imported]:
            stale.append(f"{importer} imports {imported} at module level")
        elif find_cycle(import_graph(skip=set(DEFERRED) - {(importer, imported)})) is None:
            stale.append(f"{importer} -> {imported} closes no cycle")
    assert not stale, f"remove these entries from DEFERRED: {stale}"


def test_the_cycle_search_reports_a_cycle():
    graph = {"a": ["b"], "b": ["c"], "c": ["a", "d"], "d": []}
    assert find_cycle(graph) == ["a", "b", "c", "a"]
    assert find_cycle({"a": ["b"], "b": [], "c": ["a"]}) is None


def test_imports_are_read_inside_functions_and_by_relative_name(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("from symdiff.ir import nodes\nfrom . import names\n"
                      "def f():\n    from symdiff.lower import hoist\n    import symdiff\n")
    known = {"symdiff": None, "symdiff.ir": None, "symdiff.ir.nodes": None,
             "symdiff.ir.names": None, "symdiff.lower": None, "symdiff.lower.hoist": None}
    assert imports("symdiff.ir.m", module, known) == {
        "symdiff.ir.nodes": False, "symdiff.ir.names": False,
        "symdiff.lower.hoist": True, "symdiff": True}
