"""Display: HTML and Markdown for notebooks, of generated code and check reports.

Expects plain values (a name, a text, a ``CheckReport``) and needs no
notebook: Jupyter calls ``_repr_html_`` / ``_repr_markdown_`` on the objects symdiff
returns, and those call these.  Guarantees HTML in which every piece of text from the
user's program (names, source lines, strings, numbers) is escaped; code highlighted
by pygments when it can be imported, else an escaped ``<pre>``; pygments is used when
present, never required.  (The dependency graph draws itself: ``analysis.graph``.)

    source_html("grad_f", "grad of f", text)    <p><code>grad_f</code>: grad of ...</p>
                                                <div class="highlight"><pre>...</pre></div>
"""

import html
import re

FAILED_STYLE = "background-color:#fde2e1"
CELL_STYLE = "padding:2px 8px;text-align:left;font-family:monospace"


def source_html(name, description, text):
    """A title line and the highlighted ``text``."""
    return (f"<p><code>{html.escape(name)}</code>: {html.escape(description)}</p>\n"
            + code_html(text))


def source_markdown(name, description, text):
    """A title line and ``text`` in a fenced Python block (a fence no line of it closes).

    The title is a code span, which Markdown shows as it is (``<lambda>`` included).
    """
    runs = [len(run) for run in re.findall(r"`+", text)]
    fence = "`" * max([3] + [n + 1 for n in runs])
    title = f"{name}: {description}".replace("`", "'")
    return f"`{title}`\n\n{fence}python\n{text.rstrip()}\n{fence}\n"


def code_html(text):
    """``text`` as highlighted HTML: pygments' inline styles when it imports, else plain."""
    try:
        from pygments import highlight
        from pygments.formatters import HtmlFormatter
        from pygments.lexers import PythonLexer
    except ImportError:
        return f"<pre>{html.escape(text)}</pre>"
    return highlight(text, PythonLexer(), HtmlFormatter(noclasses=True))


def report_html(report, columns):
    """The report as a table; rows failing a witness marked, and said so in their status.

    ``columns`` gives a row's cells as text, in the order of the header.
    """
    head = ("point", "wrt", "generated", "tape", "sympy", "finite diff", "status")
    verdict = "ok" if report.ok else "FAILED"
    colour = "#1a7f37" if report.ok else "#b42318"
    parts = [f'<div class="symdiff-check"><p><strong>check <code>{html.escape(report.function)}'
             f'</code>: <span style="color:{colour}">{verdict}</span></strong></p>',
             '<table><thead><tr>' + "".join(f'<th style="{CELL_STYLE}">{h}</th>' for h in head)
             + "</tr></thead><tbody>"]
    for row in report.rows:
        failed = not row.status.startswith("ok")
        cells = [html.escape(str(cell)) for cell in columns(row)]
        if failed:
            cells[-1] = f"<strong>&#x2717; {cells[-1]}</strong>"
        attributes = (f' class="symdiff-failed" style="{FAILED_STYLE}"' if failed
                      else ' class="symdiff-ok"')
        parts.append(f"<tr{attributes}>" + "".join(
            f'<td style="{CELL_STYLE}">{cell}</td>' for cell in cells) + "</tr>")
    parts.append("</tbody></table>")
    notes = ([("diverges", d) for d in report.divergences]
             + [("wrong rule", p) for p in report.rule_problems]
             + [("note", n) for n in report.notes])
    if notes:
        parts.append("<ul>" + "".join(f"<li><strong>{kind}</strong>: {html.escape(str(text))}"
                                      "</li>" for kind, text in notes) + "</ul>")
    parts.append("</div>")
    return "\n".join(parts)
