"""``build_graph``: a deterministic topological order, carried edges, DOT text, and scale."""

import importlib.util
import inspect
import math
import re
import sys

import pytest

import symdiff
from symdiff.analysis.graph import build_graph
from symdiff.pipeline import lower
from symdiff.frontend.parse import parse_function


def graph_of(fn):
    return build_graph(lower(parse_function(fn)))


def line_of(fn, text):
    """The file line number of the line of ``fn`` containing ``text``."""
    lines, first = inspect.getsourcelines(fn)
    hits = [first + i for i, line in enumerate(lines) if text in line]
    assert len(hits) == 1, (text, hits)
    return hits[0]


def independent(x, y):
    a = x * 2.0
    b = y * 3.0
    c = math.sin(x)
    d = a + b
    return d * c


def looped(x, y):
    s = x
    for i in range(3):
        s = s * y + x
    a = x * 2.0
    b = y * 3.0
    return s + a * b


def branched_loop(x, y):
    s = 0.0
    t = 1.0
    k = 0
    while k < 4:
        if s > 2.0:
            s = s - t * y
        else:
            s = s + x
        t = t * 0.5
        k = k + 1
        if s > 10.0:
            break
    return s + t


FUNCTIONS = [independent, looped, branched_loop]


def positions(graph):
    return {node.index: position for position, node in enumerate(graph.nodes)}


@pytest.mark.parametrize("fn", FUNCTIONS, ids=lambda fn: fn.__name__)
def test_every_edge_that_is_not_carried_goes_forward(fn):
    graph = graph_of(fn)
    where = positions(graph)
    assert sorted(where) == list(range(len(graph.nodes)))  # each node once
    for edge in graph.edges:
        if not edge.carried:
            assert where[edge.source] < where[edge.target], edge


@pytest.mark.parametrize("fn", FUNCTIONS, ids=lambda fn: fn.__name__)
def test_edges_name_a_value_their_source_writes_and_their_target_reads(fn):
    graph = graph_of(fn)
    for edge in graph.edges:
        source, target = graph.by_index[edge.source], graph.by_index[edge.target]
        assert source.output == edge.name
        assert edge.name in target.inputs


def test_ties_are_broken_by_source_position():
    graph = graph_of(independent)
    assert [n.output for n in graph.nodes][:2] == ["x", "y"]  # parameters first, in order
    indices = [n.index for n in graph.nodes]
    assert indices == sorted(indices)
    linenos = [n.lineno for n in graph.nodes if n.op != "param"]
    assert linenos == sorted(linenos)
    assert [n.lineno for n in graph.nodes if n.output in ("a", "b", "c")] == [
        line_of(independent, "a = x"), line_of(independent, "b = y"),
        line_of(independent, "c = math")]


def test_order_is_the_smallest_topological_order():
    """Kahn's algorithm always taking the earliest ready statement."""
    for fn in FUNCTIONS:
        graph = graph_of(fn)
        preds = {node.index: set() for node in graph.nodes}
        for edge in graph.edges:
            if not edge.carried and edge.source != edge.target:
                preds[edge.target].add(edge.source)
        done, expected = set(), []
        while len(expected) < len(preds):
            ready = min(i for i in preds if i not in done and preds[i] <= done)
            expected.append(ready)
            done.add(ready)
        assert [n.index for n in graph.nodes] == expected


@pytest.mark.parametrize("fn", FUNCTIONS, ids=lambda fn: fn.__name__)
def test_graph_is_deterministic(fn):
    first, second = graph_of(fn), graph_of(fn)
    assert first.nodes == second.nodes
    assert first.edges == second.edges
    assert first.to_dot() == second.to_dot()


def test_loop_carried_edges_are_marked():
    graph = graph_of(looped)
    carried = [e for e in graph.edges if e.carried]
    assert carried, "s flows from one iteration to the next"
    loop_line = line_of(looped, "s = s * y + x")
    for edge in carried:
        source, target = graph.by_index[edge.source], graph.by_index[edge.target]
        assert source.lineno == target.lineno == loop_line
        assert edge.name == "s" or edge.name.startswith("s_")
        assert source.region and target.region  # both inside the loop
    # the first read of s inside the loop also has its ordinary edge, from `s = x`
    entry = [e for e in graph.edges if not e.carried and e.name == carried[0].name
             and graph.by_index[e.source].lineno == line_of(looped, "s = x")]
    assert entry
    # no edge outside a loop is carried
    for edge in graph.edges:
        if not graph.by_index[edge.target].region:
            assert not edge.carried


def test_carried_edges_in_a_while_loop_with_branches():
    graph = graph_of(branched_loop)
    carried_names = {e.name for e in graph.edges if e.carried}
    bases = {name.split("_")[0] for name in carried_names}
    assert {"s", "t", "k"} <= bases


def test_region_names_the_enclosing_statements():
    graph = graph_of(branched_loop)
    inner = [n for n in graph.nodes if n.lineno == line_of(branched_loop, "s = s - t * y")]
    assert inner
    for node in inner:
        assert len(node.region) >= 3
        assert "while" in node.region[0]
        assert node.region[-1] == "then"
    assert all(n.region == () for n in graph.nodes if n.op == "param")


_NODE = re.compile(r'^\s*(n\d+) \[label="((?:[^"\\]|\\.)*)"(?:, [^\]]*)?\];$')
_EDGE = re.compile(r'^\s*(n\d+) -> (n\d+)(?: \[[^\]]*\])?;$')


@pytest.mark.parametrize("fn", FUNCTIONS, ids=lambda fn: fn.__name__)
def test_dot_text_is_well_formed_and_mentions_lines(fn):
    graph = graph_of(fn)
    dot = graph.to_dot()
    lines = dot.strip().splitlines()
    assert lines[0].startswith("digraph") and lines[0].endswith("{")
    assert lines[-1] == "}"
    assert dot.count("{") == dot.count("}")
    declared, edges = set(), []
    for line in lines[1:-1]:
        node, edge = _NODE.match(line), _EDGE.match(line)
        if node:
            declared.add(node.group(1))
        elif edge:
            edges.append((edge.group(1), edge.group(2)))
    assert declared == {f"n{node.index}" for node in graph.nodes}
    assert len(edges) == len(graph.edges)
    assert all(a in declared and b in declared for a, b in edges)
    for node in graph.nodes:
        assert f"line {node.lineno}" in dot
    assert f"line {line_of(fn, 'return')}" in dot
    if any(e.carried for e in graph.edges):
        assert "dotted" in dot


def test_dot_with_active_names_draws_adjoints():
    graph = graph_of(independent)
    dot = graph.to_dot(active={"x", "a", "d", "result"})
    assert "dashed" in dot
    assert dot.count("{") == dot.count("}")


def flight(x, y, vx, vy):
    dt = 0.1
    for _ in range(3):
        x = x + vx * dt
        y = y + vy * dt
        vy = vy - 9.8 * dt
        if y < 0.0:
            vy = -vy
    return x * y


_ADJOINT = re.compile(r'^\s*(a\d+) \[label="d(\w+) \(lines? ([\d, ]+)\)", style=dashed')
_TIE = re.compile(r'^\s*(n\d+) -> (a\d+) \[style=dotted')
_FLOW = re.compile(r'^\s*(a\d+) -> (a\d+) \[dir=back')


def adjoint_picture(fn):
    """The gradient's graph, and its DOT text read back: adjoint nodes by name, with the
    lines their labels give; ties; and flows (pairs of adjoint ids)."""
    gradient = symdiff.grad(fn)
    graph = gradient.graph
    dot = graph.to_dot(graph.active)
    nodes, ties, flows = {}, [], []
    for line in dot.splitlines():
        if match := _ADJOINT.match(line):
            assert match.group(2) not in [name for name, _ in nodes.values()], line
            nodes[match.group(1)] = (match.group(2), [int(n) for n in match.group(3).split(",")])
        elif match := _TIE.match(line):
            ties.append(match.groups())
        elif match := _FLOW.match(line):
            flows.append(match.groups())
    return graph, dot, nodes, ties, flows


@pytest.mark.parametrize("fn", [independent, looped, branched_loop, flight],
                         ids=lambda fn: fn.__name__)
def test_each_active_name_has_one_adjoint_tied_to_its_writers_and_labelled_with_their_lines(fn):
    graph, _, nodes, ties, _ = adjoint_picture(fn)
    by_name = {name: (aid, lines) for aid, (name, lines) in nodes.items()}
    assert set(by_name) == set(graph.active)
    for name in graph.active:
        writers = [node for node in graph.nodes if node.output == name]
        aid, lines = by_name[name]
        assert sorted(lines) == sorted({node.lineno for node in writers})
        assert sorted(n for n, a in ties if a == aid) == sorted(f"n{w.index}" for w in writers)


@pytest.mark.parametrize("fn", [independent, looped, branched_loop, flight],
                         ids=lambda fn: fn.__name__)
def test_adjoints_flow_against_every_edge_between_active_names(fn):
    graph, _, nodes, _, flows = adjoint_picture(fn)
    ids = {name: aid for aid, (name, _) in nodes.items()}
    expected = {(ids[graph.by_index[e.source].output], ids[graph.by_index[e.target].output])
                for e in graph.edges if graph.by_index[e.source].output in ids
                and graph.by_index[e.target].output in ids
                and graph.by_index[e.source].output != graph.by_index[e.target].output}
    assert set(flows) == expected and len(flows) == len(expected)


def test_the_forward_graph_and_its_adjoints_are_one_picture():
    """Joined through the ties: no part of the drawing floats apart."""
    graph, dot, nodes, ties, flows = adjoint_picture(flight)
    neighbours = {}
    for a, b in [(f"n{e.source}", f"n{e.target}") for e in graph.edges] + ties + flows:
        neighbours.setdefault(a, set()).add(b)
        neighbours.setdefault(b, set()).add(a)
    result = next(node for node in graph.nodes if node.output == graph.result)
    reached, todo = set(), [f"n{result.index}"]
    while todo:
        here = todo.pop()
        if here not in reached:
            reached.add(here)
            todo += neighbours.get(here, ())
    # every adjoint, and every operation with an edge (a loop counter nobody reads has none)
    assert reached == set(neighbours) >= set(nodes)
    assert [name for name, _ in nodes.values()].count("x") == 1  # x and its update: one dx


def test_graph_of_the_public_gradient_is_the_same():
    public = symdiff.grad(looped).graph
    assert [(n.op, n.output, n.inputs, n.lineno) for n in public.nodes] == [
        (n.op, n.output, n.inputs, n.lineno) for n in graph_of(looped).nodes]


# --- a very long function ----------------------------------------------------------------

LONG = 10_000
_FORMS = ("v{i} = v{j} * y", "v{i} = v{j} + s", "v{i} = v{j} / y", "v{i} = v{j} - s")


def _long_source(count):
    lines = ["import math", "", "", "def long_chain(x, y):",
             "    s = math.sin(x) * 0.0001", "    v0 = x"]
    for i in range(1, count - 2):
        lines.append("    " + _FORMS[i % len(_FORMS)].format(i=i, j=i - 1))
    lines.append(f"    return v{count - 3}")
    assert len(lines) - 4 == count
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def long_module(tmp_path_factory):
    path = tmp_path_factory.mktemp("long") / "long_chain_module.py"
    path.write_text(_long_source(LONG), encoding="utf-8")
    spec = importlib.util.spec_from_file_location("long_chain_module", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_ten_thousand_statement_function(long_module):
    fn = long_module.long_chain
    limit = sys.getrecursionlimit()
    parsed = parse_function(fn)
    assert len(parsed.tree.body) == LONG
    program = lower(parsed)
    graph = build_graph(program)
    assert len(graph.nodes) >= LONG
    where = positions(graph)
    assert all(where[e.source] < where[e.target] for e in graph.edges if not e.carried)
    # optimize=False: at this size the optimizer alone takes longer than this whole file
    # should; everything else, from parse to compile, runs as for any user
    gradient = symdiff.grad(fn, optimize=False)
    point = (0.3, 1.0001)
    got = gradient(*point)
    h = 1e-6
    want = ((fn(point[0] + h, point[1]) - fn(point[0] - h, point[1])) / (2 * h),
            (fn(point[0], point[1] + h) - fn(point[0], point[1] - h)) / (2 * h))
    assert got == pytest.approx(want, rel=1e-5)
    assert sys.getrecursionlimit() == limit  # nobody raised the limit to get through
