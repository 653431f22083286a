"""Running the user's unchanged code on Values: copies of their functions whose globals
and closure cells see the tape's stand-ins for ``math``, numpy and SciPy.

Expects a user function.  Guarantees ``on_values(fn)``: a copy of ``fn`` (sharing its code
object) whose reads of ``math``, numpy and the functions imported from them, however
named, reach the tape's versions (``stand_ins``); the functions and modules of the user's
own code it reaches are copied the same way, an ``import`` inside a function is translated
as it runs, and ``float`` keeps a Value a Value.  The stdlib, installed libraries and
symdiff run as they are, and the user's modules are never modified.  A function given
its own rule with ``symdiff.defgrad`` runs by that rule, as generated code calls it.  A
cache (``functools.lru_cache``) gives way to the function inside, ``functools.partial``
and ``functools.wraps``-style decorators are run through; any other wrapper of a user
function is refused with a ``SymdiffError`` when it meets a Value.

    def f(x):                      on_values(f)(Value(2.0)) runs f's code, where
        return math.sin(x) * x     math.sin is the tape's sin: the result is a Value
"""

import builtins
import dis
import functools
import inspect
import numbers
import sys
import sysconfig
import types

from symdiff import markers
from symdiff.errors import SymdiffError
from symdiff.witnesses.tape.arrays import ArrayValue
from symdiff.witnesses.tape.stand_ins import _Namespace, stand_in
from symdiff.witnesses.tape.value import Value, _data

_LIBRARY_DIRS = ("<frozen ",) + tuple(
    sysconfig.get_paths()[key] for key in ("stdlib", "platstdlib", "purelib", "platlib"))


class _NumberClass(type):
    """``isinstance(v, float)`` (``int``) in copied code: a float (an int), or a ``Value``
    standing for one (so code that tells numbers from sequences takes the number's
    path, and one that tells ints from floats the path of the number the Value holds).
    numpy reads the class as the builtin it stands for (``np.zeros(n, dtype=float)``,
    ``x.astype(float)``) through its ``dtype``."""

    def __instancecheck__(cls, value):
        if isinstance(value, Value):
            value = value.data
        return isinstance(value, cls.builtin)

    def __subclasscheck__(cls, kind):
        return issubclass(kind, cls.builtin)

    @property
    def dtype(cls):
        return sys.modules["numpy"].dtype(cls.builtin)


class _int(metaclass=_NumberClass):
    """``int`` for copied code: the builtin's value (a Value's derivative is dropped, as
    ``int()`` drops it), and a test of a Value by the number it holds."""

    builtin = int

    def __new__(cls, *args, **kwargs):
        return int(*args, **kwargs)


class _float(metaclass=_NumberClass):
    """``float`` for copied code: a ``Value`` passes through with its derivative, and so
    does an ``ArrayValue`` of one element, as a Value."""

    builtin = float

    def __new__(cls, x=0.0):
        if isinstance(x, ArrayValue):
            return x.item()
        if isinstance(x, Value):
            if type(x.data) is not float:
                float(x.data)  # an int too large for a float: OverflowError, as float() gives
            return x
        return float(x)


def _is_user(value):
    """A function or module of the user's: not from the stdlib, a library or symdiff (a
    generated gradient, and a helper it defines, is the user's: ``grad(grad(f))``)."""
    if isinstance(value, types.FunctionType):
        module, filename = value.__module__ or "", value.__code__.co_filename
    elif isinstance(value, types.ModuleType):
        module, filename = value.__name__, getattr(value, "__file__", None) or ""
    else:
        return False
    own = module.partition(".")[0] == "symdiff" and not module.startswith("symdiff.generated.")
    return (not own and module not in sys.builtin_module_names
            and not filename.startswith(_LIBRARY_DIRS)
            and "site-packages" not in filename and "dist-packages" not in filename)


def _translate(value, memo):
    """What copied code sees instead of ``value``: a tape stand-in, a copied user function
    (or the user's own rule for it, given with ``symdiff.defgrad``), the function inside a
    cache, a user module whose attributes are translated as they are read, or ``value``."""
    found = stand_in(value)
    if found is not None:
        return found
    if _has_rule(value):
        return _with_rule(value)
    if _is_user_object(value):
        return memo.setdefault(id(value), (value, _ObjectView(value, memo)))[1]
    if not _is_user(value):
        wrapped = _unwrapped(value)
        return value if wrapped is None else _wrapper(value, wrapped, memo)
    return _translate_inside(value, memo)


def _translate_inside(value, memo):
    """``value`` (a user function or module) with what it reads translated."""
    if isinstance(value, types.FunctionType):
        return _copy_function(value, memo)
    if id(value) not in memo:
        def lookup(name):
            return _translate(getattr(value, name), memo)
        memo[id(value)] = (value, _Namespace(value, lookup))
    return memo[id(value)][1]


def _is_user_object(value):
    """An instance of a class of the user's that defines methods (``model`` of ``model =
    Layer(W, b)``): its methods are the user's code, to run on the tape's math.  A
    wrapper (``functools.update_wrapper``) is not one: ``_wrapper`` says what it runs."""
    cls = type(value)
    return isinstance(getattr(value, "__dict__", None), dict) and _wrapped_by(
        value) is None and not isinstance(
        value, (type, types.ModuleType, types.FunctionType, types.MethodType)) and any(
        isinstance(f, (types.FunctionType, staticmethod)) and _is_user(getattr(f, "__func__", f))
        for klass in cls.__mro__[:-1] for f in vars(klass).values())


class _ObjectView:
    """An object of the user's as copied code sees it: its methods copied as any user
    function is (``self`` the view, so a method calling another through ``self`` runs
    the copy too), its fields translated as they are read, an assignment made on the
    object itself."""

    def __init__(self, value, memo):
        object.__setattr__(self, "_value", value)
        object.__setattr__(self, "_memo", memo)

    def __getattr__(self, name):
        value, memo = object.__getattribute__(self, "_value"), object.__getattribute__(
            self, "_memo")
        static = inspect.getattr_static(type(value), name, None)
        if name not in vars(value) and isinstance(static, types.FunctionType):
            return types.MethodType(_translate(static, memo), self)
        if name not in vars(value) and isinstance(static, staticmethod):
            return _translate(static.__func__, memo)
        return _translate(getattr(value, name), memo)

    def __setattr__(self, name, new):
        setattr(object.__getattribute__(self, "_value"), name, new)

    def __call__(self, *args, **kwargs):
        return self.__getattr__("__call__")(*args, **kwargs)


def _has_rule(value):
    try:
        return value in markers.CUSTOM_RULES
    except TypeError:  # unhashable
        return False


def _with_rule(fn):
    """``fn`` on the tape by its user-given rule, as generated code calls it: the value from
    ``fn`` on the numbers, each partial from the rule at the numbers and that value."""
    partials = markers.CUSTOM_RULES[fn]

    def by_rule(*args, **kwargs):
        if kwargs or len(args) < len(partials):  # keywords and defaults, bound as fn binds them
            bound = inspect.signature(fn).bind(*args, **kwargs)
            bound.apply_defaults()
            args = bound.args
        if not any(isinstance(a, Value) for a in args):
            return fn(*args)
        data = [_data(a) for a in args]
        out = fn(*data)
        edges = ()
        for arg, partial in zip(args, partials):
            if isinstance(arg, Value) and partial is not None:
                edges += (arg, partial(*data, out))
        return Value(out, edges)

    by_rule.__name__ = by_rule.__qualname__ = getattr(fn, "__name__", "by_rule")
    return by_rule


# Wrappers the tape can see through: they return what the function they wrap returns.
_CACHE_TYPES = (type(functools.lru_cache()(lambda: None)),)


def _unwrapped(value):
    """The function of the user's (or of math or numpy) that a wrapper from outside the
    user's code wraps, or None."""
    if isinstance(value, (types.ModuleType, type, numbers.Number, str, tuple, list, dict)):
        return None
    inner = value.func if isinstance(value, functools.partial) else _wrapped_by(value)
    while inner is not None and not (_is_user(inner) or _has_rule(inner)
                                     or stand_in(inner) is not None):
        inner = _wrapped_by(inner)
    return inner


def _wrapped_by(value):
    try:
        return getattr(value, "__wrapped__", None)
    except Exception:  # an object whose attributes compute themselves
        return None


def _wrapper(value, wrapped, memo):
    """What copied code sees instead of a wrapper (from outside the user's code) of the user
    function ``wrapped``: a cache gives way to the function (it returns the same values),
    ``functools.partial`` wraps the translated function, a library's Python wrapper is
    copied like user code (the function it calls is then the translated one), and any other
    wrapper is refused when it meets a Value: the tape cannot see what it does."""
    if isinstance(value, _CACHE_TYPES):
        return _translate(value.__wrapped__, memo)
    if isinstance(value, functools.partial):
        return functools.partial(_translate(value.func, memo),
                                 *[_translate(a, memo) for a in value.args],
                                 **{k: _translate(v, memo) for k, v in value.keywords.items()})
    if isinstance(value, types.FunctionType):
        return _copy_function(value, memo)
    name = getattr(wrapped, "__qualname__", repr(wrapped))

    def refuse(*args, **kwargs):
        if any(isinstance(a, Value) for a in (*args, *kwargs.values())):
            raise SymdiffError(
                f"{name} is wrapped in a {type(value).__name__}, which the tape cannot see "
                "through: it would run the function without the tape's math",
                hint="call the function itself, or wrap it with a def decorator "
                     "(functools.wraps) or functools.lru_cache")
        return value(*args, **kwargs)
    return refuse


def _names(code):
    """The global names ``code`` and the code nested in it may read."""
    return list(code.co_names) + [name for const in code.co_consts
                                  if isinstance(const, types.CodeType) for name in _names(const)]


def _copy_function(fn, memo):
    """``fn`` over a copy of its globals (and cells) where math and numpy are the tape's.

    ``memo`` maps ids to (original, copy) for functions, modules and globals dicts, so one
    module's helpers share one copied dict and helpers calling each other terminate.
    """
    if id(fn) in memo:
        return memo[id(fn)][1]
    old_globals = fn.__globals__
    new_globals = memo.setdefault(id(old_globals), (old_globals, dict(old_globals)))[1]
    old_cells = fn.__closure__ or ()
    new_cells = tuple(types.CellType() if _to_translate(cell) else cell for cell in old_cells)
    if _imports(fn.__code__):  # read when the function is made: set first
        new_globals["__builtins__"] = _builtins_importing(memo)
    copy = types.FunctionType(fn.__code__, new_globals, fn.__name__, fn.__defaults__,
                              new_cells or None)
    copy.__kwdefaults__, copy.__qualname__ = fn.__kwdefaults__, fn.__qualname__
    memo[id(fn)] = (fn, copy)
    for name in _names(fn.__code__):
        if name in old_globals:
            new_globals[name] = _translate(old_globals[name], memo)
        elif name == "float":  # the builtin must keep a Value a Value, not drop its gradient
            new_globals[name] = _float
        elif name == "int":  # isinstance(v, int) tests the number a Value holds
            new_globals[name] = _int
    for old, new in zip(old_cells, new_cells):
        if new is not old:
            new.cell_contents = _translate(old.cell_contents, memo)
    return copy


def _imports(code):
    """Whether ``code`` (or code nested in it) has an ``import`` statement."""
    return any(op.opname == "IMPORT_NAME" for op in dis.get_instructions(code)) or any(
        _imports(const) for const in code.co_consts if isinstance(const, types.CodeType))


def _builtins_importing(memo):
    """The builtins for copied code whose body imports: an import inside the function gives
    it what a module-level one would, math and numpy as the tape's."""
    def translated_import(name, globals=None, locals=None, fromlist=(), level=0):
        return _translate(builtins.__import__(name, globals, locals, fromlist, level), memo)
    return dict(vars(builtins), __import__=translated_import)


def _to_translate(cell):
    try:
        contents = cell.cell_contents
    except ValueError:      # not assigned yet
        return False
    return stand_in(contents) is not None or _is_user(contents) or _is_user_object(contents)


def on_values(fn, own_rule=True):
    """A copy of the user function ``fn`` that computes on ``Value``s (see ``grad``);
    ``own_rule=False`` differentiates ``fn``'s own code even where ``symdiff.defgrad``
    gave it a rule (the rules of the functions it calls still hold)."""
    if not own_rule and isinstance(fn, types.FunctionType):
        return _copy_function(fn, {})
    return _translate(fn, {})
