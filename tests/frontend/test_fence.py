"""The fence: an allow-list over all of ``ast``, and errors that point at the user's code.

Every error test asserts the exception class and the location only, never the
wording.  The refused functions live in ``fence_cases.py``, where a marker comment
on each offending line says which case it is and at which column the error must
point; the expected locations are read from that file, so it can be edited freely.
"""

import ast
import inspect
import math
import os
import re

import pytest

import fence_cases as cases
import symdiff
import symdiff.tape
from symdiff.frontend import fence
from symdiff.errors import (RecursionCycleError, SourceUnavailableError, SymdiffError,
                            UndefinedNameError, UnknownFunctionError, UnsupportedSyntaxError)

# --- every class of the ast module is decided on --------------------------------------------

AST_CLASSES = sorted({value.__name__ for value in vars(ast).values()
                      if isinstance(value, type) and issubclass(value, ast.AST)})
UNDECIDED = {}  # ast classes not yet decided on: none


def _class_param(name):
    marks = ()
    if name in UNDECIDED:
        marks = pytest.mark.xfail(strict=True, reason=UNDECIDED[name])
    return pytest.param(name, marks=marks, id=name)


def test_ast_module_has_the_classes_we_expect():
    assert {"FunctionDef", "Try", "Lambda", "BinOp", "Name"} <= set(AST_CLASSES)
    assert len(AST_CLASSES) > 100


@pytest.mark.parametrize("name", [_class_param(n) for n in AST_CLASSES])
def test_every_ast_class_is_accepted_or_refused_exactly_once(name):
    accepted, refused = name in fence.ACCEPTED, name in fence.REFUSED
    assert accepted != refused, f"{name}: accepted={accepted}, refused={refused}"


def test_accepted_and_refused_do_not_overlap():
    assert not set(fence.ACCEPTED) & set(fence.REFUSED)


def test_every_refusal_says_what_it_refuses():
    for name, entry in fence.REFUSED.items():
        what, hint = entry
        assert isinstance(what, str) and what, name
        assert isinstance(hint, str), name


# --- where the errors point -----------------------------------------------------------------

_MARKER = re.compile(r"#\s*FENCE\s+(\w+)(?:\s+at\s+(.+?))?\s*$")


def _read_markers(path):
    found = {}
    with open(path, encoding="utf-8") as handle:
        for lineno, line in enumerate(handle, 1):
            match = _MARKER.search(line)
            if match is None:
                continue
            code = line[:match.start()]
            anchor = match.group(2)
            col = code.index(anchor) if anchor else len(code) - len(code.lstrip())
            assert match.group(1) not in found, f"marker {match.group(1)} used twice"
            found[match.group(1)] = (lineno, col)
    return found


MARKERS = _read_markers(cases.__file__)


# case -> (the function, or a callable producing it; the error class; xfail reason)
CASES = {
    "try": (cases.uses_try, UnsupportedSyntaxError),
    "with": (cases.uses_with, UnsupportedSyntaxError),
    "raise": (cases.uses_raise, UnsupportedSyntaxError),
    "assert": (cases.uses_assert, UnsupportedSyntaxError),
    "import": (cases.uses_import, UndefinedNameError),
    "import_from": (cases.uses_import_from, UndefinedNameError),
    "global": (cases.uses_global, UnsupportedSyntaxError),
    "nonlocal": (cases.make_uses_nonlocal(), UnsupportedSyntaxError),
    "lambda": (cases.uses_lambda, UnsupportedSyntaxError),
    "dict_comp": (cases.uses_dict_comp, UnsupportedSyntaxError),
    "set_comp": (cases.uses_set_comp, UnsupportedSyntaxError),
    "yield": (cases.uses_yield, UnsupportedSyntaxError),
    "yield_from": (cases.uses_yield_from, UnsupportedSyntaxError),
    "async": (cases.uses_async, UnsupportedSyntaxError),
    "await": (cases.uses_await, UnsupportedSyntaxError),
    "del": (cases.uses_del, UnsupportedSyntaxError),
    "subscript": (cases.uses_subscript, UnsupportedSyntaxError),
    "slice": (cases.uses_slice, UnsupportedSyntaxError),
    "attribute_read": (cases.uses_attribute_read, UnsupportedSyntaxError),
    "attribute_assign": (cases.uses_attribute_assign, UnsupportedSyntaxError),
    "subscript_assign": (cases.uses_subscript_assign, UnsupportedSyntaxError),
    "starred_call": (cases.uses_starred_call, UnsupportedSyntaxError),
    "list_literal": (cases.uses_list_literal, UnsupportedSyntaxError),
    "dict_literal": (cases.uses_dict_literal, UnsupportedSyntaxError),
    "fstring": (cases.uses_fstring, UnsupportedSyntaxError),
    "string": (cases.uses_string, UnsupportedSyntaxError),
    "bytes": (cases.uses_bytes, UnsupportedSyntaxError),
    "is": (cases.uses_is, UnsupportedSyntaxError),
    "is_not": (cases.uses_is_not, UnsupportedSyntaxError),
    "in": (cases.uses_in, UnsupportedSyntaxError),
    "not_in": (cases.uses_not_in, UnsupportedSyntaxError),
    "bit_and": (cases.uses_bit_and, UnsupportedSyntaxError),
    "bit_or": (cases.uses_bit_or, UnsupportedSyntaxError),
    "bit_xor": (cases.uses_bit_xor, UnsupportedSyntaxError),
    "shift_left": (cases.uses_shift_left, UnsupportedSyntaxError),
    "shift_right": (cases.uses_shift_right, UnsupportedSyntaxError),
    "invert": (cases.uses_invert, UnsupportedSyntaxError),
    "matmul": (cases.uses_matmul, UnsupportedSyntaxError),
    "for_unpacking": (cases.uses_for_unpacking, UnsupportedSyntaxError),
    "for_else": (cases.uses_for_else, UnsupportedSyntaxError),
    "while_else": (cases.uses_while_else, UnsupportedSyntaxError),
    "kwargs": (cases.uses_kwargs, UnsupportedSyntaxError),
    "kwargs_key": (cases.uses_kwargs_key, UnsupportedSyntaxError),
    "kwargs_helper": (cases.calls_kwargs_helper, UnsupportedSyntaxError),
    "check_nested": (cases.uses_fstring_in_helper_check, UnsupportedSyntaxError),
    "keyword_only": (cases.uses_keyword_only, UnsupportedSyntaxError),
    "nested_def": (cases.uses_nested_def_as_value, UnsupportedSyntaxError),
    "for_number": (cases.loops_over_a_number, UnsupportedSyntaxError),
    "table_float_index": (cases.indexes_a_table_with_a_float, UnsupportedSyntaxError),
    "nested_decorator": (cases.uses_decorated_nested_def, UnsupportedSyntaxError),
    "nested_default": (cases.uses_nested_default_not_a_number, UnsupportedSyntaxError),
    "nested_reassigned": (cases.uses_nested_name_twice, UnsupportedSyntaxError),
    "nested_twice": (cases.uses_nested_defined_twice, UnsupportedSyntaxError),
    "nested_recursion": (cases.uses_nested_recursion, RecursionCycleError),
    "nested_def_in_if": (cases.uses_nested_def_in_if, UnsupportedSyntaxError),
    "class": (cases.uses_class, UnsupportedSyntaxError),
    "match": (cases.uses_match, UnsupportedSyntaxError),
    "annotation": (cases.uses_annotated_attribute, UnsupportedSyntaxError),
    "expression_statement": (cases.uses_expression_statement, UnsupportedSyntaxError),
    "bare_expression": (cases.uses_bare_expression, UnsupportedSyntaxError),
    "print": (cases.uses_print_value, UnknownFunctionError),
    "round": (cases.uses_round, UnknownFunctionError),
    "unknown_math": (cases.uses_unknown_math, UnknownFunctionError),
    "undefined": (cases.uses_undefined, UndefinedNameError),
    "before_assignment": (cases.uses_before_assignment, UndefinedNameError),
    "recursion": (cases.recursive, RecursionCycleError),
    "mutual_recursion": (cases.ping, RecursionCycleError),
    "return_tuple": (cases.returns_tuple, UnsupportedSyntaxError),
    "never_returns": (cases.never_returns, UnsupportedSyntaxError),
    "unpack_one_value": (cases.unpacks_one_value, UnsupportedSyntaxError),
    "unpack_three_values": (cases.unpacks_three_values, UnsupportedSyntaxError),
    "unpack_math_call": (cases.unpacks_a_math_call, UnsupportedSyntaxError),
    "bare_return": (cases.bare_return, UnsupportedSyntaxError),
    "lambda_returns_tuple": (cases.pair_lambda, UnsupportedSyntaxError),
    "indented_try": (cases.Holder().make_try(), UnsupportedSyntaxError),
    "indented_subscript": (cases.Holder().make_subscript(), UnsupportedSyntaxError),
    "indented_round": (cases.Holder().make_unknown(), UnknownFunctionError),
}


def test_every_marker_has_a_case_and_every_case_a_marker():
    assert set(MARKERS) == set(CASES)


def _case_param(name):
    entry = CASES[name]
    marks = ()
    if len(entry) == 3:
        marks = pytest.mark.xfail(strict=True, reason=entry[2])
    return pytest.param(name, marks=marks, id=name)


def _arity(fn):
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return 1
    return sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params) or 1


def error_of(fn):
    """The error building (or, when the build is deferred, first calling) the gradient."""
    with pytest.raises(SymdiffError) as info:
        gradient = symdiff.grad(fn)
        gradient(*[1.5] * _arity(fn))
    return info.value


def assert_points_at(err, filename, lineno, col):
    assert os.path.realpath(err.filename) == os.path.realpath(filename)
    assert (err.lineno, err.col_offset) == (lineno, col)
    text = str(err)
    assert text.startswith(f"{err.filename}:{lineno}:{col}:"), text
    lines = text.splitlines()
    source = err.source_line.rstrip("\n")
    shown = [i for i, line in enumerate(lines) if line.endswith(source) and line.strip()]
    assert shown, text
    caret = lines[shown[-1] + 1]
    assert caret.strip() == "^", text
    margin = len(lines[shown[-1]]) - len(source)
    assert caret.index("^") == margin + col, text


@pytest.mark.parametrize("name", [_case_param(n) for n in CASES])
def test_refused_construct_raises_its_class_at_its_location(name):
    fn, cls = CASES[name][:2]
    err = error_of(fn)
    assert type(err) is cls, f"{type(err).__name__}: {err}"
    lineno, col = MARKERS[name]
    assert_points_at(err, cases.__file__, lineno, col)


def test_lambda_without_readable_source_is_refused():
    made_by_eval = eval("lambda x: x * x")  # noqa: S307 - its source is nowhere on disk
    err = error_of(made_by_eval)
    assert type(err) is SourceUnavailableError
    assert "lambda" in str(err) and err.filename == "<string>"


def test_bound_method_is_differentiated_by_its_own_parameters():
    gradient = symdiff.grad(cases.Model().loss)
    assert gradient(1.5) == symdiff.tape.grad(cases.Model.loss, wrt="x")(cases.Model(), 1.5)


@pytest.mark.parametrize("builtin", [math.sin, abs, len], ids=["math.sin", "abs", "len"])
def test_builtin_function_is_refused(builtin):
    err = error_of(builtin)
    assert type(err) is SourceUnavailableError
    assert str(err)


def test_indented_function_errors_keep_real_columns():
    """A function defined inside a method is parsed in place, not dedented (a loop in a
    try body, refused by the lowering, is located in the same text)."""
    err = error_of(cases.Holder().make_try())
    assert err.col_offset == MARKERS["indented_try"][1] > 8
    assert err.source_line[:err.col_offset].strip() == ""
    assert err.source_line[err.col_offset:].startswith("for")


def test_fence_alone_refuses_with_location():
    from symdiff.frontend.parse import parse_function

    parsed = parse_function(cases.uses_with)
    with pytest.raises(UnsupportedSyntaxError) as info:
        fence.fence(parsed)
    assert (info.value.lineno, info.value.col_offset) == MARKERS["with"]


def test_fence_accepts_the_supported_language():
    from symdiff.frontend.parse import parse_function

    def supported(x, y):
        """A docstring is fine."""
        z = x * y
        z += 1.0
        a, b = z, -x
        if a > b and not a == 0.0 or b != 1.0:
            z = a if a < b else b
        elif a >= 2.0:
            pass
        for i in range(3):
            if i == 1:
                continue
            z = z ** 2 // 3.0 % 5.0 - +a / b
            if z > 9.0:
                break
        while z > 1.0:
            z = z / 2.0
        if z is None or a is not None:
            raise ValueError(f"z = {z:.3f} out of range")
        assert z > -10.0, f"z = {z}"
        import math as m
        return m.sin(z) + abs(a) + max(a, b) + min(a, b) + pow(x, 2.0)

    parsed = parse_function(supported)
    assert fence.fence(parsed) is parsed.tree


def takes_star_args(x, *more):
    return x * more[0]


def test_star_args_of_the_differentiated_function_pass_the_fence():
    got = symdiff.grad(takes_star_args)(1.5, 2.0)  # a tuple: tests/end_to_end/test_star_args.py
    assert got == symdiff.tape.grad(takes_star_args)(1.5, 2.0) == (2.0, (1.5,))
