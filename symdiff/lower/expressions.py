"""The expression rules of ``normalize``: one operation per statement.

Mixed into ``Frame``.  ``value(node, target)`` emits the statements computing
``node`` and returns the operand holding its value; when ``target`` is given the
last operation writes it directly.  ``and``/``or``, chained comparisons and
conditional expressions become ``If`` statements so Python's evaluation order
(and its short-circuits) is kept.
"""

import ast
import operator
import sys
from dataclasses import dataclass

from symdiff.errors import (
    RecursionCycleError,
    UndefinedNameError,
    UnknownFunctionError,
    UnsupportedSyntaxError,
)
from symdiff.frontend.resolve import Meaning, classify, lookup, module_attribute, table_values
from symdiff.ir import nodes as ir
from symdiff.lower.calls import PrimitiveCalls
from symdiff.lower.exits import assigned_user_names, own_nodes
from symdiff.primitives.rules import rule_of, uses_output

BINARY = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "div", ast.Pow: "pow",
          ast.FloorDiv: "floordiv", ast.Mod: "mod"}
UNARY = {ast.USub: "neg", ast.UAdd: "pos"}
IN_PLACE_OPS = ("add", "sub")  # ops whose result may overwrite one of their own inputs
_USES = {"module": "use one of its functions or constants, such as math.pi",
         "table": "index it (T[i]) or loop over it (for c in T)",
         "range": "use it in a for loop: for i in range(n)",
         "reversed": "use it in a for loop: for c in reversed(T)"}  # by kind: what to do
_KINDS = {"module": "a module", "function": "a function", "range": "the builtin range",
          "reversed": "the builtin reversed",
          "custom": "a function", "nested": "a function", "table": "a table of numbers",
          "stop_gradient": "a function", "primitive": "a function", "other": "not a number"}


def describe(value):
    """What ``value`` is, in a user's words: ``a tuple of tuples``, ``a str``."""
    kind = type(value).__name__
    if isinstance(value, (tuple, list)) and value:
        inner = {type(v).__name__ for v in value}
        if len(inner) == 1:
            return f"a {kind} of {inner.pop()}s"
        return f"a {kind} of mixed values ({', '.join(sorted(inner))})"
    article = "an" if kind[:1] in "aeiou" else "a"
    return f"{article} {kind}"


def _is_nested_table(value):
    return isinstance(value, (tuple, list)) and any(isinstance(v, (tuple, list)) for v in value)


@dataclass(frozen=True)
class Table:
    """A table bound to a helper's parameter: the name generated code reads it by, and
    its values (None for one known only when the gradient runs)."""

    name: str
    values: tuple = None


def table_uses(tree):
    """The names a function uses as tables: indexed, measured by ``len``, looped over."""
    found = set()
    for node in own_nodes(tree):
        if isinstance(node, ast.Subscript):
            found.add(node.value)
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) in (
                "len", "enumerate", "zip"):
            found.update(node.args)
        elif isinstance(node, ast.For) and not isinstance(node.iter, ast.Call):
            found.add(node.iter)
    return {n.id for n in found if isinstance(n, ast.Name)}


class ExpressionRules(PrimitiveCalls):
    def value(self, node, target=None):
        if target is not None and isinstance(node, (ast.BoolOp, ast.IfExp, ast.Compare)) and (
                self.reads_name(node, target)):
            target_later, target = target, None  # `x = (c and a) or x`: x is read after a
            operand = self.value_inner(node, None)
            self.emit(ir.Assign(target_later, "copy", (operand,), self.origin))
            return ir.Var(target_later)
        operand = self.value_inner(node, target)
        if target is not None and operand != ir.Var(target):
            self.emit(ir.Assign(target, "copy", (operand,), self.origin))
            return ir.Var(target)
        return operand

    def value_inner(self, node, target):
        if isinstance(node, ast.JoinedStr):
            raise self.error(UnsupportedSyntaxError, node, "an f-string is not a number",
                             "f-strings may stand in the messages of raise and assert")
        if isinstance(node, ast.Constant):
            if isinstance(node.value, (int, float)):  # bool is an int
                return ir.Const(node.value)
            raise self.error(UnsupportedSyntaxError, node, f"the constant {node.value!r} is "
                             "not a number", "symdiff differentiates numbers")
        if isinstance(node, ast.Name):
            return self.name_operand(node)
        if isinstance(node, ast.Attribute):
            return self.attribute_operand(node)
        if isinstance(node, ast.BinOp):
            return self.binary_chain(node, target)
        if isinstance(node, ast.UnaryOp):
            if isinstance(node.op, ast.Not):
                operand = self.value(node.operand)
                if isinstance(operand, ir.Const):  # decided now: `not DEBUG`
                    return ir.Const(not operand.value)
                test = ast.UnaryOp(ast.Not(), operand_ast(operand))
                return ir.Var(self.compute(target or self.namer.fresh("cond"), test,
                                           _reads(operand)))
            if isinstance(node.operand, ast.Constant) and isinstance(node.op, ast.USub):
                return ir.Const(-node.operand.value)
            return self.emit_op(UNARY[type(node.op)], (self.value(node.operand),), target)
        if isinstance(node, ast.Call):
            return self.call(node, target)
        if isinstance(node, ast.Subscript):
            return self.table_element(node, target)
        if isinstance(node, ast.IfExp):
            return self.if_expression(node, target)
        if isinstance(node, ast.Compare):
            return self.compare(node, target)
        if isinstance(node, ast.BoolOp):
            return self.bool_operation(node, target)
        if isinstance(node, ast.List):
            raise self.error(UnsupportedSyntaxError, node, "a list is not a number",
                             "an empty list may only be assigned, to serve as a stack")
        if isinstance(node, ast.Tuple):
            raise self.tuple_not_a_number(node)
        raise self.error(UnsupportedSyntaxError, node,
                         f"{type(node).__name__} is not supported in an expression")

    def reads_name(self, node, name):
        """Whether evaluating ``node`` reads the generated name ``name``."""
        return any(isinstance(sub, ast.Name) and self.mapping.get(sub.id) == ir.Var(name)
                   for sub in ast.walk(node))

    def binary_chain(self, node, target):
        """``a + b - c * d ...``: the left spine walked in a loop, so a long sum of
        terms never runs into Python's recursion limit.  Evaluation order is Python's."""
        spine = []
        while isinstance(node, ast.BinOp):
            spine.append(node)
            node = node.left
        result = self.value(node)
        for i, step in enumerate(reversed(spine)):
            right = self.value(step.right)
            last = i == len(spine) - 1
            result = self.emit_op(BINARY[type(step.op)], (result, right), target if last else None)
        return result

    # --- names -------------------------------------------------------------------------

    def meaning(self, name, node):
        scope = self.scope_of(name)
        if scope is not None:
            if name in scope.functions:
                return Meaning("nested", scope.functions[name])
            return Meaning("local")
        try:
            found = lookup(name, self.parsed.closure, self.parsed.globals)
        except KeyError:
            raise self.error(UndefinedNameError, node, f"the name {name} is not defined",
                             "define it at module level before the gradient is first used"
                             ) from None
        meaning = classify(found)
        if name not in self.parsed.closure:
            current = self.parsed.globals.get(name)  # None for a builtin
            contents = table_values(found) if meaning.kind == "table" and (
                not isinstance(found, tuple)) else None  # a list or an array may change
            self.unit.reads.append((self.parsed.globals, name, current, contents))
        return meaning

    def scope_of(self, name):
        """The frame whose own variable or function ``name`` is: this one, or for a
        nested function the frame defining it (and so on out); None for a global."""
        frame = self
        while frame is not None:
            if name in frame.locals or name in frame.functions:
                return frame
            frame = frame.definer
        return None

    def name_operand(self, node):
        meaning = self.meaning(node.id, node)
        scope = self.scope_of(node.id)
        if meaning.kind == "local" and node.id in scope.lists:
            raise self.error(UnsupportedSyntaxError, node,
                             f"{node.id} is a stack (a list used through append and pop): "
                             "it cannot be indexed, measured or read as a value",
                             f"take values back with {node.id}.pop(), or keep the ones you "
                             "read again in variables of their own")
        if meaning.kind == "local" and scope is not self:
            operand = scope.name_operand(node)  # its value now, at the call
            if isinstance(operand, ir.Var) and not self.compound:
                self.unit.read.add(operand.name)
            return operand
        if meaning.kind == "local" and self.is_kwargs(node):
            raise self.error(UnsupportedSyntaxError, node,
                             f"{node.id} (the **{node.id} parameter) is used as a value",
                             f'read one entry with a constant key: {node.id}["k"] or '
                             f'{node.id}.get("k", 1.0)')
        if meaning.kind == "local":
            operand = self.mapping.get(node.id)
            if operand is None:
                if not self.loops:
                    raise self.error(UndefinedNameError, node,
                                     f"{node.id} is used before it is assigned",
                                     "assign it first")
                operand = ir.Var(self.target_name(node.id))  # set by an earlier iteration
                self.mapping[node.id] = operand
            if isinstance(operand, ir.Var) and not self.compound:
                self.unit.read.add(operand.name)  # a straight-line read: see enter_compound
            return operand
        if meaning.kind == "constant":
            return ir.Const(meaning.value, self.unit.global_name(node.id, meaning.value))
        if meaning.kind == "other":
            raise self.error(UnsupportedSyntaxError, node,
                             f"{node.id} is {describe(meaning.value)}, where a number is needed",
                             "only numbers, and tables of numbers where a table is read, can "
                             "be used; a table of tables is not supported: flatten it into "
                             "one table and index it as T[i * width + j]"
                             if _is_nested_table(meaning.value) else
                             "only numbers can be differentiated")
        raise self.error(UnsupportedSyntaxError, node,
                         f"{node.id} is {_KINDS[meaning.kind]}, not a number",
                         _USES.get(meaning.kind, "call it: a function is only called"))

    def tuple_not_a_number(self, node):
        """The error for a tuple where a number is needed, in the terms of where it is."""
        where = getattr(self, "statement_node", None)
        count = len(node.elts)
        if isinstance(where, ast.Return) and where.value is node:
            if self.top:
                return self.error(UnsupportedSyntaxError, node,
                                  f"{self.parsed.name} returns {count} values: a gradient is "
                                  "taken of a function returning one number",
                                  "return one number, or use symdiff.jacobian or symdiff.jvp "
                                  "for a function of several outputs")
            return self.error(UnsupportedSyntaxError, node,
                              f"{self.parsed.name} returns {count} values, but its caller "
                              "uses the call as one number",
                              f"unpack the call: `a, b = {self.parsed.name}(...)`")
        if isinstance(where, ast.Assign) and where.value is node:
            return self.error(UnsupportedSyntaxError, node,
                              f"a tuple of {count} values cannot be kept in one name: "
                              "variables hold numbers",
                              "unpack it where it is made (`a, b = x, y`), or keep each "
                              "number in a name of its own")
        return self.error(UnsupportedSyntaxError, node,
                          f"a tuple of {count} values stands where one number is needed",
                          "write the numbers out one by one")

    def attribute_operand(self, node):
        meaning = self.module_member(node)
        if meaning is None or meaning.kind != "constant":
            raise self.error(UnsupportedSyntaxError, node, f"{ast.unparse(node)} is not a number",
                             "call it, or use a number")
        if self.meaning(node.value.id, node.value).value in ("math", "numpy"):
            return ir.Const(meaning.value, f"{self.unit.math_name}.{node.attr}")
        return ir.Const(meaning.value, self.unit.global_name(node.attr, meaning.value))

    def module_member(self, node):
        if isinstance(node.value, ast.Attribute):  # scipy.special.erf, st.norm.cdf
            base = self.module_member(node.value)
        elif not isinstance(node.value, ast.Name):
            raise self.error(UnsupportedSyntaxError, node, "attribute access is not supported",
                             "only math.* and numpy.* functions and constants can be used")
        else:
            base = self.meaning(node.value.id, node.value)
        if base.kind != "module":
            raise self.error(UnsupportedSyntaxError, node,
                             f"{ast.unparse(node)}: attribute access on {node.value.id} is not "
                             "supported", "only attributes of modules can be used")
        found = module_attribute(base.value, node.attr)
        if found is None and base.value == "math":
            refused = self.refused_math(node, ast.unparse(node), attr=node.attr)
            if refused is not None:
                raise refused
        if found is None:
            raise self.error(UnknownFunctionError, node,
                             f"{ast.unparse(node)} is not something symdiff can differentiate",
                             "use a supported math function, or write it as a def function")
        return found

    # --- tables: tuples and lists of numbers, looped over and indexed ------------------

    def table(self, node):
        """``(name generated code uses, values)`` of a table: a module-level (or closure)
        tuple or list of numbers, or one written out of constants.  A parameter used as a
        table is one known only when the gradient runs: its values are None."""
        if isinstance(node, ast.Name) and node.id in self.tables:
            return self.tables[node.id]  # a helper's parameter, bound to a table
        if isinstance(node, ast.Name) and self.meaning(node.id, node).kind == "local":
            operand = self.name_operand(node)
            if isinstance(operand, ir.Var):
                self.unit.table_names.setdefault(operand.name, self.error(
                    UnsupportedSyntaxError, node, f"{node.id} is read as a table of numbers "
                    "here, so the gradient cannot be taken with respect to it",
                    "name the parameters to differentiate by in wrt"))
                return operand.name, None
        if isinstance(node, (ast.Tuple, ast.List)):
            operands = [self.value(element) for element in node.elts]
            if not all(isinstance(o, ir.Const) for o in operands):
                raise self.error(UnsupportedSyntaxError, node,
                                 "a table of values that are not all constants is not supported",
                                 "loop over range(...) and compute each value in the loop")
            values = tuple(o.value for o in operands)
            return self.unit.global_name("table", values), values
        if isinstance(node, ast.Name):
            meaning, preferred = self.meaning(node.id, node), node.id
        elif isinstance(node, ast.Attribute):
            meaning, preferred = self.module_member(node), node.attr
        else:
            meaning, preferred = None, None
        if meaning is not None and meaning.kind in ("other", "constant"):
            nested = _is_nested_table(meaning.value)
            raise self.error(UnsupportedSyntaxError, node,
                             f"`{ast.unparse(node)}` is {describe(meaning.value)}, not a table "
                             "of numbers", "a table of tables is not supported: flatten it into "
                             "one table and index it as T[i * width + j]" if nested else
                             "index or loop over a tuple or list of numbers")
        if meaning is None or meaning.kind != "table":
            raise self.error(UnsupportedSyntaxError, node,
                             f"`{ast.unparse(node)}` is not a tuple or list of numbers",
                             "only tables of numbers defined at module level (or written out) "
                             "can be indexed or looped over")
        return self.unit.global_name(preferred, meaning.value), table_values(meaning.value)

    # --- **kwargs: read with constant keys, values with no derivative ------------------

    def is_kwargs(self, node):
        """Whether ``node`` names the differentiated function's ``**kwargs`` parameter."""
        kwarg = self.parsed.tree.args.kwarg
        return (self.top and kwarg is not None and isinstance(node, ast.Name)
                and node.id == kwarg.arg)

    def kwargs_entry(self, node, key, default, target):
        """``kwargs["dose"]`` or ``kwargs.get("k", default)``: read when the gradient runs."""
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            raise self.error(UnsupportedSyntaxError, key, "a keyword argument read with a key "
                             "that is not a string constant", 'write the key out: kwargs["k"]')
        kwargs = ast.Name(self.mapping[self.parsed.tree.args.kwarg.arg].name, ast.Load())
        reads = (kwargs.id,)
        if default is None:
            expr = ast.Subscript(kwargs, ast.Constant(key.value), ast.Load())
        else:
            fallback = self.comparand(default)  # a number, None or a string
            reads += _reads(fallback)
            expr = ast.Call(ast.Attribute(kwargs, "get", ast.Load()),
                            [ast.Constant(key.value), operand_ast(fallback)], [])
        return ir.Var(self.compute(target or self.namer.fresh(key.value if key.value.isidentifier()
                                                              else "keyword"), expr, reads))

    def table_element(self, node, target):
        """``TABLE[i]``: a value with no derivative, read from a table of numbers."""
        if self.is_kwargs(node.value):
            return self.kwargs_entry(node, node.slice, None, target)
        if isinstance(node.slice, ast.Slice):
            raise self.error(UnsupportedSyntaxError, node.slice, "a slice is not supported",
                             "index one element: TABLE[i]")
        name, values = self.table(node.value)
        index = self.value(node.slice)
        if isinstance(index, ir.Const) and values is not None:
            try:
                return ir.Const(values[index.value])
            except (IndexError, TypeError) as exc:
                raise self.error(UnsupportedSyntaxError, node, f"{ast.unparse(node)}: {exc}",
                                 "index with a whole number inside the table") from None
        return self.table_entry(name, values, index, target)

    def table_entry(self, name, values, index, target=None):
        """Emit ``target = name[index]``, a value with no derivative; its operand."""
        element = ast.Subscript(ast.Name(name, ast.Load()), operand_ast(index), ast.Load())
        reads = _reads(index) + ((name,) if values is None else ())
        return ir.Var(self.compute(target or self.namer.fresh(f"{self.hint}_entry"), element,
                                   reads))

    def table_length(self, node, target=None):
        """``len(TABLE)``: a number now, or for a parameter, when the gradient runs."""
        name, values = self.table(node)
        if values is not None:
            return ir.Const(len(values))
        length = ast.Call(ast.Name("len", ast.Load()), [ast.Name(name, ast.Load())], [])
        return ir.Var(self.compute(target or self.namer.fresh(f"{name}_length"), length,
                                   (name,)))

    # --- operations --------------------------------------------------------------------

    def emit_op(self, op, args, target):
        if target is None or (ir.Var(target) in args and op not in IN_PLACE_OPS):
            base, _, count = op.rpartition("_")
            name = self.namer.fresh(f"{base if count.isdigit() else op}_{self.hint}")
            self.emit(ir.Assign(name, op, tuple(args), self.origin))
            self.note_output_read(op, name)
            return ir.Var(name)
        self.emit(ir.Assign(target, op, tuple(args), self.origin))
        self.note_output_read(op, target)
        return ir.Var(target)

    def note_output_read(self, op, target):
        """A rule that reads its own output (``exp``, ``tanh``) reads the target in the
        reverse sweep: a later branch or loop must not overwrite it in place."""
        rule = self.unit.program_rules.get(op) or rule_of(op)
        if not self.compound and rule is not None and uses_output(rule):
            self.unit.read.add(target)

    def call(self, node, target):
        method = self.stack_method(node.func)
        if method is not None:
            if method[1] != "pop" or node.args or node.keywords:
                raise self.error(UnsupportedSyntaxError, node, "a stack's append returns nothing",
                                 "call it as a statement")
            name = target or self.namer.fresh(f"{method[0]}_top")
            self.emit(ir.Pop(method[0], name, self.origin))
            return ir.Var(name)
        if isinstance(node.func, ast.Name):
            callee = self.meaning(node.func.id, node.func)
            shown = node.func.id
        elif isinstance(node.func, ast.Attribute) and self.is_kwargs(node.func.value):
            if node.func.attr != "get" or node.keywords or len(node.args) not in (1, 2):
                raise self.error(UnsupportedSyntaxError, node, "this use of keyword arguments "
                                 "is not supported", 'read them as kwargs["k"] or '
                                 'kwargs.get("k", default)')
            default = node.args[1] if len(node.args) == 2 else ast.Constant(None)
            return self.kwargs_entry(node, node.args[0], default, target)
        elif isinstance(node.func, ast.Attribute):
            callee, shown = self.module_member(node.func), ast.unparse(node.func)
        else:
            raise self.error(UnsupportedSyntaxError, node, "this kind of call is not supported",
                             "call a math function or one of your def functions by name")
        if callee.kind in ("function", "nested"):
            return self.call_user(callee.value, node, target)
        if callee.kind == "custom":
            return self.call_custom(callee.value, node, target)
        if callee.value is len and len(node.args) == 1 and not node.keywords:
            return self.table_length(node.args[0], target)
        if callee.kind not in ("primitive", "stop_gradient"):
            if callee.kind == "range":
                raise self.error(UnsupportedSyntaxError, node, "range(...) outside a for loop",
                                 "use it as `for i in range(...)`")
            refused = self.refused_math(node, shown, obj=callee.value)
            if refused is not None:
                raise refused
            raise self.error(UnknownFunctionError, node,
                             f"{shown} is not a function symdiff can differentiate",
                             "use math functions, abs/min/max/pow, or your own def functions")
        return self.primitive_call(callee.value if callee.kind == "primitive" else
                                   "stop_gradient", node, shown, target)

    def numpy_spelling(self, func):
        """How generated code names a numpy or scipy function the user called (``np.tanh``,
        ``norm.cdf``, ``st.norm.cdf``, ``gammaln``); None for math's and the builtins."""
        root = func
        while isinstance(root, ast.Attribute):
            root = root.value
        found = lookup(root.id, self.parsed.closure, self.parsed.globals)
        if isinstance(func, ast.Attribute):
            base = self.meaning(root.id, root)
            if base.value != "numpy" and not _is_scipy(found):
                return None
            path = ast.unparse(func).split(".", 1)[1]
            return f"{self.unit.global_name(root.id, found)}.{path}"
        if type(found).__module__ == "numpy" and type(found).__name__ == "ufunc":
            return self.unit.global_name(func.id, found)
        return None

    def spell(self, stmt, func):
        """Mark ``stmt`` with the family of names ``func`` called it by, and the text that
        computes it where numpy or scipy does, as the user's code calls it."""
        stmt.family, call, stmt.module = self.spelling(func)
        stmt.call = self.numpy_spelling(func) or call

    def spelling(self, func):
        """``(family, call, module)`` of a primitive the user called: "numpy" with the
        text generated code calls it by and the name it calls numpy by (computed by
        numpy as the user's code does, to the last bit); "math" for math's; else None."""
        if isinstance(func, ast.Attribute):
            if not isinstance(func.value, ast.Name):
                return None, None, None  # scipy.stats.norm.cdf: computed as scipy does
            base = self.meaning(func.value.id, func.value)
            if base.value == "math":
                return "math", None, None
            if base.value != "numpy":
                return None, None, None
            module = lookup(func.value.id, self.parsed.closure, self.parsed.globals)
            name = self.unit.global_name(func.value.id, module)
            return "numpy", f"{name}.{func.attr}", name
        found = lookup(func.id, self.parsed.closure, self.parsed.globals)
        if getattr(found, "__module__", None) == "math":
            return "math", None, None
        numpy = sys.modules.get("numpy")
        if numpy is not None and (isinstance(found, numpy.ufunc) or str(
                getattr(found, "__module__", "")).startswith("numpy")):
            return "numpy", self.unit.global_name(func.id, found), self.unit.global_name(
                "np", numpy)
        return None, None, None

    def call_custom(self, fn, node, target):
        """A user function with its own rule: called as it is, differentiated by the rule."""
        op = self.unit.custom_op(fn)
        parsed_arity = len(self.unit.program_rules[op].partials)
        if node.keywords or len(node.args) != parsed_arity:
            raise self.error(UnsupportedSyntaxError, node,
                             f"{fn.__name__} has its own derivative rule: call it with its "
                             f"{parsed_arity} arguments by position", "pass every argument")
        args = [self.value(arg) for arg in node.args]
        return self.emit_op(op, args, target)

    def call_user(self, fn, node, target, unpacked=None, discard=False):
        """Inline a call of user function ``fn``; its result's operand.  With ``discard`` (a
        call standing as a statement) a helper that returns nothing gives None."""
        from symdiff.lower.frame import Frame  # frames make frames

        if fn in self.stack:
            chain = " -> ".join(f.__name__ for f in self.stack + (fn,))
            raise self.error(RecursionCycleError, node, f"recursive call: {chain}",
                             "rewrite the recursion as a loop")
        nested = getattr(fn, "definer", None) is not None
        parsed = fn.parsed if nested else self.unit.parse_helper(fn, self, node)
        if parsed.tree.args.kwarg is not None:
            raise self.error(UnsupportedSyntaxError, node,
                             f"{fn.__name__} takes **{parsed.tree.args.kwarg.arg}",
                             "only the differentiated function may take **kwargs; pass "
                             "its values as named parameters")
        bound = self.bind_arguments(fn, parsed, node)
        helper = Frame(self.unit, parsed, mapping={}, stack=self.stack + (fn,), top=False,
                       compound=self.compound, out=self.out)
        helper.unpacked = unpacked
        helper.checks_only = discard and not any(
            isinstance(n, ast.Return) and n.value is not None for n in own_nodes(parsed.tree))
        helper.definer = fn.definer if nested else None
        assigned = set(assigned_user_names(parsed.tree))
        for param, operand in bound.items():
            if isinstance(operand, Table):
                helper.tables[param] = (operand.name, operand.values)
            elif param in assigned:
                copy = self.namer.fresh(param)
                self.emit(ir.Assign(copy, "copy", (operand,), self.origin))
                helper.mapping[param] = ir.Var(copy)
            else:
                helper.mapping[param] = operand
        _, result = helper.run_function_body(parsed.tree.body, result_target=target)
        return result

    def bind_arguments(self, fn, parsed, node):
        args = parsed.tree.args
        params = [a.arg for a in args.posonlyargs + args.args]
        defaults = dict(zip(params[len(params) - len(fn.__defaults__ or ()):],
                            fn.__defaults__ or ()))
        if len(node.args) > len(params):
            raise self.error(UnsupportedSyntaxError, node,
                             f"{fn.__name__} takes {len(params)} arguments, "
                             f"{len(node.args)} given", "check the call")
        tables = table_uses(parsed.tree)
        bound = {p: self.argument(a, p in tables) for p, a in zip(params, node.args)}
        for keyword in node.keywords:
            if keyword.arg not in params or keyword.arg in bound:
                raise self.error(UnsupportedSyntaxError, keyword,
                                 f"unexpected keyword argument {keyword.arg!r} for {fn.__name__}",
                                 "check the call")
            bound[keyword.arg] = self.argument(keyword.value, keyword.arg in tables)
        for param in params:
            if param not in bound:
                kind = classify(defaults.get(param)).kind if param in defaults else None
                if kind == "table" and param in tables:
                    value = defaults[param]
                    bound[param] = Table(self.unit.global_name(param, value), table_values(value))
                    continue
                label = param in defaults and (defaults[param] is None
                                               or isinstance(defaults[param], str))
                if kind != "constant" and not label:  # a label or an optional argument
                    raise self.error(UnsupportedSyntaxError, node,
                                     f"{fn.__name__}() is missing a number for {param}",
                                     "pass every parameter")
                bound[param] = ir.Const(defaults[param])
        return {p: bound[p] for p in params}

    def argument(self, node, as_table):
        """What a helper's parameter is bound to: a number's operand, or for a parameter
        the helper uses as a table, ``Table(name, values)``."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return ir.Const(node.value)  # a label or a flag: `require(x, "pressure")`
        return Table(*self.table(node)) if as_table else self.value(node)

    # --- conditions ----------------------------------------------------------------------

    def condition(self, node):
        """The decision of an ``if``/``while`` test: a ``Const`` or a fresh test name."""
        operand = self.value(node)
        if isinstance(operand, ir.Const):
            return ir.Const(bool(operand.value))
        if (isinstance(node, (ast.Compare, ast.BoolOp)) or (
                isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not))) and (
                operand not in self.mapping.values()):
            return operand  # a fresh name, written only here
        return ir.Var(self.compute(self.namer.fresh("cond"), operand_ast(operand),
                                   _reads(operand)))

    def compare(self, node, target):
        left = self.comparand(node.left)
        right = self.comparand(node.comparators[0])
        first = ast.Compare(operand_ast(left), [node.ops[0]], [operand_ast(right)])
        if len(node.ops) == 1 and isinstance(left, ir.Const) and isinstance(right, ir.Const):
            return ir.Const(_COMPARE[type(node.ops[0])](left.value, right.value))  # `MODE == 2`
        if len(node.ops) == 1:
            name = self.compute(target or self.namer.fresh("cond"), first, _reads(left, right))
            return ir.Var(name)
        result = target or self.namer.fresh("cond")
        test = self.compute(self.namer.fresh("cond"), first, _reads(left, right))
        self.compute(result, ast.Name(test, ast.Load()), (test,))
        rest = ast.Compare(node.comparators[0], node.ops[1:], node.comparators[1:],
                           lineno=node.lineno, col_offset=node.col_offset)
        with self.nested():
            body, _ = self.capture(lambda: self.compare(rest, result))
        self.emit(ir.If(test, body, [], self.origin))
        return ir.Var(result)

    def comparand(self, node):
        """A side of a comparison: a number, or a string constant (a flag such as
        ``MODE == "tanh"``, decided when the gradient is built if both sides are known)."""
        if isinstance(node, ast.Constant) and (node.value is None or isinstance(node.value, str)):
            return ir.Const(node.value)
        if isinstance(node, ast.Name) and self.scope_of(node.id) is None:
            meaning = self.meaning(node.id, node)
            if meaning.kind == "other" and isinstance(meaning.value, str):
                return ir.Const(meaning.value)
        return self.value(node)

    def bool_operation(self, node, target):
        first = self.value(node.values[0]) if len(node.values) > 1 else None
        if isinstance(first, ir.Const):  # `DEBUG and ...`: decided now, as Python would
            decided = bool(first.value) == isinstance(node.op, ast.Or)
            if decided or len(node.values) == 1:
                return self.value(node.values[0], target)
            rest = node.values[1:]
            return self.value(rest[0] if len(rest) == 1 else ast.BoolOp(node.op, rest), target)
        result = target or self.namer.fresh("cond")
        if first is None:
            self.value(node.values[0], result)
        else:
            self.emit(ir.Assign(result, "copy", (first,), self.origin))
        for operand in node.values[1:]:
            test = ast.Name(result, ast.Load())
            if isinstance(node.op, ast.Or):
                test = ast.UnaryOp(ast.Not(), test)
            name = self.compute(self.namer.fresh("cond"), test, (result,))
            with self.nested():
                body, _ = self.capture(lambda: self.value(operand, result))
            self.emit(ir.If(name, body, [], self.origin))
        return ir.Var(result)

    def if_expression(self, node, target):
        test = self.condition(node.test)
        if isinstance(test, ir.Const):
            return self.value(node.body if test.value else node.orelse, target)
        result = target or self.namer.fresh(self.hint)
        with self.nested():
            body, _ = self.capture(lambda: self.value(node.body, result))
            orelse, _ = self.capture(lambda: self.value(node.orelse, result))
        self.emit(ir.If(test.name, body, orelse, self.origin))
        return ir.Var(result)


def _is_scipy(obj):
    """SciPy, one of its modules, or an object of one (``scipy.stats.norm``)."""
    module = getattr(obj, "__name__", "") if isinstance(obj, type(ast)) else (
        type(obj).__module__)
    return module.partition(".")[0] == "scipy"


_COMPARE = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt,
            ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge,
            ast.Is: operator.is_, ast.IsNot: operator.is_not}


def operand_ast(operand):
    if isinstance(operand, ir.Var):
        return ast.Name(operand.name, ast.Load())
    if operand.text:
        return ast.parse(operand.text, mode="eval").body
    return ast.Constant(operand.value)


def _reads(*operands):
    return tuple(o.name for o in operands if isinstance(o, ir.Var))
