"""Activity analysis: which names carry derivatives worth computing.

A name is *varied* when it depends on a differentiated parameter and *useful*
when the result depends on it; only names that are both (*active*) get an
adjoint, and only partials from an active target to an active argument are
emitted.  The analysis is by name, over all statements (loops need nothing more),
iterated to a fixed point without recursion.  A call whose record knows no derivative
in an argument that carries one (``zeta(s, x)`` of a varied ``s``) is refused, located.

    def f(x, y):  z = x * 2; w = y + 1; return z      wrt x:  active = [x, z]
"""

from symdiff.analysis.defuse import DefUse
from symdiff.errors import UnsupportedSyntaxError
from symdiff.ir import nodes as ir


def active_names(program, wrt, defuse=None):
    """The active names of ``program`` when differentiating with respect to ``wrt``.

    Two breadth-first searches over the flows of derivatives between names: forward
    from ``wrt`` (varied), backward from the result (useful).  Linear in the number of
    statements.  ``defuse`` is the program's ``DefUse``, built here when not given.
    """
    defuse = defuse if defuse is not None else DefUse(program)
    users = {}  # name -> targets of statements with a differentiable use of it
    sources = {}  # target -> names it differentiably uses
    known = {}  # (op, family) -> which of its partials are not zero, found once per run
    for stmt in defuse.statements:
        flows = []  # (from, to): a derivative can flow from one name to the other
        if isinstance(stmt, ir.Assign):
            flows = [(name, stmt.target) for name in differentiable_args(program, stmt, known)]
        elif isinstance(stmt, ir.Push) and isinstance(stmt.value, ir.Var):
            flows = [(stmt.value.name, stmt.stack)]  # a list is as active as what it holds
        elif isinstance(stmt, ir.Pop):
            flows = [(stmt.stack, stmt.target)]
        elif isinstance(stmt, ir.Build):  # a container is as active as what it holds
            flows = [(name, stmt.target) for name in ir.operand_names(stmt.items)]
        elif isinstance(stmt, (ir.Item, ir.Share, ir.Take)):
            flows = [(stmt.container, stmt.target)]
        elif isinstance(stmt, ir.Join):  # as active as its parts
            flows = [(name, stmt.target) for name in ir.reads(stmt)]
        elif isinstance(stmt, ir.SetItem):
            flows = [(name, stmt.container) for name in ir.operand_names((stmt.value,))]
        elif isinstance(stmt, ir.Reduce):
            flows = [(stmt.container, stmt.target)] + [
                (name, stmt.target) for name in ir.operand_names((stmt.start,))]
        for source, target in flows:
            users.setdefault(source, []).append(target)
            sources.setdefault(target, []).append(source)
    varied = _reach(wrt, users)
    results = program.result if isinstance(program.result, tuple) else (program.result,)
    outputs = [r.name for r in results if isinstance(r, ir.Var) and r.name in varied]
    useful = _reach(outputs, sources)
    refuse_underived(program, defuse, varied, useful)
    return varied & useful


def refuse_underived(program, defuse, varied, useful):
    """A located error at a call whose argument carries a derivative (``varied``) to a
    result that needs it (``useful``) where its record knows none (``underived``:
    ``zeta``'s ``s``), rather than the zero its missing partial would read as."""
    for stmt in defuse.statements:
        if not isinstance(stmt, ir.Assign) or stmt.target not in useful:
            continue
        record = program.rule(stmt.op)
        for position, (param, arg) in enumerate(zip(record.params, stmt.args)):
            if param in getattr(record, "underived", ()) and isinstance(arg, ir.Var) and (
                    arg.name in varied):
                origin = stmt.origin
                raise UnsupportedSyntaxError(
                    f"{stmt.call or stmt.op}({', '.join(record.params)}) has no derivative "
                    f"in {param}, and its argument {position + 1} here depends on a "
                    "parameter differentiated by", filename=origin.filename,
                    lineno=origin.lineno, col_offset=origin.col_offset,
                    source_line=origin.line, hint="give it a constant or a value not "
                    "differentiated by (wrt=...)")


def _reach(start, edges):
    seen = set(start)
    queue = list(start)
    while queue:
        name = queue.pop()
        for nxt in edges.get(name, ()):
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return seen


def differentiable_args(program, stmt, known=None):
    """Names among ``stmt``'s arguments whose VJP is not identically zero (its rule's
    builder is not None).  ``known``: a dict kept across the calls of one analysis, so
    each (op, family, array types) is read once: an array record's builders depend on its
    operands' types (``np.average`` of weights has one for them, of none it has not)."""
    key = (stmt.op, program.computed_by(stmt), program.array_types(stmt))
    nonzero = None if known is None else known.get(key)
    if nonzero is None:
        nonzero = tuple(b is not None for b in program.rule_of(stmt).vjps)
        if known is not None:
            known[key] = nonzero
    return [arg.name for arg, live in zip(stmt.args, nonzero) if live and isinstance(arg, ir.Var)]
