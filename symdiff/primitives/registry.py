"""The primitive registry: every question about a primitive, answered from its record.

Expects the records of ``scalar`` and ``scipy`` (``record.Primitive``).  Guarantees the
only answers the rest of symdiff uses: the record of an operation (``rule_of``), the
names a user reaches it by (``names``, ``operators``, ``pairs``, ``variant``), its type
rule (``typed``), its properties (``total``, ``cheap``, ``arithmetic``, and the same
for a ``math`` function by its
name: ``total_math``, ``foldable_math``, ``float_math``), the builtins generated code
calls, and the records of user functions with their own rule (``custom_rule``).  No
fact is stated here: each is read from the records, so a new primitive is one record.

    rule_of("sin").partials          ("math.cos(x)",)
    operation_of(Reduce(op="sum"...)) the record of ``sum`` of a list
    names("numpy")["arcsin"]         "asin"
    variant("log", 2)                "logb"      (math.log(x, base))
    total("mul"), cheap("exp")       True, False
    total_math("tanh")               True        (math.tanh never raises on a float)
"""

import ast
import builtins
import math
from types import MappingProxyType

from symdiff.primitives import (
    array_averages, array_casts, array_copies, array_cumulative, array_diagonals, array_dtypes,
    array_grids, array_interp, array_linalg, array_masks, array_more, array_moves, array_nans,
    array_outers, array_polynomials, array_queries, array_reductions, array_shapes,
    array_softmax, array_splits, array_steps, array_tensordot, array_triangles, arrays,
    changes, container_reductions, containers, indexing, random, scalar, scipy, stacked)
from symdiff.primitives.record import primitive
from symdiff.core.types import FLOAT, INT
from symdiff.primitives.special import HELPERS
from symdiff.primitives.texts import names_read, template


def _register(*modules):
    """The array records, methods and constant parameters of ``modules`` added to
    ``arrays``' (a name stated twice is a mistake)."""
    statics = {}
    for module in modules:
        for mine, theirs in ((module.RECORDS, arrays.RECORDS), (module.METHODS, arrays.METHODS),
                             (module.STATICS, statics)):
            clash = set(mine) & set(theirs)
            if clash:
                raise ValueError(f"array names {sorted(clash)} are stated twice")
            theirs.update(mine)
    return MappingProxyType(statics)


_CHECKED = (array_averages, array_reductions, array_linalg, array_shapes, array_moves, array_queries,
            array_cumulative, array_copies, array_tensordot, array_softmax, array_more,
            array_splits, array_polynomials, array_outers, array_grids,
            array_steps, array_interp, array_diagonals, array_nans)  # see array_checked
_STATICS = _register(*_CHECKED, array_masks, array_casts, array_dtypes, array_triangles,
                     random)
_RECORDS = {**scalar.RECORDS, **scipy.RECORDS}
RECORDS = MappingProxyType(_RECORDS)  # read only: a test may patch _RECORDS
VARIADIC = tuple(scalar.VARIADIC)
_MADE = {}  # "fsum_3" -> its record, made once


def rule_of(op):
    """The record of ``op``: the registry's, an array operation's (``arrays``), or a math
    function of ``count`` numbers written out (``fsum_3``); ``KeyError`` for an op no
    record has."""
    found = (RECORDS.get(op) or arrays.RECORDS.get(op) or indexing.index_record(op)
             or indexing.write_record(op) or _MADE.get(op))
    if found is None:
        name, _, count = op.rpartition("_")
        if name in array_shapes.FAMILIES and count.isdigit():  # ``reshape_2``
            found = _MADE[op] = array_shapes.family(name, int(count))
            return found
        if name not in scalar.VARIADIC or not count.isdigit():
            raise KeyError(op)
        found = _MADE[op] = scalar.variadic(name, int(count))
    return found


def operation_of(stmt):
    """The record of a container statement differentiated by one (``containers``): an
    element read (``Item``), a build (``Build``), a join (``Join``), a slice or copy
    (``Take``), a list bound again (``Share``), a reduction (``Reduce``), a change
    (``SetItem``, an append ``Push``, ``Pop``: ``changes``); None for any other."""
    name = type(stmt).__name__
    if name == "Item":
        return containers.item_operation(len(stmt.path))
    if name == "Build":
        return containers.build_operation(containers.leaf_paths(stmt.items, stmt.keys),
                                          stmt.repeat is not None)
    if name == "Join":
        return containers.join_operation(tuple(
            len(p.items) if hasattr(p, "items") else None for p in stmt.parts), stmt.kind)
    if name == "Share":
        return containers.SHARE
    if name == "Take":
        return containers.take_operation(stmt.copy, stmt.descending, stmt.keys)
    if name == "Reduce":
        return container_reductions.reduction(stmt.op) if stmt.axis is None else (
            stacked.joined_operation(stmt.op, stmt.axis))
    if name == "SetItem":
        return changes.set_item_operation(len(stmt.path))
    if name == "Push":
        return changes.APPEND
    if name == "Pop":
        return changes.pop_operation(stmt.index is not None)
    return None


def written_out(name):
    """How many lists a call of the function of numbers written out ``name`` writes its
    numbers in: 0 (``math.hypot(x, y, z)``), 1 (``math.fsum([a, b])``) or 2 (two points,
    ``math.dist((x0, y0), (x1, y1))``)."""
    return scalar.VARIADIC[name][0]


def records():
    """Every record, with one of each function of numbers written out (three numbers, or
    two points of two): what the parity tests walk."""
    made = [rule_of(f"{name}_{4 if written_out(name) == 2 else 3}") for name in VARIADIC]
    return list(RECORDS.values()) + made


# --- names ---------------------------------------------------------------------------------

def _names(family):
    found = {}
    for record in RECORDS.values():
        for name in getattr(record, family):
            if name in found:
                raise ValueError(f"{family} name {name!r} is given to {found[name]} and "
                                 f"{record.name}")
            if family != "math" or hasattr(math, name):
                found[name] = record.name
    own = {"math": (math, (*_pairs(), *VARIADIC)), "builtin": (builtins, _pairs())}  # divmod
    module, named = own.get(family, (None, ()))
    found.update({name: name for name in named if hasattr(module, name)})
    return MappingProxyType(found)


def _pairs(records=None):
    halves = {}
    for record in (RECORDS.values() if records is None else records):
        if record.pair is not None:
            function, index = record.pair
            halves.setdefault(function, {})[index] = record.name
    return {function: tuple(by[i] for i in sorted(by)) for function, by in halves.items()}


_FAMILIES = ("math", "numpy", "builtin", "scipy", "method")
_BY_FAMILY = {family: _names(family) for family in _FAMILIES}
_PAIRS = MappingProxyType(_pairs())
_ARRAY_PAIRS = MappingProxyType(_pairs(arrays.RECORDS.values()))


def names(family):
    """``{name a user calls: op}`` for ``math.<name>``, ``numpy.<name>``, a builtin,
    ``scipy.special.<name>`` or a ``method`` of ``scipy.stats.norm``.  A math function
    returning two numbers (``frexp``, ``divmod``) or taking numbers written out (``fsum``)
    maps to its own name (see ``pairs``, ``VARIADIC``)."""
    return _BY_FAMILY[family]


def array_names():
    """``{name: op}`` of the array operations NumPy's functions (``numpy.sum``; those of a
    submodule by their path, ``linalg.solve``), methods (``x.sum()``), attributes
    (``x.T``) and SciPy's functions (``scipy.special.logsumexp``) spell:
    ``"functions"``, ``"methods"``, ``"attributes"``, ``"scipy"``."""
    return _ARRAY_NAMES


def array_written(op):
    """``(position, how)`` of the sizes or values a call of the array operation ``op``
    writes out (``array_shapes.WRITTEN``: ``"rest"``, ``"list"`` or ``"shape"``), with
    the name of its records per count; None for the others."""
    if op == "transpose":  # ``x.transpose(1, 0, 2)``: the transpose with axes
        op = "transpose_axes"
    found = array_shapes.WRITTEN.get(op)
    return None if found is None else (op,) + found


def array_statics(op):
    """``{parameter: what it takes}`` of the parameters a call of the array operation
    ``op`` must give as constants: ``"axis"`` (an int or None), ``"int"``, ``"bool"``,
    ``"none"`` (only None), ``"one"`` (only 1), ``"str"``."""
    head, _, count = op.rpartition("_")
    return _STATICS.get(op) or (_STATICS.get(head, {}) if count.isdigit() else {})


def array_checked(op):
    """Whether a call of the array operation ``op`` on arguments its type rule gives no
    value for is refused once types are known (the records of ``array_reductions``,
    ``array_linalg``, ``array_shapes``, ``array_moves``...: ``_CHECKED``; ``arrays``' own
    leave it to their rules)."""
    head, _, count = op.rpartition("_")
    if op in arrays.RECORDS or indexing.index_record(op) or indexing.write_record(op):
        return True
    return any(op in m.RECORDS or count.isdigit() and head in getattr(m, "FAMILIES", ())
               for m in _CHECKED)


def none_hint(op):
    """What to write instead of a ``None`` argument of the number record ``op``."""
    return scalar.NONE_HINTS.get(op, "pass a number")


def array_hint(op):
    """What the array operation ``op`` takes, said where a call of it is refused."""
    head, _, count = op.rpartition("_")
    for module in (arrays, *_CHECKED, array_masks, array_casts, array_triangles):
        for name in (op, head if count.isdigit() else op):
            if name in module.HINTS:
                return module.HINTS[name]
    return "see the README's list of the array operations symdiff differentiates"


_ARRAY_NAMES = MappingProxyType({
    "functions": MappingProxyType({**{name: record.name for record in arrays.RECORDS.values()
                                      for name in record.numpy}, **array_linalg.PAIRED,
                                   **array_grids.PAIRED}),
    "scipy": MappingProxyType({name: record.name for record in arrays.RECORDS.values()
                               for name in record.scipy}),
    "methods": MappingProxyType(dict(arrays.METHODS)),
    "attributes": MappingProxyType(dict(arrays.ATTRIBUTES))})


def pairs():
    """``{function: (op of each part, in order)}``: ``m, e = math.frexp(x)``, ``divmod``."""
    return _PAIRS


def array_pairs():
    """``pairs`` of the array functions returning two values: ``sign, logdet =
    numpy.linalg.slogdet(a)``."""
    return _ARRAY_PAIRS


def variant(op, count):
    """The op a call of ``op`` with ``count`` arguments computes: ``logb`` for
    ``math.log(x, b)``, ``factorial`` for ``math.perm(n)``; ``op`` itself otherwise."""
    record = _record(op)
    return dict(record.variants).get(count, op) if record is not None else op


def chains(op):
    """Whether a call of ``op`` with more arguments is a left fold of it (``max(a, b, c)``)."""
    return op in RECORDS and RECORDS[op].chain


def refused(name):
    """``(reason, hint)`` for a ``math`` function symdiff does not take, else None."""
    return scalar.REFUSED.get(name)


def refused_names():
    return tuple(scalar.REFUSED)


def operators(arity):
    """``{ast operator class: op}`` of the primitives Python's operators spell, with
    ``arity`` operands: read from their forward texts (``x + y`` is ``ast.Add``)."""
    found = {}
    for record in _WITH_ARRAYS:
        if record.operator is not None and record.arity == arity:
            found[type(template(record.forward).op)] = record.name
    return found


def operator_ops(arity):
    """``{operator's text: op}`` of the primitives Python's operators spell, with ``arity``
    operands (``"/"`` is ``div``, ``"-"`` of one operand ``neg``)."""
    return _OPERATOR_OPS[arity]


_WITH_ARRAYS = (*RECORDS.values(), *arrays.RECORDS.values())
_OPERATOR_OPS = {arity: MappingProxyType({record.operator: record.name
                                          for record in _WITH_ARRAYS
                                          if record.operator is not None
                                          and record.arity == arity}) for arity in (1, 2)}


# --- types and properties ------------------------------------------------------------------

def typed(op, args, consts=(), by=None):
    """The type rule of ``op`` (``record.Primitive.typed``): the type of its value and
    whether it may raise, for arguments of types ``args``."""
    return rule_of(op).typed(args, consts, by)


# The properties of an op no record has (a user function with its own rule) are all False.

def _record(op):
    try:
        return rule_of(op)
    except KeyError:
        return None


def total(op):
    """Whether ``op`` never raises on floats (so moving or dropping it changes nothing):
    its type rule's answer for float arguments; never for an ``effectful`` one."""
    record = _record(op)
    return record is not None and not record.effectful and _is_total(record)


def effectful(op):
    """Whether ``op`` changes state a later call reads (a draw from a random generator):
    never dropped, merged, recomputed or moved."""
    record = _record(op)
    return record is not None and record.effectful


def cheap(op):
    """Whether ``op`` is one arithmetic step: recomputed rather than saved (never an
    ``effectful`` one: a draw computed again is another draw)."""
    record = _record(op)
    return record is not None and record.cheap and not record.effectful


def arithmetic(op):
    """Whether ``op`` is computed by its operands' own operators, so numpy's on numpy
    scalars (``a / b`` gives inf where Python's raises), its partials too."""
    record = _record(op)
    return record is not None and record.arithmetic


def _by_math_name(name):
    """The records ``math.<name>`` computes, by any count of arguments."""
    found = [RECORDS[op] for op in (_BY_FAMILY["math"].get(name),) if op in RECORDS]
    found += [RECORDS[variant] for record in found for _, variant in record.variants]
    if name in VARIADIC:
        found.append(rule_of(f"{name}_4"))
    found += [RECORDS[half] for half in _PAIRS.get(name, ())]
    return [record.spelled("math") for record in found]


def _of_math(name, holds):
    found = _MATH_FACTS.get((name, holds))
    if found is None:
        records = _by_math_name(name)
        found = _MATH_FACTS[(name, holds)] = bool(records) and all(map(holds, records))
    return found


_MATH_FACTS = {}


def total_math(name):
    """Whether ``math.<name>`` never raises on floats, whatever the count of arguments."""
    return _of_math(name, _is_total)


def foldable_math(name):
    """Whether the optimizer computes ``math.<name>`` of constants."""
    return _of_math(name, _is_foldable)


def float_math(name):
    """Whether ``math.<name>`` returns a float whatever its arguments (not ``floor``, an
    int; ``isnan``, a bool; ``prod``, an int of ints)."""
    return _of_math(name, _gives_float)


# The facts ``_of_math`` keeps, each one function (its key in ``_MATH_FACTS``).
def _is_total(record):
    return not record.typed((FLOAT,) * record.arity).may_raise


def _is_foldable(record):
    return record.foldable


def _gives_float(record):
    return all(record.typed((kind,) * record.arity).result == FLOAT for kind in (INT, FLOAT))


def builtins_called():
    """The builtins the records' texts (and the helpers of ``special``) call: what
    generated code may call, in the order the records first call them."""
    texts = [text for record in records() for text in (record.forward, *record.partials)
             + tuple(t for _, s in record.overrides for t in (s.forward, *(s.partials or ())))
             if text is not None]
    found = [name for text in texts for name in sorted(names_read(text))]
    for helper in HELPERS.values():
        found += sorted({n.id for n in ast.walk(ast.parse(helper)) if isinstance(n, ast.Name)})
    return tuple(dict.fromkeys(name for name in found if hasattr(builtins, name)))


def custom_rule(function_name, partial_names):
    """The record of a user function with its own partials (``symdiff.defgrad``).

    Its texts call the function and its partial functions by the names the
    generated code knows them under; arguments stand as ``__arg0``, ``__arg1``...
    """
    params = tuple(f"__arg{i}" for i in range(len(partial_names)))
    args = ", ".join(params)
    partials = tuple(None if name is None else f"{name}({args}, out)" for name in partial_names)
    return primitive(function_name, f"{function_name}({args})", partials,
                     note="the user's own rule", params=params, bridge=None)
