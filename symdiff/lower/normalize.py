"""Normalize: a desugared function -> a ``Program`` of single-operation statements.

Expects a ``ParsedFunction`` that passed ``fence`` and ``desugar`` (``symdiff.pipeline``
runs them in order, and ``hoist`` after; a helper it inlines it fences and desugars
itself).  Guarantees:

- every differentiable statement applies one primitive to names or constants;
- no augmented assignment or tuple unpacking is left;
- outside loops and branches every name is assigned once (a reassignment gets a
  fresh version: ``x`` then ``x_1``); a loop or branch that updates a variable the
  earlier code still reads works on a fresh copy of it;
- ``return``, ``break`` and ``continue`` are gone: they become flags, guards and a
  final ``BreakIf`` in each loop body;
- ``and``, ``or``, chained comparisons and conditional expressions become ``If``
  statements, so only the operand Python would evaluate is ever evaluated;
- calls to the user's own functions are inlined, with fresh names;
- each statement remembers the user's line it came from;
- a statement is written once, as it stays: nothing placed in the program is changed or
  removed afterwards (a flag is set only where something reads it); which operators
  compute as numpy does is read off the types the inference gives (``Program.computed_by``).

    z = math.sin(x * y) + 1      ──►    mul_z = x * y
                                        sin_z = math.sin(mul_z)
                                        z = sin_z + 1
"""

import sys

from symdiff.errors import UnsupportedSyntaxError
from symdiff.frontend.resolve import all_identifiers, classify
from symdiff.frontend.kinds import is_function
from symdiff.frontend.wrt import optional_parameters
from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.analysis.held_types import holds_arrays
from symdiff.frontend.object_methods import reaches_arrays
from symdiff.ir import nodes as ir
from symdiff.ir.names import BUILTINS, Namer
from symdiff.lower.frame import Frame
from symdiff.lower.inline import run_function_body
from symdiff.lower.scope import Unit
from symdiff.core.records import Function, Scalar, is_generator


def normalize(parsed, allow_tuple=False, kinds=None, any_result=False):
    """The ``Program`` of a parsed function that passed ``fence``.

    With ``allow_tuple`` (forward mode), the function may return a tuple of
    numbers; ``Program.result`` is then a tuple of operands.  ``kinds`` maps a
    parameter to the container type the call passes it (``frontend.kinds``).  With
    ``any_result`` (``vjp``), it may return a container (a literal too) or an array;
    ``Program.result`` is then the variable holding it.
    """
    namer = Namer(all_identifiers(parsed.tree, parsed.index) + list(BUILTINS))
    unit = Unit(parsed, namer, None)
    unit.specialized = kinds is not None
    local = unit.reading(parsed.tree).locals
    math_name = unit.math_name = _math_alias(parsed, namer, local)
    program_origin = _origin(parsed, parsed.tree)
    unit.allow_tuple = allow_tuple
    unit.any_result = any_result
    frame = Frame(unit, parsed, mapping={}, stack=(parsed.fn,), top=True)
    params = []
    for name in _parameters(parsed.tree):
        params.append(namer.claim(name))
        unit.params.add(name)
        frame.mapping[name] = ir.Var(name)
        kind = (kinds or {}).get(name)
        if isinstance(kind, t.Array):
            unit.arrays[name] = kind
        elif isinstance(kind, Function):  # its calls inline the function passed (or call
            frame.functions[name] = classify(kind.fn)  # the primitive: ``math.sin``)
        elif is_generator(kind):  # data, whose draws change it
            unit.generators.add(name)
        elif isinstance(kind, Scalar):  # a float to the program (``Program.scalars``)
            pass
        elif kind is not None:
            unit.containers[name] = kind
    unit.array_code = bool(unit.arrays) or reaches_arrays(parsed) or any(  # (``np.array([a,
        holds_arrays(kind) for kind in unit.containers.values())  # b])``, ``model.predict(x)``;
    # ``p["w"][0]``)
    vararg = parsed.tree.args.vararg.arg if parsed.tree.args.vararg is not None else None
    if vararg is not None and not isinstance(unit.containers.get(vararg), t.Tuple):
        raise parsed.error(UnsupportedSyntaxError, parsed.tree.args.vararg, f"the "
                           f"differentiated function takes *{vararg}, read as a tuple of "
                           "the numbers, containers or arrays a call passes",
                           "call the gradient with the arguments, or use "
                           "symdiff.source(f, *args), so the tuple's length is known")
    kwargs = parsed.tree.args.kwarg.arg if parsed.tree.args.kwarg is not None else None
    if kwargs is not None:
        frame.mapping[kwargs] = ir.Var(namer.claim(kwargs))
        if isinstance((kinds or {}).get(kwargs), t.Dict):  # its keys known: a call's
            unit.kwargs_keys = tuple(k for k, _ in kinds[kwargs].items)  # ``**kwargs``
            # forwards them by name (``star_arguments``)
    body, result = run_function_body(frame, parsed.tree.body)
    named = _function_defaults(unit, parsed)
    return ir.Program(name=parsed.name, params=params, body=body, result=result,
                      origin=program_origin, namespace=unit.namespace, math_name=math_name,
                      reserved=namer.taken, defaults=_defaults(parsed),
                      kwonly=tuple(a.arg for a in parsed.tree.args.kwonlyargs),
                      kw_defaults=_keyword_defaults(parsed), named_defaults=named,
                      reads=unit.reads, custom=unit.program_rules,
                      custom_functions=unit.custom_functions,
                      tables={p: unit.table_names[p] for p in params if p in unit.table_names},
                      optional=optional_parameters(parsed), kwargs=kwargs, vararg=vararg,
                      containers=dict(unit.containers), arrays=dict(unit.arrays),
                      numpy_name=_numpy_name(unit, body), scalars={
                          name: kind.dtype for name, kind in (kinds or {}).items()
                          if isinstance(kind, Scalar)})


def _numpy_name(unit, body):
    """The name generated code calls numpy by where an operator meets a NumPy scalar (its
    partials are numpy's: ``Program.computed_by``); None when no call of the program
    computes one (numpy's, SciPy's) and no parameter holds an array."""
    if unit.arrays or any(holds_arrays(kind) for kind in unit.containers.values()) or any(isinstance(s, ir.Assign) and (s.family == "numpy" or s.call is not None)
                          for s in ir.walk(body)):
        return unit.global_name("np", sys.modules["numpy"])
    return None


def _math_alias(parsed, namer, local):
    import math
    is_math = parsed.globals.get("math", math) is math and parsed.closure.get(
        "math", math) is math  # `import math` in the body binds it like a global
    if "math" in local or not is_math:
        return namer.fresh("math")
    return namer.claim("math")


def _defaults(parsed):
    """The defaults the generated function keeps: the last ones, as far back as each is a
    number, a string (a flag the function compares), None (an optional argument) or a
    container of them (``_kept``)."""
    values = getattr(parsed.fn, "__defaults__", None) or ()
    kept = []
    for value in reversed(values):
        if not _kept(value):
            break
        kept.append(value)
    return tuple(reversed(kept))


def _function_defaults(unit, parsed):
    """``{parameter: the expression its function default is written as}`` for each
    function the generated signature keeps as a default: NumPy's through numpy
    (``act=np.tanh``), any other by a name of the generated module (``act=relu``),
    which its header binds as it binds the other functions the text reads."""
    positional = [a.arg for a in parsed.tree.args.posonlyargs + parsed.tree.args.args]
    defaults = _defaults(parsed)
    given = dict(zip(positional[len(positional) - len(defaults):], defaults))
    given.update(_keyword_defaults(parsed))
    return {param: _function_name(unit, value) for param, value in given.items()
            if is_function(value)}


def _function_name(unit, value):
    """The expression generated code names the function ``value`` by."""
    numpy = sys.modules.get("numpy")
    name = getattr(value, "__name__", "")
    if numpy is not None and name.isidentifier() and getattr(numpy, name, None) is value:
        return ex.Attribute(ex.Name(unit.global_name("np", numpy)), name)
    return ex.Name(unit.global_name(name if name.isidentifier() else "default_function",
                                    value))


def _keyword_defaults(parsed):
    """``{keyword-only parameter: its default}`` the generated function keeps (those
    ``_defaults`` would keep)."""
    values = getattr(parsed.fn, "__kwdefaults__", None) or {}
    return {name: value for name, value in values.items() if _kept(value)}


def _kept(value):
    """A number, a string, None, or a tuple, list or dict (with string keys) of them: a
    value the generated signature writes out (``coeffs=[1.0, 2.0]``); or a function
    (``act=relu``, ``act=np.tanh``), which it names (``_function_defaults``)."""
    if is_function(value):
        return True
    if type(value) in (list, tuple):
        return all(map(_kept, value))
    if type(value) is dict:
        return all(isinstance(k, str) and _kept(v) for k, v in value.items())
    return value is None or isinstance(value, (int, float, str))


def _parameters(tree):
    """The parameters in the order the generated function takes them: the positional
    ones, ``*args`` (a tuple), then the keyword-only ones."""
    args = tree.args
    return [a.arg for a in args.posonlyargs + args.args + (
        [args.vararg] if args.vararg is not None else []) + args.kwonlyargs]


def _origin(parsed, node):
    lineno = getattr(node, "lineno", parsed.tree.lineno)
    line = (parsed.source_line(lineno) or "").rstrip()
    text = line.lstrip()
    return ir.Origin(parsed.filename, lineno, getattr(node, "col_offset", 0), text, parsed.name,
                     indent=line[:len(line) - len(text)])

