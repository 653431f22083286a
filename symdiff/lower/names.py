"""Names: what a name of the user's code means where it is read, and its operand.

Expects a ``Frame``.  ``meaning_of`` resolves a name as Python would at that point (a
local of this body or of the body defining a nested function, a global, a closure
variable, a builtin) and records each global read in ``Unit.reads``; ``name_operand``
and ``attribute_operand`` give the operand a number is read by, and a located
``SymdiffError`` in the user's terms for a name that is no number (a module, a table,
``**kwargs``, a name used before it is assigned).  ``held_object`` says which object
read as data a name or a field denotes (a module-level instance, ``self`` of a method
inlined for one), whose fields ``object_fields.field_of`` reads.

    x           ->  Var("x_1")            (its current version)
    SCALE       ->  Const(2.5, "SCALE")   (a module-level number)
    math.pi     ->  Const(3.14..., "math.pi")
    system.mass ->  Const(2.0, "system_mass")
"""

import ast
import math

from symdiff.errors import UndefinedNameError, UnknownFunctionError, UnsupportedSyntaxError
from symdiff.frontend.resolve import (Meaning, classify, lookup, module_attribute,
                                      numpy_method, parameter_defaults)
from symdiff.ir import nodes as ir
from symdiff.analysis.expression_types import STRING_METHODS
from symdiff.core import types as t
from symdiff.core.records import is_data_object, is_instance_record as is_record
from symdiff.core.records import watched_values
from symdiff.lower.object_fields import field_of
from symdiff.lower.operands import operand_ast, reads_of
from symdiff.primitives.registry import refused, refused_names

_USES = {"module": "use one of its functions or constants, such as math.pi",
         "table": "index it (T[i]) or loop over it (for c in T)",
         "range": "use it in a for loop: for i in range(n)",
         "reversed": "use it in a for loop: for c in reversed(T)",
         "object": "read one of its fields (obj.mass) or call one of its methods"}
KINDS = {"module": "a module", "function": "a function", "range": "the builtin range",
         "reversed": "the builtin reversed",
         "custom": "a function", "nested": "a function", "table": "a table of numbers",
         "stop_gradient": "a function", "primitive": "a function", "other": "not a number",
         "object": "an object read as data"}


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


def is_nested_table(value):
    return isinstance(value, (tuple, list)) and any(isinstance(v, (tuple, list)) for v in value)


def meaning_of(frame, name, node):
    scope = scope_of(frame, name)
    if scope is not None:
        if name in scope.functions:  # a def of the body, or a function passed as a value
            found = scope.functions[name]
            return found if isinstance(found, Meaning) else Meaning("nested", found)
        return Meaning("local")
    try:
        found = lookup(name, frame.parsed.closure, frame.parsed.globals)
    except KeyError:
        raise frame.error(UndefinedNameError, node, f"the name {name} is not defined",
                          "define it at module level before the gradient is first used"
                          ) from None
    meant = classify(found)
    if name not in frame.parsed.closure:
        current = frame.parsed.globals.get(name)  # None for a builtin
        contents = watched_values(found) if meant.kind == "table" and (
            not isinstance(found, tuple)) or (  # a list or an array may change,
            meant.kind == "other" and is_record(found)) else None  # a dataclass's fields too
        frame.unit.reads.append((frame.parsed.globals, name, current, contents))
    return meant


def scope_of(frame, name):
    """The frame whose own variable or function ``name`` is: this one, or for a
    nested function the frame defining it (and so on out); None for a global."""
    scope = frame
    while scope is not None:
        if name in scope.locals or name in scope.functions:
            return scope
        scope = scope.definer
    return None


def name_operand(frame, node):
    meant = meaning_of(frame, node.id, node)
    scope = scope_of(frame, node.id)
    if meant.kind == "local" and scope is not frame:
        operand = name_operand(scope, node)  # its value now, at the call
        if isinstance(operand, ir.Var) and not frame.compound:
            frame.unit.read.add(operand.name)
        return operand
    if meant.kind == "local" and is_kwargs(frame, node):
        raise frame.error(UnsupportedSyntaxError, node,
                          f"{node.id} (the **{node.id} parameter) is used as a value",
                          f'read one entry with a constant key: {node.id}["k"] or '
                          f'{node.id}.get("k", 1.0)')
    if meant.kind == "local":
        operand = frame.mapping.get(node.id)
        if operand is None:
            if not frame.loops:
                raise frame.error(UndefinedNameError, node,
                                  f"{node.id} is used before it is assigned",
                                  "assign it first")
            operand = ir.Var(frame.target_name(node.id))  # set by an earlier iteration
            frame.mapping[node.id] = operand
        if isinstance(operand, ir.Var) and not frame.compound:
            frame.unit.read.add(operand.name)  # a straight-line read: see enter_compound
        return operand
    if meant.kind == "constant":
        return ir.Const(meant.value, frame.unit.global_name(node.id, meant.value))
    if meant.kind == "other":
        raise frame.error(UnsupportedSyntaxError, node,
                          f"{node.id} is {describe(meant.value)}, where a number is needed",
                          "only numbers, and tables of numbers where a table is read, can "
                          "be used; a table of tables is not supported: flatten it into "
                          "one table and index it as T[i * width + j]"
                          if is_nested_table(meant.value) else
                          "only numbers can be differentiated")
    raise frame.error(UnsupportedSyntaxError, node,
                      f"{node.id} is {KINDS[meant.kind]}, not a number",
                      _USES.get(meant.kind, "call it, or pass it to a function of yours, "
                                "which calls it"))


def tuple_not_a_number(frame, node):
    """The error for a tuple where a number is needed, in the terms of where it is."""
    where = getattr(frame, "statement_node", None)
    count = len(node.elts)
    if isinstance(where, ast.Return) and where.value is node:
        if frame.top:
            return frame.error(UnsupportedSyntaxError, node,
                               f"{frame.parsed.name} returns {count} values: a gradient is "
                               "taken of a function returning one number",
                               "return one number, or use symdiff.jacobian or symdiff.jvp "
                               "for a function of several outputs")
        return frame.error(UnsupportedSyntaxError, node,
                           f"{frame.parsed.name} returns {count} values, but its caller "
                           "uses the call as one number",
                           f"unpack the call: `a, b = {frame.parsed.name}(...)`")
    if isinstance(where, ast.Assign) and where.value is node:
        return frame.error(UnsupportedSyntaxError, node,
                           f"a tuple of {count} values cannot be kept in one name: "
                           "variables hold numbers",
                           "unpack it where it is made (`a, b = x, y`), or keep each "
                           "number in a name of its own")
    return frame.error(UnsupportedSyntaxError, node,
                       f"a tuple of {count} values stands where one number is needed",
                       "write the numbers out one by one")


def attribute_operand(frame, node):
    member = module_member(frame, node)
    if member is None or member.kind != "constant":
        raise frame.error(UnsupportedSyntaxError, node, f"{ast.unparse(node)} is not a number",
                          "call it, or use a number")
    if member.name is not None:  # a field of an object: ``system_mass``
        return ir.Const(member.value, frame.unit.global_name(member.name, member.value))
    base = meaning_of(frame, node.value.id, node.value).value
    if base in ("math", "numpy"):
        return ir.Const(member.value, f"{frame.unit.math_name}.{node.attr}")
    return ir.Const(member.value, frame.unit.global_name(node.attr, member.value))


def module_member(frame, node):
    ufunc = node.value  # ``np.subtract.outer``: the array function ``subtract.outer``
    if isinstance(ufunc, ast.Attribute) and isinstance(ufunc.value, ast.Name) and (
            numpy_method(ufunc.attr, node.attr) and scope_of(frame, ufunc.value.id) is None) and (
            meaning_of(frame, ufunc.value.id, ufunc.value) == Meaning("module", "numpy")):
        return numpy_method(ufunc.attr, node.attr)
    if isinstance(node.value, ast.Attribute):  # scipy.special.erf, st.norm.cdf
        base = module_member(frame, node.value)
    elif not isinstance(node.value, ast.Name) and frame.unit.array_code:
        raise _unknown_method(frame, node)
    elif not isinstance(node.value, ast.Name):
        raise frame.error(UnsupportedSyntaxError, node, "attribute access is not supported",
                          "only math.* and numpy.* functions and constants can be used")
    else:
        base = meaning_of(frame, node.value.id, node.value)
    if base.kind == "local":
        raise _local_member(frame, node)
    held = held_object(frame, node.value) if base.kind in ("other", "table", "object") else None
    if held is not None:
        return field_of(frame, node, *held)
    if base.kind != "module":
        raise frame.error(UnsupportedSyntaxError, node,
                          f"{ast.unparse(node)}: attribute access on {ast.unparse(node.value)} "
                          "is not supported", "only attributes of modules can be used")
    found = module_attribute(base.value, node.attr)
    if found is None and base.value == "math":
        refused = refused_math(frame, node, ast.unparse(node), attr=node.attr)
        if refused is not None:
            raise refused
    if found is None:
        raise frame.error(UnknownFunctionError, node,
                          f"{ast.unparse(node)} is not something symdiff can differentiate",
                          "use a supported math function, or write it as a def function")
    return found


def _local_member(frame, node):
    """The refusal of ``v.attr`` where ``v`` is one of the function's own names and
    ``attr`` is nothing symdiff reads on it: an array's method it has no record of, a
    method of a value the function computes, or an object's field read without the kinds
    of the call's arguments."""
    shown, name = ast.unparse(node), node.value.id
    if frame.unit.array_code and (name in frame.unit.arrays or name not in _parameters(frame)):
        return _unknown_method(frame, node)
    if name not in _parameters(frame):
        return frame.error(UnsupportedSyntaxError, node, f"{shown}: {name} is a value this "
                           f"function computes, and {node.attr} is nothing symdiff reads on it",
                           "compute it with the math functions or your def functions")
    return frame.error(UnsupportedSyntaxError, node, f"{shown}: {name} is read as an object "
                       "here, whose fields are known only from the arguments", "symdiff.grad "
                       "and value_and_grad read objects (built for the arguments' kinds); "
                       "forward mode and a gradient built without arguments do not yet: "
                       "pass the fields as numbers")


def _unknown_method(frame, node):
    return frame.error(UnknownFunctionError, node, f"{ast.unparse(node)}: {node.attr} is not "
                       "a method or attribute symdiff differentiates", "call the NumPy "
                       f"function of the same name (np.{node.attr}(...)) if symdiff lists "
                       "it, one of the array methods the README lists, or give it a rule "
                       "with symdiff.defgrad")


def _parameters(frame):
    args = frame.parsed.tree.args
    return {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}


def held_object(frame, node):
    """``(object, name)`` of what ``node`` denotes when it is an object read as data
    (``core.records.is_data_object``): a module-level or closure name (``system``), a
    method's ``self`` bound to one (``Meaning("object")``), or a field of one holding
    another (``system.layer``); None for anything else."""
    if isinstance(node, ast.Attribute):
        base = held_object(frame, node.value)
        own = base and (vars(base[0]) if hasattr(base[0], "__dict__") else dict(
            zip(getattr(type(base[0]), "_fields", ()), base[0])))
        meant = base and node.attr in own and field_of(frame, node, *base)  # (a method: no)
        return (meant.value, meant.name) if meant and meant.kind == "object" else None
    if not isinstance(node, ast.Name) or (scope_of(frame, node.id) is not None and (
            not isinstance(scope_of(frame, node.id).functions.get(node.id), Meaning))):
        return None
    meant = meaning_of(frame, node.id, node)
    if meant.kind == "object":
        return meant.value, meant.name
    if meant.kind in ("other", "table") and is_data_object(meant.value):
        return meant.value, node.id
    return None


def is_kwargs(frame, node):
    """Whether ``node`` names the differentiated function's ``**kwargs`` parameter."""
    kwarg = frame.parsed.tree.args.kwarg
    return (frame.top and kwarg is not None and isinstance(node, ast.Name)
            and node.id == kwarg.arg)


def comparand(frame, node):
    """A side of a comparison: a number, or a string constant (a flag such as
    ``MODE == "tanh"``, decided when the gradient is built if both sides are known)."""
    if isinstance(node, ast.Constant) and (node.value is None or isinstance(node.value, str)):
        return ir.Const(node.value)
    if isinstance(node, ast.Name) and scope_of(frame, node.id) is None:
        meant = meaning_of(frame, node.id, node)
        if meant.kind == "other" and isinstance(meant.value, str):
            return ir.Const(meant.value)
    flag = object_flag(frame, node)
    return ir.Const(flag.value) if flag is not None else frame.value(node)


def object_flag(frame, node):
    """The ``Meaning`` of ``node`` when it is a flag field of an object read as data
    (``system.mode``: a str, a bool or None), else None."""
    held = held_object(frame, node.value) if isinstance(node, ast.Attribute) else None
    meant = held and field_of(frame, node, *held)
    return meant if meant and meant.kind == "flag" else None


def is_string_method(frame, node):
    """Whether the call ``node`` calls a string's method (``kind.lower()``,
    ``mode.strip().startswith("l")``): one of ``STRING_METHODS``, with no keywords, on a
    value known to be a string (no number has a method of those names).  The same call
    on a value not known to be one is a located error."""
    func = node.func
    if func.attr not in STRING_METHODS or node.keywords:
        return False
    if is_string_value(frame, func.value):
        return True
    if isinstance(func.value, ast.Name) and scope_of(frame, func.value.id) is None and (
            meaning_of(frame, func.value.id, func.value).kind == "module"):
        return False  # a module's function of that name
    shown = ast.unparse(func.value)
    raise frame.error(UnsupportedSyntaxError, node, f"{ast.unparse(func)}(): {shown} is not "
                      "known to be a string here", "call a string's methods on a string: "
                      "a parameter with a string default (kind=\"sum\"), a string constant, "
                      "or what another of its methods gives")


def is_string_value(frame, node):
    """Whether ``node`` is known to hold a string when the gradient is built."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.Call):
        return isinstance(node.func, ast.Attribute) and is_string_method(frame, node)
    if isinstance(node, ast.Attribute) and object_flag(frame, node) is not None:
        return isinstance(object_flag(frame, node).value, str)
    if not isinstance(node, ast.Name):
        return False
    if scope_of(frame, node.id) is None:
        meant = meaning_of(frame, node.id, node)
        return meant.kind == "other" and isinstance(meant.value, str)
    operand = frame.mapping.get(node.id)
    if isinstance(operand, ir.Const):
        return isinstance(operand.value, str)
    if not isinstance(operand, ir.Var):
        return False
    if operand.name in frame.unit.strings:
        return True
    defaults = parameter_defaults(frame.parsed.fn, frame.parsed.tree) if frame.top else {}
    return operand.name in frame.unit.params and isinstance(defaults.get(operand.name), str)


def string_method(frame, node, target):
    """A string's method called: computed now when the string and the arguments are
    known (a constant, a module's string), else where the code calls it, with no
    derivative."""
    receiver = (frame.value(node.func.value) if isinstance(node.func.value, ast.Call)
                else comparand(frame, node.func.value))
    args = [comparand(frame, a) for a in node.args]
    if all(isinstance(a, ir.Const) for a in [receiver] + args):
        return ir.Const(getattr(receiver.value, node.func.attr)(*(a.value for a in args)))
    call = ast.Call(ast.Attribute(operand_ast(receiver), node.func.attr, ast.Load()),
                    [operand_ast(a) for a in args], [])
    name = target or frame.namer.fresh(node.func.attr)
    if STRING_METHODS[node.func.attr] == t.STR:
        frame.unit.strings.add(name)
    return ir.Var(frame.compute(name, call, reads_of(receiver, *args)))


_SPECIAL_FLOATS = {"inf": "inf", "+inf": "inf", "infinity": "inf", "-inf": "-inf",
                   "-infinity": "-inf", "nan": "nan"}


def special_float(frame, callee, node):
    """``float("inf")``, ``float("-inf")``, ``float("nan")``: the constant, written
    ``math.inf``, ``-math.inf``, ``math.nan`` (``float("1.5")``: 1.5); None for any other
    call."""
    if not (callee.value in (float, "float") and len(node.args) == 1 and not node.keywords
            and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
        return None
    text = node.args[0].value
    spelled = _SPECIAL_FLOATS.get(text.strip().lower())
    if spelled is None:
        try:
            return ir.Const(float(text))
        except ValueError:
            raise frame.error(UnsupportedSyntaxError, node, f"{ast.unparse(node)} is not a "
                              "number", 'write the number, or float("inf")') from None
    sign, word = ("-", spelled[1:]) if spelled.startswith("-") else ("", spelled)
    return ir.Const(float(spelled), f"{sign}{frame.unit.math_name}.{word}")


def refused_math(frame, node, shown, obj=None, attr=None):
    """The error for a ``math`` function symdiff does not take, with its reason; None
    when ``obj`` (or ``math.<attr>``) is not one."""
    if attr is None:
        attr = next((n for n in refused_names() if getattr(math, n, None) is obj), None)
    reason = refused(attr)
    if reason is None:
        return None
    if shown != f"math.{attr}":
        shown = f"{shown} (math.{attr})"
    return frame.error(UnknownFunctionError, node,
                       f"{shown} is not supported: {reason[0]}", reason[1])
