"""The statement and expression rules of ``normalize``, for one function body.

A ``Frame`` normalizes the body of the differentiated function, or of a helper
inlined into it; it holds that body's name mapping (user name -> operand) and
emits IR statements into the current block.  See ``normalize`` for the
guarantees; ``exits`` holds the static questions about ``return``/``break``.
"""

import ast
from contextlib import contextmanager
from dataclasses import dataclass

from symdiff.errors import UnsupportedSyntaxError
from symdiff.frontend.parse import ParsedFunction, lambda_as_def
from symdiff.frontend.resolve import local_names
from symdiff.ir import expr as ex
from symdiff.ir import nodes as ir
from symdiff.lower.checks import check_statement
from symdiff.lower.exits import always_exits, assigned_user_names, contains, direct_exits, own_nodes
from symdiff.lower.expressions import _KINDS, ExpressionRules, describe, operand_ast

_MAY_EXIT = (ast.If, ast.For, ast.While, ast.Return, ast.Break, ast.Continue, ast.Raise)


def list_names(tree):
    """The names a function body (not a function nested in it) assigns a list to."""
    return {target.id for node in own_nodes(tree) if isinstance(node, ast.Assign)
            and isinstance(node.value, ast.List) for target in node.targets
            if isinstance(target, ast.Name)}


@dataclass(eq=False)
class Nested:
    """A function defined inside the one being normalized: ``def g(t): ...`` or
    ``g = lambda t: ...``.  It is inlined where it is called, like a module-level
    helper; a name it does not bind means what that name means in ``definer`` at the
    moment of the call, as in Python, where a closure reads its variables when it runs."""

    tree: ast.FunctionDef
    definer: object  # the Frame of the function whose body defines it

    def __post_init__(self):
        parsed = self.definer.parsed
        self.parsed = ParsedFunction(name=self.tree.name, tree=self.tree,
                                     filename=parsed.filename, globals=parsed.globals,
                                     closure=parsed.closure)
        self.__name__ = self.tree.name
        self.__defaults__ = tuple(ast.literal_eval(d) for d in self.tree.args.defaults)


@dataclass
class Loop:
    stop: str = None  # set by break
    skip: str = None  # set by continue
    may_return: bool = False


class Frame(ExpressionRules):
    def __init__(self, unit, parsed, mapping, stack, top, compound=0, out=None):
        self.unit, self.parsed, self.namer = unit, parsed, unit.namer
        self.mapping = mapping
        self.stack = stack
        self.top = top
        self.locals = set(local_names(parsed.tree))
        self.compound = compound
        self.loops = []
        self.out = out if out is not None else []
        self.origin = None
        self.hint = "result"
        self.result = None
        self.result_tuple = None
        self.unpacked = None  # how many values a helper's call unpacks (`a, b = f(x)`)
        self.checks_only = False  # a helper called as a statement, returning nothing
        self.returned = None
        self.flag_reads = set()
        self.definer = None  # for a nested function, the Frame of the one defining it
        self.functions = {}  # user name -> Nested, for the functions this body defines
        self.tables = {}  # parameter -> (name, values): a table a caller passed
        self.stacks = {}  # user name of a list used as a stack -> its generated name
        self.stack_methods = {}  # user name bound to a stack's append or pop -> (stack, method)
        self.lists = list_names(parsed.tree)  # names this body assigns ``[]``: its stacks

    def error(self, cls, node, message, hint=None):
        return self.parsed.error(cls, node, message, hint)

    # --- function bodies -------------------------------------------------------------

    def run_function_body(self, stmts, result_target=None):
        """Normalize a function body into ``self.out``; return (block, result operand)."""
        start = len(self.out)
        self.result = result_target
        final = stmts[-1] if stmts else None
        if self.checks_only:  # `validate(p, t)`: it runs its checks and gives nothing back
            self.block(stmts)
            operand = None
        elif isinstance(final, ast.Return) and not contains(stmts[:-1], ast.Return):
            self.block(stmts[:-1])
            self.set_origin(final)
            if final.value is None:
                raise self.error(UnsupportedSyntaxError, final, "return without a value",
                                 "return the number to differentiate")
            if self.returns_tuple(final.value):
                operand = self.tuple_result(final.value)
            else:
                simple = isinstance(final.value, (ast.Name, ast.Constant))
                target = result_target if simple else (result_target or self.result_name())
                self.hint = target or "result"
                operand = self.value(final.value, target)
        else:
            if not contains(stmts, ast.Return):
                raise self.error(UnsupportedSyntaxError, self.parsed.tree,
                                 f"{self.parsed.name} never returns a value",
                                 "end it with `return <number>`")
            self.block(stmts)
            if self.result_tuple is not None:
                operand = tuple(ir.Var(name) for name in self.result_tuple)
            else:
                operand = ir.Var(self.result_name())
        if self.returned is not None:
            if self.returned in self.flag_reads:
                self.out.insert(start, self.flag_set(self.returned, False))
            else:
                _strip_assignments(self.out, self.returned)
        return self.out, operand

    def returns_tuple(self, node):
        """Whether this ``return`` gives several values: a helper whose call unpacks them,
        or (forward mode) the differentiated function returning a tuple written out."""
        if self.unpacked is not None:
            if not isinstance(node, (ast.Tuple, ast.Call)):
                raise self.one_value_returned(node)
            return True
        return self.top and self.unit.allow_tuple and isinstance(node, ast.Tuple)

    def tuple_result(self, node):
        """``return a, b``: each element into its own result name.

        In a helper whose call unpacks its values, ``return g(x)`` may hand on the values
        of another such helper.
        """
        if self.result_tuple is None:
            base = "result" if self.top else f"{self.parsed.name}_result"
            count = self.unpacked if self.unpacked is not None else len(node.elts)
            self.result_tuple = [self.namer.fresh(f"{base}{i}") for i in range(count)]
        if isinstance(node, ast.Call):
            values = self.unpacked_call(node, len(self.result_tuple))
            if values is None:
                raise self.one_value_returned(node)
            for value, name in zip(values, self.result_tuple):
                self.emit(ir.Assign(name, "copy", (value,), self.origin))
            return tuple(ir.Var(name) for name in self.result_tuple)
        if len(node.elts) != len(self.result_tuple):
            message = (f"returns {len(node.elts)} values here but {len(self.result_tuple)} "
                       "elsewhere" if self.unpacked is None else
                       f"{self.parsed.name} returns {len(node.elts)} values here, but its "
                       f"call unpacks {self.unpacked}")
            raise self.error(UnsupportedSyntaxError, node, message, "return the same number")
        for element, name in zip(node.elts, self.result_tuple):
            self.hint = name
            self.value(element, name)
        return tuple(ir.Var(name) for name in self.result_tuple)

    def one_value_returned(self, node):
        return self.error(UnsupportedSyntaxError, node,
                          f"{self.parsed.name} returns one value here, but its call unpacks "
                          f"{self.unpacked}", "return the values written out: `return a, b`")

    def unpacked_call(self, node, count):
        """``a, b = f(x)`` with ``f`` a user function: its ``count`` values as operands;
        None when ``node`` is not a call of a user function."""
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            callee = self.module_member(node.func)  # `m, e = math.frexp(x)`
            return self.pair_call(callee, node, count) if callee.kind == "primitive" else None
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            return None
        callee = self.meaning(node.func.id, node.func)
        if callee.kind == "primitive":
            return self.pair_call(callee, node, count)
        if callee.kind not in ("function", "nested"):
            return None
        return self.call_user(callee.value, node, None, unpacked=count)

    def result_name(self):
        if self.result is None:
            self.result = self.namer.fresh("result" if self.top else f"{self.parsed.name}_result")
        return self.result

    # --- statements ------------------------------------------------------------------

    def block(self, stmts):
        for i, stmt in enumerate(stmts):
            if not isinstance(stmt, _MAY_EXIT):  # a simple statement: control goes on
                self.statement(stmt)
                continue
            rest = stmts[i + 1:]
            if isinstance(stmt, ast.If) and rest and contains([stmt], ast.Return, ast.Break,
                                                             ast.Continue):
                if always_exits(stmt.body) and always_exits(stmt.orelse):
                    rest = []
                elif always_exits(stmt.body):
                    stmt, rest = _with_orelse(stmt, stmt.orelse + rest), []
                elif always_exits(stmt.orelse):
                    stmt, rest = _with_orelse(stmt, stmt.orelse, stmt.body + rest), []
            self.statement(stmt)
            if always_exits([stmt]) or not rest:
                return
            flags = self.exit_flags(stmt)
            if flags:
                self.guarded(flags, rest, stmt)
                return

    def exit_flags(self, stmt):
        """The flags that tell, after ``stmt``, that the rest of the block must not run."""
        kinds = direct_exits(stmt)
        loop = self.loops[-1] if self.loops else None
        flags = []
        if "return" in kinds:
            flags.append(self.returned_flag())
        if loop is not None and "break" in kinds:
            flags.append(loop.stop)
        if loop is not None and "continue" in kinds:
            flags.append(loop.skip)
        return flags

    def guarded(self, flags, rest, stmt):
        self.set_origin(stmt)
        self.flag_reads.update(flags)
        test = ast.UnaryOp(ast.Not(), _any_of(flags))
        go_on = self.compute(self.namer.fresh("go_on"), test, tuple(flags))
        self.enter_compound(ast.Module(body=rest, type_ignores=[]))  # the rest is a branch now
        with self.nested():
            body = self.sub_block(rest)
        self.emit(ir.If(go_on, body, [], self.origin))

    def statement(self, node):
        self.set_origin(node)
        method = getattr(self, "stmt_" + type(node).__name__, None)
        if method is None:
            raise self.error(UnsupportedSyntaxError, node,
                             f"{type(node).__name__} statement is not supported")
        method(node)

    def stmt_Pass(self, node):
        pass

    def stmt_FunctionDef(self, node):
        self.functions[node.name] = Nested(node, self)

    def stmt_Raise(self, node):
        """``raise`` and ``assert``: run in the forward sweep where the function runs them."""
        self.emit(check_statement(self, node))

    stmt_Assert = stmt_Raise

    def stmt_Import(self, node):
        """An import in the body binds its names as a module-level one would (``parse``)."""

    stmt_ImportFrom = stmt_Import

    def stmt_Expr(self, node):
        if isinstance(node.value, ast.Constant):  # a docstring
            return
        func = node.value.func
        if isinstance(func, ast.Name) and self.meaning(func.id, func).kind in (
                "function", "nested"):  # `validate(p, t)`: its checks run here
            self.call_user(self.meaning(func.id, func).value, node.value, None, discard=True)
            return
        method = self.stack_method(node.value.func)
        if method is None or method[1] != "append" or len(node.value.args) != 1:
            raise self.error(UnsupportedSyntaxError, node, "an expression statement is not "
                             "supported: its value is discarded",
                             "assign the value to a name or remove the line")
        self.hint = method[0]
        self.emit(ir.Push(method[0], self.value(node.value.args[0]), self.origin))

    # --- stacks: lists used only through append and pop, as generated gradients do ----

    def stack_statement(self, node):
        """``s = []`` or ``push, pop = s.append, s.pop``; True when ``node`` was one."""
        target, value = node.targets[0], node.value
        if len(node.targets) != 1:
            return False
        if isinstance(target, ast.Name) and isinstance(value, ast.List):
            name = self.target_name(target.id)
            self.stacks[target.id] = name
            self.compute(name, ast.List([], ast.Load()), ())
            return True
        pairs = [(target, value)]
        if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple):
            pairs = list(zip(target.elts, value.elts))
        methods = [self.stack_method(v) if isinstance(t, ast.Name) else None for t, v in pairs]
        if not all(methods):
            return False
        for (alias, _), method in zip(pairs, methods):
            self.stack_methods[alias.id] = method
        return True

    def stack_method(self, func):
        """``(stack, "append" | "pop")`` when ``func`` is a stack's method, else None."""
        if isinstance(func, ast.Name):
            return self.stack_methods.get(func.id)
        if (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
                and func.value.id in self.stacks and func.attr in ("append", "pop")):
            return self.stacks[func.value.id], func.attr
        return None

    def stmt_Assign(self, node):
        if self.stack_statement(node):
            return
        if isinstance(node.value, ast.Lambda):  # `g = lambda t: ...`, as fence allows
            name = node.targets[0].id
            self.functions[name] = Nested(lambda_as_def(node.value, name), self)
            return
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            self.assign(node.targets[0].id, node.value)
            return
        if isinstance(node.targets[0], ast.Tuple) or len(node.targets) > 1:
            self.hint = "value"
            first = self.protect(node.targets, self.unpack_value(node.targets[0], node.value))
            for target in node.targets:
                self.bind(target, first)
            return

    def protect(self, targets, operands):
        """Copy aside each value an earlier name of the assignment overwrites first.

        ``a, b = b, a`` needs the old ``a`` kept; ``x0, x1 = x1, x2`` needs nothing.
        """
        written = []  # the names the assignments write, in order
        for target in targets:
            for sub in ast.walk(target):
                if isinstance(sub, ast.Name):
                    current = self.mapping.get(sub.id)
                    if self.compound and isinstance(current, ir.Var):
                        written.append(current.name)

        def walk(operand, position):
            if isinstance(operand, tuple):
                parts = []
                for part in operand:
                    done, position = walk(part, position)
                    parts.append(done)
                return tuple(parts), position
            if isinstance(operand, ir.Var) and operand.name in written[:position]:
                snapshot = self.namer.fresh(f"{operand.name}_old")
                self.emit(ir.Assign(snapshot, "copy", (operand,), self.origin))
                operand = ir.Var(snapshot)
            return operand, position + 1

        return walk(operands, 0)[0]

    def stmt_AnnAssign(self, node):
        """``x: float = v`` is ``x = v``; ``x: float`` alone binds nothing."""
        if node.value is not None:
            self.assign(node.target.id, node.value)

    def stmt_AugAssign(self, node):
        load = ast.Name(node.target.id, ast.Load(), lineno=node.lineno, col_offset=node.col_offset)
        self.assign(node.target.id, ast.BinOp(load, node.op, node.value, lineno=node.lineno,
                                              col_offset=node.col_offset))

    def stmt_Return(self, node):
        if node.value is None and self.checks_only:
            if self.compound:
                self.out.append(self.flag_set(self.returned_flag(), True))
            for loop in self.loops:
                loop.may_return = True
            return
        if node.value is None:
            raise self.error(UnsupportedSyntaxError, node, "return without a value",
                             "return the number to differentiate")
        if self.returns_tuple(node.value):
            self.tuple_result(node.value)
        else:
            self.hint = self.result_name()
            self.value(node.value, self.result_name())
        if self.compound:
            self.out.append(self.flag_set(self.returned_flag(), True))
        for loop in self.loops:  # every enclosing loop must stop, not just the innermost
            loop.may_return = True

    def stmt_Break(self, node):
        self.out.append(self.flag_set(self.loops[-1].stop, True))

    def stmt_Continue(self, node):
        self.out.append(self.flag_set(self.loops[-1].skip, True))

    def stmt_If(self, node):
        self.hint = "cond"
        test = self.condition(node.test)
        if isinstance(test, ir.Const):  # decided now: `if DEBUG:`
            self.block(node.body if test.value else node.orelse)
            return
        self.enter_compound(node)
        origin = self.origin
        with self.nested():
            body = self.sub_block(node.body)
            orelse = self.sub_block(node.orelse)
        self.emit(ir.If(test.name, body, orelse, origin))

    def stmt_For(self, node):
        call = node.iter
        if not isinstance(call, ast.Call) or self.meaning(call.func.id, call.func).value in (
                enumerate, zip):
            self.table_loop(node)
            return
        self.hint = node.target.id
        steps, reverse = node.iter, False
        if self.meaning(steps.func.id, steps.func).kind == "reversed":
            steps, reverse = steps.args[0], True
            if not isinstance(steps, ast.Call):  # reversed(TABLE)
                self.table_loop(node, reverse=True)
                return
        if not isinstance(steps.func, ast.Name) or (
                self.meaning(steps.func.id, steps.func).kind != "range"):
            raise self.loop_refused(node.iter, steps)
        bounds = tuple(self.value(arg) for arg in steps.args)
        self.enter_compound(node)
        origin = self.origin
        target = self.target_name(node.target.id)
        self.mapping[node.target.id] = ir.Var(target)
        with self.loop(node) as loop:
            body = self.loop_body(node, loop)
        self.emit(ir.For(target, bounds, body, origin, reverse))
        self.loop_else(node, loop)

    def loop_refused(self, iterable, steps):
        """The error for ``for ... in <iterable>`` whose ``steps`` is no range: in the
        user's terms, a builtin hidden by a name of theirs said as such."""
        name = steps.func.id if isinstance(steps.func, ast.Name) else None
        if name in ("range", "reversed"):
            meaning = self.meaning(name, steps.func)
            what = ("a variable of this function" if meaning.kind == "local"
                    else describe(meaning.value) if meaning.kind in ("other", "constant")
                    else _KINDS.get(meaning.kind, "another object"))
            return self.error(UnsupportedSyntaxError, steps.func,
                              f"{name} here is {what}, not the builtin {name}",
                              f"rename the name that hides the builtin {name}")
        return self.error(UnsupportedSyntaxError, iterable,
                          f"a for loop over {ast.unparse(iterable)} is not supported",
                          "loop over range(...), reversed(range(...)), a table of numbers, "
                          "reversed(TABLE), enumerate(TABLE) or zip(A, B)")

    def table_loop(self, node, reverse=False):
        """``for c in TABLE:``, ``for c in reversed(TABLE):``, ``for i, c in
        enumerate(TABLE):`` or ``for a, b in zip(A, B):``, as a loop over the tables'
        positions whose body starts by reading the elements (values with no derivative):
        ``for i in range(len(TABLE)): c = TABLE[i]; ...`` (``reversed(range(...))`` for
        ``reversed``)."""
        index_user, elements, tables = None, [node.target], [node.iter]
        if reverse:
            tables = node.iter.args
        elif isinstance(node.iter, ast.Call):  # enumerate or zip, as fence allows
            if node.iter.func.id == "enumerate":
                index_user, elements = node.target.elts[0], [node.target.elts[1]]
            else:
                elements = node.target.elts
            tables = node.iter.args
        self.hint = elements[0].id
        read = [self.table(table) for table in tables]
        length = self.loop_length(tables, read)
        self.enter_compound(node)
        origin = self.origin
        if index_user is not None:
            index = self.target_name(index_user.id)
            self.mapping[index_user.id] = ir.Var(index)
        else:
            index = self.namer.fresh(f"{elements[0].id}_index")
        with self.loop(node) as loop:
            def read_elements():
                self.origin = origin
                for element, (name, values) in zip(elements, read):
                    self.mapping[element.id] = self.table_entry(
                        name, values, ir.Var(index), self.target_name(element.id))
            body = self.loop_body(node, loop, read_elements)
        self.emit(ir.For(index, (length,), body, origin, reverse))
        self.loop_else(node, loop)

    def loop_length(self, tables, read):
        """How many times a loop over ``tables`` runs: the shortest one's length."""
        if all(values is not None for _, values in read):
            return ir.Const(min(len(values) for _, values in read))
        lengths = [self.table_length(table) for table in tables]
        if len(lengths) == 1:
            return lengths[0]
        shortest = ast.Call(ast.Name("min", ast.Load()), [operand_ast(n) for n in lengths], [])
        return ir.Var(self.compute(self.namer.fresh("length"), shortest,
                                   tuple(n.name for n in lengths if isinstance(n, ir.Var))))

    def stmt_While(self, node):
        self.enter_compound(node)
        origin = self.origin
        with self.nested():
            self.hint = "cond"
            pre, test = self.capture(lambda: self.condition(node.test))
            with self.loop(node) as loop:
                body = self.loop_body(node, loop)
        test_expr, reads = ex.of_operand(test), _reads(test)
        if len(pre) == 1 and isinstance(pre[0], ir.Compute) and reads == (pre[0].target,):
            test_expr, reads, pre = pre[0].expr, pre[0].reads, []  # `while x > 1:` as written
        self.emit(ir.While(pre, test_expr, reads, body, origin))
        self.loop_else(node, loop)

    def loop_else(self, node, loop):
        """A loop's ``else:``, run when the loop ended without ``break`` (or ``return``)."""
        if not node.orelse:
            return
        flags = [loop.stop] if loop.stop else []
        if loop.may_return:
            flags.append(self.returned_flag())
        if flags:
            self.guarded(flags, node.orelse, node)
        else:
            self.block(node.orelse)

    # --- loops and compound statements -------------------------------------------------

    @contextmanager
    def nested(self):
        self.compound += 1
        try:
            yield
        finally:
            self.compound -= 1

    @contextmanager
    def loop(self, node):
        loop = Loop()
        if contains(node.body, ast.Break, into_loops=False):
            loop.stop = self.namer.fresh("stop")
            self.out.append(self.flag_set(loop.stop, False))
        if contains(node.body, ast.Continue, into_loops=False):
            loop.skip = self.namer.fresh("skip")
        self.loops.append(loop)
        try:
            with self.nested():
                yield loop
        finally:
            self.loops.pop()

    def loop_body(self, node, loop, prologue=None):
        """The loop's body; ``prologue()`` emits what each iteration does first."""
        saved, self.out = self.out, []
        try:
            if loop.skip:
                self.out.append(self.flag_set(loop.skip, False))
            if prologue is not None:
                prologue()
            self.block(node.body)
            exits = [flag for flag in (loop.stop,) if flag]
            if loop.may_return:
                exits.append(self.returned_flag())
            if exits:
                self.flag_reads.update(exits)
                self.set_origin(node)
                self.out.append(ir.BreakIf(ex.from_ast(_any_of(exits)), tuple(exits), self.origin))
            return self.out
        finally:
            self.out = saved

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

    def enter_compound(self, node):
        """Before a top-level branch or loop: copy variables it updates that earlier code reads.

        The reverse sweep reads straight-line values directly, so a loop must not
        overwrite a value an earlier straight-line statement still needs.  (A read
        inside an earlier branch or loop is saved by ``differentiate`` instead: the
        variable may be unassigned here, and copying it would raise.)
        """
        if self.compound:
            return
        for name in assigned_user_names(node):
            current = self.mapping.get(name)
            if isinstance(current, ir.Var) and current.name in self.unit.read:
                fresh = self.namer.fresh(name)
                self.emit(ir.Assign(fresh, "copy", (current,), self.origin))
                self.mapping[name] = ir.Var(fresh)

    # --- assignment --------------------------------------------------------------------

    def assign(self, name, value_node):
        self.hint = name
        target = self.target_name(name)
        self.value(value_node, target)
        self.mapping[name] = ir.Var(target)

    def target_name(self, name):
        """The generated name an assignment to user variable ``name`` writes."""
        current = self.mapping.get(name)
        if self.compound and isinstance(current, ir.Var):
            return current.name
        if current is None and self.top and not self.namer.is_issued(name):
            return self.namer.claim(name)
        return self.namer.fresh(name)

    def unpack_value(self, target, value_node):
        """Evaluate the right side of a tuple assignment into operands (a nested tuple)."""
        if isinstance(value_node, ast.Tuple):
            if isinstance(target, ast.Tuple) and len(target.elts) != len(value_node.elts):
                raise self.error(UnsupportedSyntaxError, value_node,
                                 f"{len(value_node.elts)} values assigned to "
                                 f"{len(target.elts)} names", "match the counts")
            subtargets = target.elts if isinstance(target, ast.Tuple) else [None] * len(
                value_node.elts)
            return tuple(self.unpack_value(t, v) for t, v in zip(subtargets, value_node.elts))
        if isinstance(target, ast.Tuple):
            values = self.unpacked_call(value_node, len(target.elts))
            if values is not None:
                return values
            raise self.error(UnsupportedSyntaxError, value_node,
                             "unpacking a value that is not a tuple written out is not supported",
                             "write the values out: `a, b = x, y`, or call a def function "
                             "that returns them: `return x, y`")
        return self.value(value_node)

    def bind(self, target, operand):
        if isinstance(target, ast.Name):
            name = self.target_name(target.id)
            self.emit(ir.Assign(name, "copy", (_flat(operand, self, target),), self.origin))
            self.mapping[target.id] = ir.Var(name)
            return
        if not isinstance(operand, tuple) or len(operand) != len(target.elts):
            raise self.error(UnsupportedSyntaxError, target, "these names cannot be unpacked "
                             "from the value", "write the values out: `a, b = x, y`")
        for sub_target, sub_operand in zip(target.elts, operand):
            self.bind(sub_target, sub_operand)

    # --- small emitters ----------------------------------------------------------------

    def set_origin(self, node):
        self.statement_node = node  # the statement messages about its expressions speak of
        lineno = getattr(node, "lineno", self.parsed.tree.lineno)
        text = (self.parsed.source_line(lineno) or "").strip()
        self.origin = ir.Origin(self.parsed.filename, lineno, getattr(node, "col_offset", 0),
                                text, self.parsed.name)

    def emit(self, stmt):
        self.out.append(stmt)

    def compute(self, target, expr, reads):
        self.emit(ir.Compute(target, ex.from_ast(expr), self.origin, tuple(reads)))
        return target

    def flag_set(self, name, value):
        return ir.Compute(name, ex.Const(value), self.origin, ())

    def returned_flag(self):
        if self.returned is None:
            self.returned = self.namer.fresh("returned")
        return self.returned


def _with_orelse(node, orelse, body=None):
    return ast.If(node.test, body if body is not None else node.body, orelse,
                  lineno=node.lineno, col_offset=node.col_offset)


def _any_of(flags):
    names = [ast.Name(flag, ast.Load()) for flag in flags]
    return names[0] if len(names) == 1 else ast.BoolOp(ast.Or(), names)


def _reads(operand):
    return (operand.name,) if isinstance(operand, ir.Var) else ()


def _flat(operand, frame, node):
    if isinstance(operand, tuple):
        raise frame.error(UnsupportedSyntaxError, node, "a tuple cannot be assigned to one name",
                          "unpack it into several names")
    return operand


def _strip_assignments(block, name):
    block[:] = [s for s in block if not (isinstance(s, ir.Compute) and s.target == name)]
    for stmt in block:
        for sub in (getattr(stmt, "body", None), getattr(stmt, "orelse", None),
                    getattr(stmt, "pre", None)):
            if sub:
                _strip_assignments(sub, name)

