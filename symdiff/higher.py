"""Forward mode and higher-order derivatives, built from the same pipeline.

- ``jvp(f)`` is the generated forward-mode function ``jvp_f(x, y, dx, dy)`` returning
  ``(value, directional derivative)``; ``f`` may return a tuple of numbers.
- ``jacobian(f)`` evaluates it once per input direction: rows are outputs.
- ``hessian(f)`` is forward over reverse: the forward mode of the generated
  ``grad_f`` (which stays inside the language symdiff reads: its save stack is a list
  like any other),
  one direction per parameter.  ``hvp(f)`` is one such direction, given.

A function that computes with NumPy arrays is built per kind of the arguments of each
call instead (``higher_arrays``: array tangents and vectors, a Jacobian of shape
``out.shape + x.shape``, a Hessian of shape ``x.shape + x.shape``), and so is one that
reads a parameter as a tuple, list or dict (``higher_containers``: tangents, vectors,
Jacobians and Hessians in the parameters' structures, a dict of dicts for a dict).

Every entry point takes ``f``'s arguments as ``grad`` does: a parameter with a default
may be left out (or given by name); the tangents of ``jvp`` and the vector of ``hvp``
are the last positional arguments, one per ``wrt`` parameter.  One shape rule holds
for all: when ``wrt`` names one parameter (or ``f`` has one and ``wrt`` is None), that
axis is bare, as ``grad(f, wrt="x")`` is a float: ``hessian(f, wrt="x")`` is a float,
``jacobian(f, wrt="x")`` one float per output, ``hvp(f, wrt="x")`` a float.

Each takes ``jit="numba"`` as ``grad`` does: the forward-mode function (for ``hessian``
and ``hvp``, the forward mode of the gradient) is written for numba and compiled with
``numba.njit``; the rows are gathered in Python around it.

Each returns a ``travel.GeneratedFunction``, so it pickles (by reference to ``f``,
or as the generated text) and displays its generated code in a notebook; the
evaluators below are module functions, bound to the generated code and ``f``'s
signature, for that reason.
"""

import functools
import types

from symdiff.api import _unwrap, build, jit_options
from symdiff.backend.travel import wrap
from symdiff.frontend.parse import parse_function
from symdiff.errors import UnsupportedSyntaxError
from symdiff.frontend.wrt import choose
from symdiff.specialized import MethodGradient, bound_instance, computes_with_arrays, per_kinds


def jvp(fn=None, *, wrt=None, optimize=True, jit=None):
    """The forward-mode function of ``fn``: ``jvp_f(*args, *tangents) -> (value, tangent)``."""
    if fn is None:
        return functools.partial(jvp, wrt=wrt, optimize=optimize, jit=jit)
    method = _of_method(fn, wrt, jvp, optimize=optimize, jit=jit)
    if method is not None:  # ``model.loss``, ``spring``: the instance is its data
        return method
    if _per_kinds(fn, jit):
        return _arrays().jvp(_unwrap(fn), wrt, optimize)
    if _by_containers(fn, wrt, jit):
        return _containers().jvp(_unwrap(fn), wrt, optimize)
    gradient = build(_unwrap(fn), wrt, optimize=optimize, mode="forward", jit=jit)
    options = jit_options({"wrt": wrt, "optimize": optimize}, jit)
    arrays = _by_kinds(gradient, jit, "jvp", _unwrap(fn), wrt, optimize)
    if not gradient.program.defaults:
        return wrap(gradient, "jvp", fn, options, fn=fn, adjoints=False, arrays=arrays)
    # a left-out argument comes before the tangents
    return wrap(gradient, "jvp", fn, options, fn=fn, adjoints=False, evaluate=completing,
                bound=(signature(gradient.program), len(gradient.wrt_names),
                       gradient.function.__name__), name=gradient.function.__name__,
                arrays=arrays)


def jacobian(fn=None, *, wrt=None, jit=None):
    """``J(*args)``: the Jacobian as nested tuples, one row per output.

    A function returning one number gets one row: its gradient as a tuple (a float
    when ``wrt`` names one parameter).
    """
    if fn is None:
        return functools.partial(jacobian, wrt=wrt, jit=jit)
    method = _of_method(fn, wrt, jacobian, jit=jit)
    if method is not None:  # ``model.loss``, ``spring``: the instance is its data
        return method
    if _per_kinds(fn, jit):
        return _arrays().jacobian(_unwrap(fn), wrt)
    if _by_containers(fn, wrt, jit):
        return _containers().jacobian(_unwrap(fn), wrt)
    gradient = build(_unwrap(fn), wrt, mode="forward", jit=jit)
    name = f"jacobian_{gradient.program.name}"
    return wrap(gradient, "jacobian", fn, jit_options({"wrt": wrt}, jit), fn=fn,
                evaluate=jacobian_rows,
                bound=(signature(gradient.program), len(gradient.wrt_names), gradient.single,
                       name), name=name, adjoints=False,
                arrays=_by_kinds(gradient, jit, "jacobian", _unwrap(fn), wrt))


def hessian(fn=None, *, wrt=None, jit=None):
    """``H(*args)``: the matrix of second derivatives as nested tuples (forward over
    reverse); a float when ``wrt`` names one parameter."""
    if fn is None:
        return functools.partial(hessian, wrt=wrt, jit=jit)
    method = _of_method(fn, wrt, hessian, jit=jit)
    if method is not None:  # ``model.loss``, ``spring``: the instance is its data
        return method
    if _per_kinds(fn, jit):
        return _arrays().hessian(_unwrap(fn), wrt)
    if _by_containers(fn, wrt, jit):
        return _containers().hessian(_unwrap(fn), wrt)
    forward, gradient, single = _gradient_forward(fn, wrt, jit)
    name = f"hessian_{gradient.program.name}"
    return wrap(forward, "hessian", fn, jit_options({"wrt": wrt}, jit), fn=fn,
                evaluate=hessian_rows,
                bound=(signature(gradient.program), len(gradient.wrt_names), single,
                       name), name=name, drawn=gradient,
                arrays=_by_kinds(gradient, jit, "hessian", _unwrap(fn), wrt))


def hvp(fn=None, *, wrt=None, jit=None):
    """``hvp_f(*args, *vector)``: the Hessian times ``vector``, without forming the Hessian
    (a float when ``wrt`` names one parameter)."""
    if fn is None:
        return functools.partial(hvp, wrt=wrt, jit=jit)
    method = _of_method(fn, wrt, hvp, jit=jit)
    if method is not None:  # ``model.loss``, ``spring``: the instance is its data
        return method
    if _per_kinds(fn, jit):
        return _arrays().hvp(_unwrap(fn), wrt)
    if _by_containers(fn, wrt, jit):
        return _containers().hvp(_unwrap(fn), wrt)
    forward, gradient, single = _gradient_forward(fn, wrt, jit)
    name = f"hvp_{gradient.program.name}"
    return wrap(forward, "hvp", fn, jit_options({"wrt": wrt}, jit), fn=fn,
                evaluate=hvp_values,
                bound=(signature(gradient.program), len(gradient.wrt_names), single,
                       name), name=name, drawn=gradient,
                arrays=_by_kinds(gradient, jit, "hvp", _unwrap(fn), wrt))


def signature(program):
    """What ``bind_arguments`` reads of ``program``, in a form that pickles."""
    return types.SimpleNamespace(params=tuple(program.params),
                                 defaults=tuple(program.defaults), kwargs=program.kwargs,
                                 kwonly=tuple(program.kwonly),
                                 vararg=getattr(program, "vararg", None))


def completing(function, program, trailing, name, *args, **kwargs):
    """``function(*args, *tangents)`` with ``program``'s defaults filled in for the
    arguments left out before the last ``trailing`` values."""
    if len(args) < trailing:
        raise TypeError(f"{name}() takes the function's arguments followed "
                        f"by {trailing} tangents, not {len(args)} values")
    split = len(args) - trailing
    point, named = bind_arguments(program, args[:split], kwargs, name)
    return function(*point, *args[split:], **named)


def jacobian_rows(forward, program, count, single, name, *args, **kwargs):
    """The Jacobian from the forward-mode function, one input direction at a time."""
    point, named = bind_arguments(program, args, kwargs, name)
    columns = []
    for direction in _directions(count):
        _, tangent = forward(*point, *direction, **named)
        columns.append(tuple(tangent) if isinstance(tangent, (tuple, list)) else (tangent,))
    rows = tuple(tuple(float(column[j]) for column in columns)
                 for j in range(len(columns[0])))
    return tuple(row[0] for row in rows) if single else rows


def hessian_rows(forward, program, count, single, name, *args, **kwargs):
    """The Hessian from the forward mode of the gradient, one direction per parameter."""
    point, named = bind_arguments(program, args, kwargs, name)
    columns = [forward(*point, *direction, **named)[1] for direction in _directions(count)]
    matrix = tuple(tuple(float(column[j]) for column in columns) for j in range(count))
    return matrix[0][0] if single else matrix


def hvp_values(forward, program, count, single, name, *args_and_vector, **kwargs):
    """The Hessian times a vector: one direction of the gradient's forward mode."""
    if len(args_and_vector) < count:
        raise TypeError(f"{name}() takes the function's arguments followed "
                        f"by a vector of {count}, not {len(args_and_vector)} values")
    args, vector = args_and_vector[:len(args_and_vector) - count], args_and_vector[-count:]
    point, named = bind_arguments(program, args, kwargs, name)
    product = tuple(float(v) for v in forward(*point, *vector, **named)[1])
    return product[0] if single else product


def bind_arguments(program, args, kwargs, name):
    """``program``'s positional arguments as one tuple (``args``, then ``kwargs`` by name,
    then the defaults of the parameters left out, as Python binds a call; the arguments
    past the named ones as the tuple of its ``*args``, as the forward-mode and vjp
    functions take it), and the keyword arguments given for its keyword-only parameters
    and its ``**kwargs`` (the generated function keeps the keyword-only defaults itself)."""
    kwonly = getattr(program, "kwonly", ())  # a signature pickled before they were kept
    params = program.params[:len(program.params) - len(kwonly)]
    if getattr(program, "vararg", None) is not None:
        point, named = bind_arguments(types.SimpleNamespace(
            params=params[:-1] + tuple(kwonly), defaults=program.defaults,
            kwargs=program.kwargs, kwonly=kwonly), args[:len(params) - 1], kwargs, name)
        return (*point, tuple(args[len(params) - 1:])), named
    defaults = program.defaults
    if len(args) > len(params):
        raise TypeError(f"{name}() takes {len(params)} positional arguments but "
                        f"{len(args)} were given")
    kwargs = dict(kwargs)
    for param in params[:len(args)]:
        if param in kwargs:
            raise TypeError(f"{name}() got multiple values for argument {param!r}")
    first_default = len(params) - len(defaults)
    values = list(args)
    for i in range(len(args), len(params)):
        if params[i] in kwargs:
            values.append(kwargs.pop(params[i]))
        elif i >= first_default:
            values.append(defaults[i - first_default])
        else:
            raise TypeError(f"{name}() missing argument {params[i]!r}")
    unknown = [k for k in kwargs if k not in kwonly]
    if unknown and program.kwargs is None:
        raise TypeError(f"{name}() got an unexpected keyword argument {unknown[0]!r}")
    return tuple(values), kwargs


def _directions(count):
    """The unit vectors of ``count`` dimensions."""
    return [tuple(1.0 if j == i else 0.0 for j in range(count)) for i in range(count)]


def _of_method(fn, wrt, entry, **options):
    """``entry`` (``jvp``, ``hessian``...) of a bound method or a callable instance:
    ``entry`` of its function, called with the instance first, as data unless ``wrt``
    names it (``specialized.MethodGradient``); None for any other ``fn``."""
    bound = bound_instance(_unwrap(fn))
    if bound is None:
        return None
    return MethodGradient(*bound, wrt, lambda function, inner: entry(
        function, wrt=inner, **options), entry.__name__)


def _by_kinds(gradient, jit, entry, fn, wrt, *options):
    """For code of numbers that calls NumPy, not compiled: what a call given a NumPy
    array (a 0-d one) runs instead, ``higher_arrays``' ``entry`` built for that call's
    kinds (made on the first such call), so a derivative by a 0-d array is a 0-d array of
    its dtype, as its gradient is (``api._by_kinds``); else None."""
    if jit is not None or gradient.program.numpy_name is None:
        return None
    made = []

    def call(args, kwargs):
        if not made:
            made.append(getattr(_arrays(), entry)(fn, wrt, *options))
        return made[0](*args, **kwargs)
    return call


def _arrays():
    """``higher_arrays``, imported where an array function is met: it imports NumPy,
    which symdiff runs without."""
    from symdiff import higher_arrays
    return higher_arrays


def _containers():
    from symdiff import higher_containers
    return higher_containers


def _by_containers(fn, wrt, jit=None):
    """Whether ``fn``'s derivatives are built per kind of the arguments of each call
    because it reads a parameter as a container (``specialized.per_kinds``:
    ``higher_containers``, results in the parameters' structures).  Not compiled: with
    ``jit``, such a function is refused at its ``def``."""
    if not per_kinds(_unwrap(fn), wrt):
        return False
    if jit:
        raise _not_compiled(fn, "reads a parameter as a container")
    return True


def _per_kinds(fn, jit=None):
    """Whether ``fn``'s derivatives are built per kind of the arguments of each call
    (``higher_arrays``): it computes with NumPy arrays (``specialized.
    computes_with_arrays``).  One that reads containers is ``_by_containers``'s.  Those
    builds are not compiled:
    with ``jit``, such a function is refused at its ``def``."""
    if not computes_with_arrays(_unwrap(fn)):
        return False
    if jit:
        raise _not_compiled(fn, "computes with NumPy arrays")
    return True


def _not_compiled(fn, why):
    """The refusal, at ``fn``'s ``def``, of compiled derivatives of a function built per
    kind of its arguments (``why`` says what it does that makes it so)."""
    code = _unwrap(fn).__code__
    return UnsupportedSyntaxError(
        f"{code.co_name} {why}: its forward mode and higher derivatives are not compiled "
        "with jit yet", filename=code.co_filename, lineno=code.co_firstlineno, col_offset=0,
        hint="leave out jit here (grad(f, jit=...) compiles the gradient)")


def _gradient_forward(fn, wrt, jit=None):
    """The forward mode of ``fn``'s generated gradient (compiled for ``jit``), the gradient
    itself (a tuple, whatever ``wrt`` says: its parameters and defaults), and whether
    ``wrt`` asks for one bare value.  The parameters are read off the source (``frontend.wrt.choose``, as
    the build resolves them), so one gradient is built, not one to learn them first."""
    fn = _unwrap(fn)
    parsed = parse_function(fn)
    choice = choose(wrt, parsed)
    gradient = build(fn, choice.names, pack=False)  # a tuple, even of one; read again
    forward = build(gradient.function, choice.names, mode="forward", jit=jit)
    return forward, gradient, choice.single
