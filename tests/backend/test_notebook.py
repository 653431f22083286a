"""Notebook display: the repr methods Jupyter calls, without Jupyter; and examples/tour.ipynb.

HTML must escape every piece of the user's text, so the tests put ``<script>`` in
names, strings and notes and look for it unescaped.
"""

import html
import importlib.util
import json
import math
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

import symdiff
from symdiff.analysis import graph as graph_module
from symdiff.backend import display
from symdiff.checking.report import CheckReport, Row

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
TOUR = ROOT / "examples" / "tour.ipynb"
SCRIPT = "<script>alert(1)</script>"


def flagged(x, mode="<script>alert(1)</script>"):
    if mode == "<script>alert(1)</script>":
        return x * x
    return math.sin(x)


def wave(x, y):
    return math.sin(x * y) + x * x / (1.0 + y * y)


@pytest.fixture
def without_pygments(monkeypatch):
    for name in ("pygments", "pygments.formatters", "pygments.lexers"):
        monkeypatch.setitem(sys.modules, name, None)  # import now raises ImportError


@pytest.fixture
def without_graphviz(monkeypatch):
    monkeypatch.setattr(graph_module.shutil, "which", lambda name: None)


def assert_escaped(text):
    assert "<script" not in text.lower()
    assert "&lt;script&gt;" in text


# --- a gradient's source -------------------------------------------------------------------

def test_a_gradient_shows_its_source_highlighted():
    pytest.importorskip("pygments")
    g = symdiff.grad(wave)
    page = g._repr_html_()
    assert page.startswith("<p><code>grad_wave</code>: grad of wave</p>")
    assert "<span" in page and 'class="highlight"' in page  # pygments' markup
    shown = html.unescape(re.sub(r"<[^>]+>", "", page.partition("</p>")[2]))
    assert shown.strip() == g.source.strip()


def test_without_pygments_the_source_is_an_escaped_pre(without_pygments):
    g = symdiff.grad(flagged, wrt="x")
    page = g._repr_html_()
    body = page.partition("</p>\n")[2]
    assert body == f"<pre>{html.escape(g.source)}</pre>"
    assert_escaped(page)


@pytest.mark.parametrize("highlighted", [True, False])
def test_strings_of_the_users_code_are_escaped(highlighted, request):
    if highlighted:
        pytest.importorskip("pygments")
    else:
        request.getfixturevalue("without_pygments")
    g = symdiff.grad(flagged, wrt="x")
    assert SCRIPT in g.source
    assert_escaped(g._repr_html_())


def test_markdown_is_a_fenced_python_block():
    g = symdiff.value_and_grad(wave)
    text = g._repr_markdown_()
    title, _, rest = text.partition("\n\n")
    assert title == "`grad_wave: value_and_grad of wave`"
    assert rest == f"```python\n{g.source.rstrip()}\n```\n"


def test_a_fence_is_longer_than_any_run_of_backticks_in_the_code():
    text = display.source_markdown("g", "grad of g", "x = '````'\n")
    assert "\n`````python\n" in text and text.endswith("\n`````\n")


def test_every_transform_displays_its_generated_code():
    def lam_host(x, y):
        return x * y * y

    for built in (symdiff.jvp(wave), symdiff.hessian(wave), symdiff.hvp(wave),
                  symdiff.jacobian(wave), symdiff.grad(lambda t: t * math.exp(t)),
                  symdiff.grad(lam_host)):
        page = built._repr_markdown_()
        assert built.source.rstrip() in page
        assert built.__name__ in page


def test_a_lambda_is_named_in_markdown_and_escaped_in_html():
    g = symdiff.grad(lambda t: t * t)
    assert "<locals>.<lambda>`" in g._repr_markdown_()
    assert "&lt;locals&gt;.&lt;lambda&gt;</p>" in g._repr_html_()


def test_a_gradient_built_on_first_use_displays_too(tmp_path):
    path = tmp_path / "late_display.py"
    path.write_text("import symdiff\n\n\n@symdiff.grad\ndef late(x):\n    return helper(x)\n\n\n"
                    "def helper(t):\n    return t * t\n")
    spec = importlib.util.spec_from_file_location("late_display", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert isinstance(module.late, symdiff.api.GradFunction)
    assert module.late.source.rstrip() in module.late._repr_markdown_()
    assert "<code>grad_late</code>" in module.late._repr_html_()


# --- a check report ------------------------------------------------------------------------

def rows_of(page):
    return re.findall(r"<tr( class=\"[^\"]*\"[^>]*)?>(.*?)</tr>", page, re.S)


def test_a_report_is_a_table_with_one_row_per_line_of_the_text():
    report = symdiff.check(wave, (0.3, 1.7), (-1.2, 0.4))
    page = report._repr_html_()
    assert "<table>" in page and "ok</span>" in page
    body = [r for r in rows_of(page) if "symdiff-" in r[0]]
    assert len(body) == len(report.rows) == 4
    assert all('class="symdiff-ok"' in attributes for attributes, _ in body)
    for (_, cells), line in zip(body, str(report).splitlines()[3:]):
        texts = [html.unescape(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", cells)]
        assert line.split() == " ".join(texts).split()


def wrong_rule_softplus(x):
    return math.log1p(math.exp(x))


symdiff.defgrad(wrong_rule_softplus, lambda x, out: 1.0 / (1.0 + math.exp(x)))  # sign wrong


def test_failing_rows_are_marked():
    def loss(w):
        return wrong_rule_softplus(2.0 * w) * w

    report = symdiff.check(loss, (0.3,), (1.1,))
    assert not report.ok
    page = report._repr_html_()
    assert "FAILED</span>" in page
    marked = [cells for attributes, cells in rows_of(page) if "symdiff-failed" in attributes]
    failing = [row for row in report.rows if not row.status.startswith("ok")]
    assert failing and len(marked) == len(failing)
    assert all("&#x2717;" in cells and "background-color" in page for cells in marked)
    assert "wrong rule" in page


def test_a_report_escapes_names_points_statuses_and_notes():
    report = CheckReport(SCRIPT, ["x"])
    report.rows.append(Row((1.0, SCRIPT), SCRIPT, 1.0, 1.0, None, 1.0, "ok"))
    report.rows.append(Row((2.0, SCRIPT), "x", 1.0, 2.0, None, 1.0, SCRIPT))
    report.notes.append(SCRIPT)
    page = report._repr_html_()
    assert_escaped(page)
    assert page.count("&lt;script&gt;") == 6


def test_a_real_check_with_a_string_argument_is_escaped():
    report = symdiff.check(flagged, (1.0, SCRIPT), wrt="x")
    assert report.ok
    assert_escaped(report._repr_html_())


# --- the graph -----------------------------------------------------------------------------

def test_without_graphviz_the_graph_is_its_dot_text(without_graphviz):
    graph = symdiff.grad(wave).graph
    page = graph._repr_html_()
    dot = html.unescape(page.partition("<pre>")[2].rpartition("</pre>")[0])
    assert dot == graph.to_dot(graph.active)
    assert "style=dashed" in dot  # a gradient's graph draws its adjoints


def test_dot_text_is_escaped(without_graphviz):
    page = graph_module.graph_html(f'digraph g {{ a [label="{SCRIPT}"]; }}')
    assert_escaped(page)


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
def test_with_graphviz_the_graph_is_inline_svg():
    graph = symdiff.grad(wave).graph
    page = graph._repr_html_()
    assert page.startswith("<svg") and page.rstrip().endswith("</svg>")
    assert "<?xml" not in page and "<!DOCTYPE" not in page
    assert "dresult (line" in page


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
def test_graphviz_escapes_labels():
    page = graph_module.graph_html(f'digraph g {{ a [label="{SCRIPT}"]; }}')
    assert page.startswith("<svg")
    assert_escaped(page)


def test_graph_of_a_forward_transform_draws_no_adjoints(without_graphviz):
    graph = symdiff.jvp(wave).graph
    assert graph.active is None
    assert "style=dashed" not in graph._repr_html_()


# --- examples/tour.ipynb -------------------------------------------------------------------

def notebook():
    return json.loads(TOUR.read_text(encoding="utf-8"))


def test_the_tour_is_a_small_stripped_nbformat_4_notebook():
    nb = notebook()
    assert nb["nbformat"] == 4 and nb["nbformat_minor"] >= 4
    assert nb["metadata"]["kernelspec"]["language"] == "python"
    assert 5 <= len(nb["cells"]) <= 40
    for cell in nb["cells"]:
        assert cell["cell_type"] in ("markdown", "code")
        assert isinstance(cell["source"], (str, list)) and isinstance(cell["metadata"], dict)
        if cell["cell_type"] == "code":
            assert cell["outputs"] == [] and cell["execution_count"] is None
    ids = [cell.get("id") for cell in nb["cells"]]
    assert len(set(ids)) == len(ids)


RUN_CELLS = r'''
import json, linecache, ast, sys

cells = json.load(open(sys.argv[1], encoding="utf-8"))["cells"]
scope = sys.modules["__main__"].__dict__
shown = 0
for number, cell in enumerate(cells):
    if cell["cell_type"] != "code":
        continue
    text = "".join(cell["source"]) + "\n"
    filename = f"<tour cell {number}>"
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    tree = ast.parse(text, filename)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    exec(compile(tree, filename, "exec"), scope)
    if last is not None:
        value = eval(compile(ast.Expression(last.value), filename, "eval"), scope)
        for method in ("_repr_html_", "_repr_markdown_"):
            if hasattr(value, method):
                assert isinstance(getattr(value, method)(), str)
                shown += 1
print("shown", shown)
'''


def test_the_tours_code_cells_run_in_order(tmp_path):
    """As a kernel runs them: one namespace, each cell's text known to linecache, and
    the value of a cell's last expression displayed through its repr methods."""
    (tmp_path / "run_cells.py").write_text(RUN_CELLS)
    env = {**__import__("os").environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "run_cells.py", str(TOUR)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert int(done.stdout.split()[-1]) >= 5


def nbclient_usable():
    return all(importlib.util.find_spec(name) is not None
               for name in ("nbclient", "nbformat", "ipykernel"))


@pytest.mark.skipif(not nbclient_usable(), reason="nbclient, nbformat and ipykernel are not "
                    "all installed; the code cells are still run in order by the test above")
def test_the_tour_runs_in_a_kernel(tmp_path):
    import nbclient
    import nbformat

    nb = nbformat.read(str(TOUR), as_version=4)
    nbformat.validate(nb)
    nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    kinds = [set(output.get("data", {})) for cell in nb.cells if cell.cell_type == "code"
             for output in cell.outputs if output.output_type == "execute_result"]
    assert sum("text/html" in kind for kind in kinds) >= 4
    assert not [output for cell in nb.cells if cell.cell_type == "code"
                for output in cell.outputs if output.output_type == "error"]
