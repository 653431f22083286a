"""Graph: the static dependency graph of a normalized program.

Expects a ``Program`` from ``normalize``.  Guarantees a ``Graph`` whose nodes
are the program's operations (one per statement, plus one per parameter) in a
deterministic topological order: Kahn's algorithm on an explicit queue, ties
broken by source position, no recursion.  An edge runs from the statement that
last wrote a name to each statement reading it; inside a loop, a value carried
from one iteration to the next gives a *carried* edge, which the order ignores
(it points backwards in time), so the rest is a true DAG.  Statements inside
``if``/``for``/``while`` carry the region they belong to.  The graph is drawn as DOT text
(``to_dot``), and in a notebook as inline SVG when Graphviz's ``dot`` runs, else as its
DOT text, escaped (``graph_html``; Graphviz is used when present, never required).

    z = x * y          nodes: x (param), y (param), z = mul(x, y), r = add(z, x)
    r = z + x          edges: x->z, y->z, z->r, x->r
"""

import heapq
import html
import shutil
import subprocess
from dataclasses import dataclass, field

from symdiff.analysis.defuse import DefUse
from symdiff.ir import nodes as ir


@dataclass(frozen=True)
class Node:
    index: int  # position in source order
    op: str  # primitive, "param", "compute" or "range"
    output: str
    inputs: tuple
    lineno: int
    text: str
    region: tuple = ()  # the enclosing control statements, outermost first


@dataclass(frozen=True)
class Edge:
    source: int
    target: int
    name: str
    carried: bool = False


@dataclass
class Graph:
    nodes: list  # in topological order
    edges: list
    result: str = None
    by_index: dict = field(default_factory=dict)
    active: tuple = None  # for a gradient's graph: the names a derivative flows through


    def __iter__(self):
        return iter(self.nodes)

    def __len__(self):
        return len(self.nodes)

    def predecessors(self, node):
        return [self.by_index[e.source] for e in self.edges if e.target == node.index
                and not e.carried]

    def to_dot(self, active=None):
        """Graphviz DOT text; with ``active`` names, adjoint nodes are drawn too (dashed)."""
        return render_dot(self, active)

    def _repr_html_(self):
        """Jupyter's picture: inline SVG when Graphviz's ``dot`` runs, else the DOT text."""
        return graph_html(self.to_dot(self.active))

    def _repr_pretty_(self, printer, cycle):
        """IPython's plain-text view: the DOT text."""
        printer.text(self.to_dot(self.active))


def build_graph(program, defuse=None):
    """The graph of ``program``; ``defuse`` is its ``DefUse``, built here when not given."""
    defuse = defuse if defuse is not None else DefUse(program)
    nodes, edges = [], []
    writers = {}  # name -> index of the node that last wrote it
    for name in program.params:
        writers[name] = _add(nodes, "param", name, (), program.origin, (), text=name)
    _visit(program.body, nodes, edges, writers, defuse)
    result = program.result.name if isinstance(program.result, ir.Var) else None
    graph = Graph(_topological(nodes, edges), edges, result)
    graph.by_index = {node.index: node for node in nodes}
    return graph


def region(stmt, defuse):
    """The labels of the control statements around ``stmt``, outermost first: ``if t
    (line 3)`` followed by ``then`` or ``else``, ``for i (line 4)``, ``while (line 5)``."""
    sides = dict(defuse.branches(stmt))
    labels = []
    for outer in defuse.enclosing(stmt):
        labels.append(_label(outer))
        if isinstance(outer, ir.If):
            labels.append("then" if sides[outer.sid] else "else")
    return tuple(labels)


def _label(stmt):
    if isinstance(stmt, ir.If):
        return f"if {stmt.test} (line {stmt.origin.lineno})"
    if isinstance(stmt, ir.For):
        return f"for {stmt.target} (line {stmt.origin.lineno})"
    if isinstance(stmt, ir.Try):
        return f"try (line {stmt.origin.lineno})"
    return f"while (line {stmt.origin.lineno})"


def _visit(block, nodes, edges, writers, defuse):
    for stmt in block:
        if isinstance(stmt, (ir.Assign, ir.Compute, ir.Push, ir.Pop, ir.Build, ir.Item,
                             ir.SetItem, ir.Reduce, ir.Share, ir.Take, ir.Join)):
            if isinstance(stmt, ir.Assign):
                op, name = stmt.op, stmt.target
            elif isinstance(stmt, ir.Compute):
                op, name = "compute", stmt.target
            elif isinstance(stmt, (ir.Build, ir.Item, ir.Reduce, ir.Share, ir.Take, ir.Join)):
                op = stmt.op if isinstance(stmt, ir.Reduce) else type(stmt).__name__.lower()
                name = stmt.target
            elif isinstance(stmt, ir.SetItem):
                op, name = "setitem", stmt.container
            else:
                op = "push" if isinstance(stmt, ir.Push) else "pop"
                name = stmt.stack if isinstance(stmt, ir.Push) else stmt.target
            inputs = [n for n in ir.reads(stmt) if not isinstance(stmt, ir.Push) or n != stmt.stack]
            index = _add(nodes, op, name, inputs, stmt.origin, region(stmt, defuse))
            _link(edges, writers, inputs, index)
            writers[name] = index
        elif isinstance(stmt, ir.If):
            before = dict(writers)
            _visit(stmt.body, nodes, edges, writers, defuse)
            after_body = dict(writers)
            writers.clear()
            writers.update(before)
            _visit(stmt.orelse, nodes, edges, writers, defuse)
            for name, index in after_body.items():
                writers.setdefault(name, index)
        elif isinstance(stmt, ir.Try):  # its body may stop part way: earlier writers stay
            before = dict(writers)
            _visit(stmt.body, nodes, edges, writers, defuse)
            for name, index in before.items():
                writers.setdefault(name, index)
        elif isinstance(stmt, (ir.For, ir.While)):
            _loop(stmt, nodes, edges, writers, defuse)


def _loop(stmt, nodes, edges, writers, defuse):
    if isinstance(stmt, ir.For):
        bounds = ir.reads(stmt)
        index = _add(nodes, "range", stmt.target, bounds, stmt.origin,
                     region(stmt, defuse) + (_label(stmt),))
        _link(edges, writers, bounds, index)
        writers[stmt.target] = index
    start = len(nodes)
    entry = dict(writers)
    _visit(getattr(stmt, "pre", []) + stmt.body, nodes, edges, writers, defuse)
    # a value read in the body before the body writes it comes from the previous iteration
    for node in nodes[start:]:
        for name in node.inputs:
            last = writers.get(name)
            if last is not None and last >= node.index and entry.get(name) != last:
                edges.append(Edge(last, node.index, name, carried=True))


def _add(nodes, op, output, inputs, origin, region, text=None):
    index = len(nodes)
    nodes.append(Node(index, op, output, tuple(inputs), origin.lineno,
                      text if text is not None else origin.text, region))
    return index


def _link(edges, writers, inputs, index):
    for name in dict.fromkeys(inputs):
        if name in writers:
            edges.append(Edge(writers[name], index, name))


def _topological(nodes, edges):
    """Kahn's algorithm; among ready nodes the earliest in the source goes first."""
    indegree = [0] * len(nodes)
    successors = [[] for _ in nodes]
    for edge in edges:
        if not edge.carried and edge.source != edge.target:
            indegree[edge.target] += 1
            successors[edge.source].append(edge.target)
    ready = [i for i, d in enumerate(indegree) if d == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        index = heapq.heappop(ready)
        order.append(nodes[index])
        for nxt in successors[index]:
            indegree[nxt] -= 1
            if indegree[nxt] == 0:
                heapq.heappush(ready, nxt)
    return order


def render_dot(graph, active=None):
    lines = ["digraph gradient {", "  rankdir=TB;",
             '  node [shape=box, fontname="Helvetica", fontsize=10];',
             '  edge [fontname="Helvetica", fontsize=9];']
    clusters = {}
    for node in graph.nodes:
        clusters.setdefault(node.region[:1], []).append(node)
    for key, members in clusters.items():
        indent = "  "
        if key:
            lines.append(f"  subgraph cluster_{len(lines)} {{")
            lines.append(f"    label={_quote(key[0])}; style=rounded;")
            indent = "    "
        for node in members:
            label = f"{node.output} = {node.op}" if node.op != "param" else node.output
            shape = ", shape=ellipse" if node.op == "param" else ""
            lines.append(f"{indent}n{node.index} [label={_quote(label + f' (line {node.lineno})')}"
                         f"{shape}];")
        if key:
            lines.append("  }")
    for edge in graph.edges:
        style = " [style=dotted, label=\"next iteration\"]" if edge.carried else ""
        lines.append(f"  n{edge.source} -> n{edge.target}{style};")
    if active:
        lines += _adjoint_lines(graph, active)
    lines.append("}")
    return "\n".join(lines) + "\n"


def _adjoint_lines(graph, active):
    """One dashed node per active name (the variable ``d<name>`` that gathers every
    contribution to it), labelled with the lines that write the name, tied by a dotted
    line to each node writing it; a dashed edge runs against each edge of the graph
    between two active names, as the derivative flows back."""
    writers = {}  # name -> the nodes writing it, in source order
    for node in sorted(graph.nodes, key=lambda node: node.index):
        if node.output in active:
            writers.setdefault(node.output, []).append(node)
    ids = {name: f"a{nodes[0].index}" for name, nodes in writers.items()}
    lines = []
    for name, nodes in writers.items():
        linenos = list(dict.fromkeys(node.lineno for node in nodes))
        where = ("line " if len(linenos) == 1 else "lines ") + ", ".join(map(str, linenos))
        lines.append(f"  {ids[name]} [label={_quote(f'd{name} ({where})')}, style=dashed, "
                     "color=firebrick, fontcolor=firebrick];")
    for name, nodes in writers.items():
        lines += [f"  n{node.index} -> {ids[name]} [style=dotted, color=gray55, "
                  "arrowhead=none, constraint=false];" for node in nodes]
    flows = dict.fromkeys((graph.by_index[e.source].output, graph.by_index[e.target].output)
                          for e in graph.edges)
    # laid out as the forward edge (so each adjoint sits level with its value), drawn back
    lines += [f"  {ids[source]} -> {ids[target]} [dir=back, style=dashed, color=firebrick];"
              for source, target in flows if target in ids and source in ids and target != source]
    return lines


def _quote(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def graph_html(dot_text):
    """Inline SVG drawn by Graphviz's ``dot``, or the DOT text when it is not there."""
    svg = svg_of(dot_text)
    if svg is not None:
        return svg
    return ("<p>the dependency graph in DOT (install Graphviz to see it drawn)</p>\n"
            f"<pre>{html.escape(dot_text)}</pre>")


def svg_of(dot_text):
    """The SVG element ``dot -Tsvg`` draws for ``dot_text``; None without Graphviz."""
    dot = shutil.which("dot")
    if dot is None:
        return None
    try:
        done = subprocess.run([dot, "-Tsvg"], input=dot_text.encode(), capture_output=True,
                              timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    text = done.stdout.decode("utf-8", errors="replace")
    start = text.find("<svg")
    if done.returncode != 0 or start < 0:
        return None
    return text[start:]  # the XML prolog and doctype have no place inside HTML
