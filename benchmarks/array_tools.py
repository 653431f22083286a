"""The ways of getting an array gradient that ``arrays.py`` compares, each made ready once.

A builder takes an ``array_workloads`` workload and returns a ``Prepared``: ``call()``
computes one gradient of the workload at its point (the arguments already in the tool's
own form: JAX arrays, PyTorch tensors), ``to_numpy`` turns what it returns into NumPy
arrays for the check, and ``setup`` holds one-time costs (symdiff's generation, the
compile of ``jax.jit``).  A tool that is not installed raises ``run.Skip``.  autograd, JAX
and PyTorch run the workload's own code: a copy of its function whose global ``np`` is
``autograd.numpy``, ``jax.numpy``, or ``torch_numpy``'s namespace of the NumPy functions
the workloads call, written over PyTorch's.
"""

import functools
import importlib.metadata
import inspect
import time
import types
from dataclasses import dataclass, field

import numpy as np

import symdiff
import symdiff.api
import symdiff.tape
from run import Skip
from symdiff.specialized import container_kinds


@dataclass
class Prepared:
    call: object
    to_numpy: object = None
    setup: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.to_numpy is None:
            self.to_numpy = lambda value: value


def parameters(fn):
    return list(inspect.signature(fn).parameters)


def positions(workload):
    """The positions of the differentiated parameters, in ``wrt`` order."""
    names = parameters(workload.fn)
    return tuple(names.index(name) for name in workload.wrt)


def with_global(fn, name, value):
    """A copy of ``fn`` that reads ``value`` as its global ``name``."""
    scope = dict(fn.__globals__, **{name: value})
    return types.FunctionType(fn.__code__, scope, fn.__name__, fn.__defaults__, fn.__closure__)


def bound(function, args):
    return functools.partial(function, *args)


# -- the NumPy tools -----------------------------------------------------------------------

def tool_hand(workload):
    return Prepared(bound(workload.hand, workload.point))


def generation_s(workload):
    """symdiff's generation for the workload's kinds, its cache cleared first."""
    symdiff.api._CACHE.clear()
    start = time.perf_counter()
    built = symdiff.api.build(workload.fn, workload.wrt,
                              kinds=container_kinds(workload.fn, workload.point))
    return built, time.perf_counter() - start


def tool_symdiff(workload):
    _, seconds = generation_s(workload)
    gradient = symdiff.grad(workload.fn, wrt=workload.wrt)
    return Prepared(bound(gradient, workload.point), setup={"setup_s": seconds})


def tool_generated(workload):
    built, _ = generation_s(workload)
    return Prepared(bound(built.function, workload.point))


def tool_tape(workload):
    return Prepared(bound(symdiff.tape.grad(workload.fn, wrt=workload.wrt), workload.point))


def tool_autograd(workload):
    try:
        import autograd
        import autograd.numpy as anp
    except ImportError:
        raise Skip("autograd is not installed") from None
    where = positions(workload)
    gradient = autograd.grad(with_global(workload.fn, "np", anp),
                             where[0] if len(where) == 1 else where)
    return Prepared(bound(gradient, workload.point))


# -- JAX -----------------------------------------------------------------------------------

def _jax():
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        raise Skip("JAX is not installed") from None
    jax.config.update("jax_enable_x64", True)
    return jax, jnp


def _jax_gradient(workload):
    jax, jnp = _jax()
    gradient = jax.grad(with_global(workload.fn, "np", jnp), argnums=positions(workload))
    args = tuple(jnp.asarray(a) for a in workload.point)   # on the device once, untimed
    return jax, gradient, args


def to_numpy_jax(value):
    return [np.asarray(item) for item in value]


def tool_jax(workload):
    jax, gradient, args = _jax_gradient(workload)
    return Prepared(lambda: jax.block_until_ready(gradient(*args)), to_numpy_jax)


def tool_jax_jit(workload):
    jax, gradient, args = _jax_gradient(workload)
    jitted = jax.jit(gradient)

    def call():
        return jax.block_until_ready(jitted(*args))

    start = time.perf_counter()
    call()  # trace and compile
    return Prepared(call, to_numpy_jax, {"setup_s": time.perf_counter() - start})


# -- PyTorch -------------------------------------------------------------------------------

def torch_numpy(torch):
    """The NumPy functions the workloads call, as a namespace of PyTorch's."""
    def reduction(op):
        def reduce(x, axis=None, keepdims=False):
            if axis is None and not keepdims:
                return op(x)
            return op(x, dim=tuple(range(x.dim())) if axis is None else axis,
                      keepdim=keepdims)
        return reduce

    return types.SimpleNamespace(
        exp=torch.exp, log=torch.log, log1p=torch.log1p, tanh=torch.tanh, abs=torch.abs,
        sum=reduction(torch.sum), mean=reduction(torch.mean), max=reduction(torch.amax),
        where=torch.where, zeros=lambda shape: torch.zeros(shape, dtype=torch.float64))


def _torch():
    try:
        import torch
    except ImportError:
        raise Skip("PyTorch is not installed") from None
    torch.set_num_threads(1)
    try:
        torch.set_num_interop_threads(1)
    except RuntimeError:  # only before the first parallel work; then already set
        pass
    return torch


def tool_torch(workload):
    torch = _torch()
    fn = with_global(workload.fn, "np", torch_numpy(torch))
    where = positions(workload)
    inputs = [torch.tensor(a, dtype=torch.float64, requires_grad=True) if i in where
              else torch.as_tensor(a) for i, a in enumerate(workload.point)]
    wrt = [inputs[i] for i in where]

    def call():
        return torch.autograd.grad(fn(*inputs), wrt)

    return Prepared(call, lambda value: [g.detach().numpy() for g in value])


BUILDERS = {"hand": tool_hand, "symdiff": tool_symdiff, "generated": tool_generated,
            "tape": tool_tape, "autograd": tool_autograd, "jax": tool_jax,
            "jax_jit": tool_jax_jit, "torch": tool_torch}


def versions():
    """The versions of the other libraries measured, where installed."""
    found = {}
    for name in ("autograd", "jax", "jaxlib", "torch"):
        try:
            found[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            found[name] = "not installed"
    return found
