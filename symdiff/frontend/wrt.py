"""Wrt: which parameters a derivative is taken by, decided once for every entry point.

Expects the ``wrt`` a caller gave (``grad``, ``value_and_grad``, ``jvp``, ``jacobian``,
``hessian``, ``hvp``, ``check``, ``symdiff show --wrt``), the lowered ``Program`` and the
``ParsedFunction`` it came from.  Guarantees a ``Choice``: the parameter names, in the
order asked for, and whether the caller gets one bare value (``single``) or a tuple.

- ``None``: every positional parameter but those whose default is None (optional
  arguments) or an int or a bool (a count, an index, a flag: ``label=1``, ``n=10``),
  and, for a gradient, those the program uses as ints, whatever their default (an index
  ``logits[label]``, a bound ``range(n)``: the one inference types them ``int``), never
  differentiated unless named; all of them when that leaves none.  Keyword-only
  parameters are differentiated only when named, and so is a parameter given an instance
  of a plain class (``system.mass`` read as data; a namedtuple or a dataclass is
  differentiated as a container is); a parameter given a function never is (named in
  ``wrt``, it is refused).  ``*args`` is the last positional parameter, a tuple, for
  every entry point.
  ``prefer="active"`` narrows that default further to the parameters a derivative can
  flow from (``check``'s default, ``analysis.activity``); it is never applied to a
  ``wrt`` the caller wrote.
- a name or an index (negative indices count from the end): that parameter, and the
  result is bare, as ``grad(f, wrt="x")`` is a float;
- a tuple or list of names and indices: those parameters, in that order, and the
  result is a tuple, even of one (``wrt=("x",)``).

Anything else (an unknown name, an index out of range, a bool, a float, an empty
tuple) is a ``SymdiffError`` located at the function's parameters, which a ``wrt``
must name.  A parameter the function reads as a table (indexed by a constant,
looped over) cannot be chosen: the error is the one lowering recorded where the
table is read, with a hint naming the number parameters to pass instead.
"""

from dataclasses import dataclass

from symdiff.analysis.activity import active_names
from symdiff.core import types as t
from symdiff.core.records import is_function, is_generator, is_plain
from symdiff.errors import InternalError, SymdiffError
from symdiff.frontend.resolve import parameter_names


@dataclass(frozen=True)
class Choice:
    """The parameters to differentiate by, and whether one bare value is returned."""

    names: tuple
    single: bool


PREFERENCES = (None, "active")


def resolve(wrt, program, parsed, prefer=None, kinds=None, counts=True):
    """The ``Choice`` ``wrt`` makes among ``program``'s parameters (see the module;
    ``kinds``: the parameters' kinds the program was lowered for).  ``counts``: leave
    out of the default the parameters the program uses as ints (a gradient's; forward
    mode's entry points take one tangent per parameter ``choose`` reads off the source,
    before a build types them)."""
    if prefer not in PREFERENCES:
        raise InternalError("wrt", f"prefer={prefer!r}: one of {PREFERENCES}")
    choice = choose(wrt, parsed)
    functions = [n for n, kind in (kinds or {}).items() if is_function(kind)
                 or is_generator(kind)]
    if wrt is None:  # an instance of a plain class is data unless named; a function always
        kept = [n for n in choice.names if not is_plain(program.containers.get(n))
                and n not in functions and not (counts and program.types.get(n) == t.INT)]
        choice = Choice(tuple(kept), len(kept) == 1) if kept else choice
    refuse_functions(parsed, choice.names, functions, kinds or {})
    if wrt is None and prefer == "active":
        chosen = _active(program, list(choice.names)) or list(choice.names)
        choice = Choice(tuple(chosen), len(chosen) == 1)
    refuse_tables(program, choice.names)
    refuse_strings(program, parsed, choice.names)
    return choice


def refuse_functions(parsed, names, functions, kinds=None):
    """A parameter given a function (or a random generator) carries no derivative:
    named in ``wrt``, it is refused at the parameter."""
    for name in names:
        if name in functions:
            where = next(a for a in parsed.tree.args.posonlyargs + parsed.tree.args.args +
                         parsed.tree.args.kwonlyargs if a.arg == name)
            others = tuple(p for p in names if p != name)
            held = "a random generator" if is_generator((kinds or {}).get(name)) else (
                "a function")
            raise parsed.error(SymdiffError, where, f"{name} holds {held}, which has no "
                               "derivative", f"leave it out of wrt: wrt={others!r}" if others
                               else "differentiate by a number parameter")


def refuse_strings(program, parsed, names):
    """A parameter that holds a string (a flag: ``mode="mean"``) cannot carry a
    derivative: named in ``wrt``, it is refused at the parameter."""
    for name in names:
        if program.types.get(name) in (t.STR, t.Optional(t.STR)):
            where = next(a for a in parsed.tree.args.posonlyargs + parsed.tree.args.args +
                         parsed.tree.args.kwonlyargs if a.arg == name)
            numbers = tuple(p for p in names if p != name)
            raise parsed.error(SymdiffError, where, f"{name} holds a string, which has no "
                               "derivative", f"leave it out of wrt: wrt={numbers!r}"
                               if numbers else "differentiate by a number parameter")


def choose(wrt, parsed):
    """The ``Choice`` ``wrt`` makes among the parameters of ``parsed``, read off its
    source (what ``resolve`` starts from, before the program says more)."""
    params = parameters(parsed)
    if wrt is None:
        left_out = optional_parameters(parsed) + counting_parameters(parsed)
        chosen = [p for p in params if p not in left_out] or params or parameter_names(
            parsed.tree)
        return Choice(tuple(chosen), len(chosen) == 1)
    return _named(wrt, params, parsed)


def parameters(parsed):
    """The positional parameters of ``parsed``, in order, its ``*args`` last (a tuple)."""
    args = parsed.tree.args
    return [a.arg for a in args.posonlyargs + args.args + (
        [args.vararg] if args.vararg is not None else [])]


def optional_parameters(parsed):
    """The parameters whose default is None (``scale=None``, tested with ``is None``)."""
    params = parameters(parsed)
    values = getattr(parsed.fn, "__defaults__", None) or ()
    return tuple(p for p, v in zip(params[len(params) - len(values):], values) if v is None)


def counting_parameters(parsed):
    """The parameters whose default is an int, a bool or a string (``label=1``, ``n=10``,
    ``normalize=True``, ``mode="mean"``): a count, an index or a flag, never
    differentiated unless named."""
    params = parameters(parsed)
    values = getattr(parsed.fn, "__defaults__", None) or ()
    return tuple(p for p, v in zip(params[len(params) - len(values):], values)
                 if isinstance(v, (int, str)))


def _active(program, names):
    """The parameters among ``names`` a derivative can flow from (to the result)."""
    active = active_names(program, names)
    return [name for name in names if name in active]


def _named(wrt, params, parsed):
    keywords = [a.arg for a in parsed.tree.args.kwonlyargs]  # named, never by index
    single = not isinstance(wrt, (list, tuple))
    items = [wrt] if single else list(wrt)
    where = parsed.tree.args.args[0] if parsed.tree.args.args else parsed.tree

    def error(message, hint=None):
        return parsed.error(SymdiffError, where, message, hint)

    names = []
    for item in items:
        if isinstance(item, bool) or not isinstance(item, (int, str)):
            raise error(f"wrt={item!r}: name a parameter by its name or index",
                        f"{parsed.name} has parameters {', '.join(params)}")
        if isinstance(item, int):
            if not -len(params) <= item < len(params):
                raise error(f"wrt={item}: {parsed.name} has {len(params)} parameters")
            item = params[item]
        if item not in params + keywords:
            raise error(f"wrt={item!r}: {parsed.name} has no parameter of that name",
                        f"its parameters are {', '.join(params + keywords)}")
        names.append(item)
    if not names:
        raise error("wrt=(): nothing to differentiate by", "name a parameter")
    return Choice(tuple(names), single)


def refuse_tables(program, names):
    """A parameter read as a table (indexed by a constant, iterated) cannot be in ``wrt``."""
    tables = [name for name in names if name in program.tables]
    if not tables:
        return
    error = program.tables[tables[0]]
    numbers = tuple(p for p in program.params if p not in program.tables)
    hint = (f"name the parameters to differentiate by: wrt={numbers!r}" if numbers
            else f"give example arguments, so {tables[0]} is read as the container it is: "
                 "call the gradient, or symdiff.source(f, *args), or symdiff show --at")
    raise type(error)(error.message, filename=error.filename, lineno=error.lineno,
                      col_offset=error.col_offset, source_line=error.source_line, hint=hint)

