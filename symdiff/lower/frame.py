"""Frame: the state of one function body being lowered, and the entry points the units
call each other through.

Expects a ``Unit`` (what the whole lowering shares) and the ``ParsedFunction`` of the
body: the differentiated function, or a helper or nested function inlined into it.  A
``Frame`` holds that body's name mapping (user name -> operand), the block statements
are emitted into, the loops it is inside, and the flags its exits set.  The units
(``statements``, ``loops``, ``expressions``, ``calls``, ``inline``...) are functions of a
frame; they reach one another only through ``value``, ``block`` and ``call_user``
here, so no unit imports another that imports it back.
"""

from contextlib import contextmanager

from symdiff.core import expr as ex
from symdiff.ir import nodes as ir
from symdiff.lower import expressions, inline, statements


class Frame:
    def __init__(self, unit, parsed, mapping, stack, top, compound=0, out=None):
        self.unit, self.parsed, self.namer = unit, parsed, unit.namer
        self.mapping = mapping
        self.stack = stack
        self.top = top
        self.reading = unit.reading(parsed.tree)  # what the tree says, read once per build
        self.locals = frozenset(self.reading.locals)
        self.compound = compound
        self.loops = []
        self.out = out if out is not None else []
        self.origin = None
        self.statement_node = None  # the statement messages about its expressions speak of
        self.hint = "result"
        self.result = None
        self.result_tuple = None
        self.unpacked = None  # how many values a helper's call unpacks (`a, b = f(x)`)
        self.checks_only = False  # a helper called as a statement, returning nothing
        self.returned = None
        self.flag_reads = set()  # the flags a guard or a loop's BreakIf reads
        self.followed = 0  # how many statements being lowered have more after them
        self.definer = None  # for a nested function, the Frame of the one defining it
        self.functions = {}  # user name -> Nested, for the functions this body defines
        self.tables = {}  # parameter -> (name, values): a table a caller passed
        self.methods = {}  # user name bound to a list's append or pop -> (list, method)
        self.rebinds = set()  # ids of assignments in a loop body that take a new variable
        # Per frame, not per unit: a helper inlined twice lowers the same nodes twice.
        self.ahead = {}  # id of an expression evaluated ahead of its use -> its operand
        self.taken = {}  # id of a slice in the source -> the list ``containers.taken`` made
        self.attempts = 0  # how many ``try`` bodies the statement being lowered is inside
        self.handling = []  # the names keeping the exceptions of the handlers it is inside

    # --- the entry points the units call one another through ------------------------

    def value(self, node, target=None):
        """The operand of expression ``node`` (``expressions.value``)."""
        return expressions.value(self, node, target)

    def block(self, stmts):
        """Lower the statements ``stmts`` into the current block (``statements.block``)."""
        statements.block(self, stmts)

    def call_user(self, fn, node, target, unpacked=None, discard=False):
        """Inline a call of the user's function ``fn`` (``inline.call_user``)."""
        return inline.call_user(self, fn, node, target, unpacked=unpacked, discard=discard)

    def helper(self, parsed, fn):
        """A frame for the body of ``fn``, called from this one, writing into its block."""
        return Frame(self.unit, parsed, mapping={}, stack=self.stack + (fn,), top=False,
                     compound=self.compound, out=self.out)

    # --- state ------------------------------------------------------------------------

    def parent(self, node):
        """The syntax node that holds ``node`` in this body's tree (None for the root)."""
        return self.reading.parent(node)

    def error(self, cls, node, message, hint=None):
        return self.parsed.error(cls, node, message, hint)

    def result_name(self):
        if self.result is None:
            self.result = self.namer.fresh("result" if self.top else f"{self.parsed.name}_result")
        return self.result

    def target_name(self, name):
        """The generated name an assignment to user variable ``name`` writes."""
        current = self.mapping.get(name)
        if self.compound and isinstance(current, ir.Var):
            return current.name
        if current is None and self.top and not self.namer.is_issued(name):
            return self.namer.claim(name)
        return self.namer.fresh(name)

    def returned_flag(self):
        if self.returned is None:
            self.returned = self.namer.fresh("returned")
        return self.returned

    @contextmanager
    def nested(self):
        self.compound += 1
        try:
            yield
        finally:
            self.compound -= 1

    @contextmanager
    def followed_by(self, rest):
        """While a statement is being lowered that more statements follow in its block
        (``rest``: those statements, or whether there are any)."""
        self.followed += bool(rest)
        try:
            yield
        finally:
            self.followed -= bool(rest)

    def sub_block(self, stmts):
        saved, self.out = self.out, []
        try:
            self.block(stmts)
            return self.out
        finally:
            self.out = saved

    def capture(self, thunk):
        saved, self.out = self.out, []
        try:
            result = thunk()
            return self.out, result
        finally:
            self.out = saved

    # --- emitting ---------------------------------------------------------------------

    def set_origin(self, node):
        self.statement_node = node
        lineno = getattr(node, "lineno", self.parsed.tree.lineno)
        line = (self.parsed.source_line(lineno) or "").rstrip()
        text = line.lstrip()
        self.origin = ir.Origin(self.parsed.filename, lineno, getattr(node, "col_offset", 0),
                                text, self.parsed.name, indent=line[:len(line) - len(text)])

    def emit(self, stmt):
        self.out.append(stmt)

    def compute(self, target, expr, reads):
        self.emit(ir.Compute(target, ex.from_ast(expr), self.origin, tuple(reads)))
        return target

    def flag_set(self, name, value):
        return ir.Compute(name, ex.Const(value), self.origin, ())
