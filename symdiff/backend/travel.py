"""Travel: the functions symdiff returns pickle, so they run in other processes.

Expects a function symdiff generated (its text and the compiled function) and the
recipe that made it: the transform (``grad``, ``value_and_grad``, ``jvp``,
``jacobian``, ``hessian``, ``hvp``), the function it was applied to and the options.
Guarantees a ``GeneratedFunction``: called, it runs the generated code; it has
``source``, ``graph`` and ``fn``; it displays in Jupyter; and it pickles one of three
ways, the first that applies:

1. By its name.  ``@grad`` on a module-level ``def f``: the module's ``f`` *is* the
   gradient, so the pickle names ``module.f``, as pickle names a function; unpickling
   imports the module, whose decorator builds the gradient there.
2. By its recipe.  The function is reachable by reference (``module.qualname`` is the
   function, and the module is not ``__main__``) or is itself one symdiff built: the
   pickle holds the transform, the function (pickled by reference, as pickle pickles
   functions) and the options; unpickling applies the transform again, so the
   gradient is rebuilt from the code as the worker has it, and cached there.
3. By its text.  A lambda, a nested function, a function of ``__main__``: the pickle
   carries the generated text, with the few objects the text reads but does not bind
   (a rule given with ``defgrad``, pickled as pickle pickles them), and unpickling
   compiles it; no source of the function is needed on the other side.  ``__main__``
   goes this way because a worker's ``__main__`` is another program: a notebook's
   cannot be imported, and a spawned worker runs a script under another name.  What
   is rebuilt from text has the same ``source``, and ``fn`` and ``graph`` None: they
   stayed behind (the text is all the worker needs, and a pool sends it with every task).

Either way unpickling needs symdiff importable where it happens.  For a worker with
nothing but Python, save the text (``symdiff show file.py:f > grad_f.py``) and import it.

    >>> import pickle
    >>> g = grad(f)                       # f a module-level function of model.py
    >>> pickle.loads(pickle.dumps(g))     # rebuilt: symdiff.grad(model.f)
    <symdiff grad_f: grad of f>
"""

import ast
import collections
import dataclasses
import functools
import importlib
import sys
import types
import weakref

from symdiff.analysis.activity import active_names
from symdiff.backend import display
from symdiff.backend.compile import run_text
from symdiff.frontend.wrappers import StandsFor

TRANSFORMS = ("grad", "value_and_grad", "jvp", "jacobian", "hessian", "hvp", "vjp")
_PUBLIC = {}  # transform name -> the public function ``rebuild`` applies (``serve``)
_MADE = weakref.WeakKeyDictionary()  # Gradient -> [GeneratedFunctions made of it]
_ARRIVED = {}  # what from_source compiled, by its text and what it ran as


class Travels:
    """Pickling and notebook display for the callables symdiff returns.

    A subclass gives ``_recipe()`` -> ``(transform, fn, options)`` (``fn`` None when
    the function stayed in another process) and ``_carried()`` -> the state
    ``from_source`` rebuilds it from; and ``__name__`` and ``source``.
    """

    def __reduce__(self):
        transform, fn, options = self._recipe()
        name = _global_name(self, fn)
        if name is not None:
            return lookup, name
        if fn is not None and _by_reference(fn):
            return rebuild, (transform, fn, options)
        return from_source, (self._carried(),)

    def _describe(self):
        transform, fn, _ = self._recipe()
        return f"{transform} of {getattr(self, '_of', None) or _qualname(fn)}"

    def _repr_html_(self):
        return display.source_html(self.__name__, self._describe(), self.source)

    def _repr_markdown_(self):
        return display.source_markdown(self.__name__, self._describe(), self.source)


class GeneratedFunction(Travels, StandsFor, functools.partial):
    """A function symdiff generated, with its ``source``, ``graph`` and ``fn``.

    A ``functools.partial`` so that calling it costs one C-level call more than
    calling the generated function: with nothing bound for ``grad``,
    ``value_and_grad`` and ``jvp`` (it then stands for that function:
    ``inspect.getsource`` and ``inspect.signature`` see through it), and with the
    generated function bound to its evaluator for ``jacobian``, ``hessian`` and ``hvp``.
    """

    def _recipe(self):
        return self._made

    _reread = None  # gives the gradient as symdiff reads it again (``function``, ``source``)

    def _stands_for(self):
        """The generated function, when nothing is bound (``frontend.wrappers.transparent``
        sees through to it); where it pushes a loop's saves as tuples, which symdiff does
        not read, the same gradient with them pushed one by one (``_reread``)."""
        if self._evaluate is not None:
            return None
        return self._core if self._reread is None else self._reread().function

    def _carried(self):
        if self._state is None:  # once: a pool pickles the function with every task
            self._state = carried(self._core, self.source, self._made[0], self.__name__,
                                  self._of, self._evaluate,
                                  self._bound if self._evaluate else ())
            if self._reread is not None:
                with_reread(self._state, self._reread(), self.source)
        return self._state

    def __repr__(self):
        return f"<symdiff {self.__name__}: {self._describe()}>"

    @property
    def __code__(self):
        """The generated function's code, when it stands for that function."""
        if self._evaluate is not None:
            raise AttributeError(f"{self.__name__} runs its generated code through "
                                 f"{self._evaluate.__name__}: it has no code of its own")
        return self._core.__code__

    def __get__(self, instance, owner=None):
        """Bound as a method, as the plain function it stands for would be (and as
        ``functools.partial`` is from Python 3.14 on)."""
        return self if instance is None else types.MethodType(self, instance)


def make(core, source, transform, subject, options, *, fn=None, graph=None, evaluate=None,
         bound=(), name=None, of=None, arrays=None):
    """The ``GeneratedFunction`` running ``core`` (through ``evaluate(core, *bound, ...)``
    when given), made by ``transform(subject, **options)``; with ``arrays``, a call
    given a NumPy array runs ``arrays(args, kwargs)`` instead (``also_arrays``), for an
    evaluated one too (the Hessian of code of numbers given a 0-d array)."""
    if arrays is not None:  # (a call of numbers still costs one look at each argument)
        run = core if evaluate is None else functools.partial(evaluate, core, *bound)
        made = GeneratedFunction(also_arrays(run, arrays))
    else:
        made = GeneratedFunction(core) if evaluate is None else GeneratedFunction(
            evaluate, core, *bound)
    if evaluate is None:
        made.__wrapped__ = core
    made.__name__ = made.__qualname__ = name or core.__name__
    made.__module__ = getattr(subject, "__module__", None) or core.__module__
    made.__doc__ = f"The {transform} of {of or _qualname(subject)}, generated by symdiff."
    made.source, made.graph, made.fn = source, graph, fn
    made._core, made._evaluate, made._of = core, evaluate, of or _qualname(subject)
    made._bound = tuple(bound)
    made._made = (transform, subject, dict(options))
    made._state = None
    return made


def also_arrays(core, arrays):
    """``core``, but for a call given a NumPy array (a 0-d one, to code of numbers),
    ``arrays(args, kwargs)``: the gradient built for the kinds of that call.  A call of
    numbers pays one look at the type of each argument."""
    ndarray = sys.modules["numpy"].ndarray

    def numbers_or_arrays(*args, **kwargs):
        for arg in args:
            if type(arg) is ndarray:
                return arrays(args, kwargs)
        if kwargs and ndarray in map(type, kwargs.values()):
            return arrays(args, kwargs)
        return core(*args, **kwargs)
    return numbers_or_arrays


def wrap(gradient, transform, subject, options, *, fn, evaluate=None, bound=(), name=None,
         drawn=None, adjoints=True, arrays=None):
    """``make`` for a ``Gradient`` the api built, once: asked again (``grad(f)`` in a
    loop), the same object.  The graph is ``drawn``'s (a Gradient; by default this one),
    with its adjoints when ``adjoints``; ``arrays`` as ``make`` takes it."""
    made = _MADE.setdefault(gradient, [])
    for earlier in made:
        if earlier._made == (transform, subject, options) and earlier._made[1] is subject:
            return earlier
    drawn = drawn or gradient
    graph = drawn.graph
    if adjoints:
        active = active_names(drawn.program, drawn.wrt_names)
        graph = dataclasses.replace(graph, active=tuple(sorted(active)))
    made.append(make(gradient.function, gradient.source, transform, subject, options, fn=fn,
                     graph=graph, evaluate=evaluate, bound=bound, name=name, arrays=arrays))
    return made[-1]



# --- the three ways back -------------------------------------------------------------------

def lookup(module, qualname):
    """``module.qualname``, the module imported."""
    return _attribute(importlib.import_module(module), qualname)


def serve(public):
    """Give ``rebuild`` the public transforms (``public``: ``{name: function}``, each name
    of ``TRANSFORMS``).  The package does, as it is imported: the transforms are defined
    above the back end, so travel is handed them rather than importing them, and a
    pickle is only ever loaded once the package (imported before any module of it) is."""
    _PUBLIC.update((name, public[name]) for name in TRANSFORMS)


def rebuild(transform, fn, options):
    """``symdiff.<transform>(fn, **options)`` in this process."""
    if transform not in TRANSFORMS:
        raise ValueError(f"{transform!r} is not one of symdiff's transforms")
    return _PUBLIC[transform](fn, **options)


def carried(core, text, transform, name, of, evaluate=None, bound=()):
    """What ``from_source`` needs to run ``text`` elsewhere: the text, the name of the
    function it defines, the pseudo-file it is shown under, and the globals the function
    reads that the text does not bind."""
    binds = _bound_by(text)
    core = getattr(core, "py_func", core)  # numba's dispatcher: the Python text it compiled
    scope = core.__globals__
    outside = {n: scope[n] for n in _global_reads(core.__code__)
               if n in scope and n not in binds and not n.startswith("__")}
    return {"text": text, "function": core.__name__, "filename": core.__code__.co_filename,
            "outside": outside, "transform": transform, "name": name, "of": of,
            "evaluate": evaluate, "bound": tuple(bound)}


def with_reread(state, reread, source):
    """``state`` (of ``carried``) with the text of ``reread``, the same gradient as
    symdiff reads it again, when that text is not ``source`` (it packs a loop's saves):
    unpickled, it is differentiated again from that text."""
    if reread.source != source:
        state["reread"] = carried(reread.function, reread.source, state["transform"],
                                  state["name"], state["of"])
    return state


def from_source(state):
    """The ``GeneratedFunction`` ``carried`` described, compiled from its text; once per
    process (a pool sends it with every task) unless it reads objects from outside, which
    arrive new each time."""
    key = (state["filename"], state["text"], state["transform"], state["name"],
           repr(state["bound"]))  # bound values (a signature's defaults) need not hash
    if key in _ARRIVED:
        return _ARRIVED[key]
    core = run_text(state["text"], state["function"], state["outside"], state["filename"])
    made = make(core, state["text"], state["transform"], None, {}, evaluate=state["evaluate"],
                bound=state["bound"], name=state["name"], of=state["of"])
    if state.get("reread") is not None:  # differentiated again, it is read unpacked
        made._reread = functools.partial(_reread_from, state["reread"])
    if not state["outside"]:
        _ARRIVED[key] = made
    return made


Reread = collections.namedtuple("Reread", "function source")


def _reread_from(state):
    """The gradient that ``carried`` described, as symdiff reads it again: its saves
    pushed one by one (compiled from the text that came with a packed one)."""
    return Reread(run_text(state["text"], state["function"], state["outside"],
                           state["filename"]), state["text"])


# --- reachable by reference? ---------------------------------------------------------------

def _global_name(obj, fn):
    """``(module, qualname)`` when a module other than ``__main__`` holds ``obj`` under the
    name of the function it was made from (``@grad`` on a module-level function)."""
    while isinstance(fn, Travels) and fn._recipe()[1] is not None:
        fn = fn._recipe()[1]
    place = _place(fn)
    if place is not None and _attribute(sys.modules[place[0]], place[1]) is obj:
        return place
    return None


def _by_reference(fn):
    """Whether pickling ``fn`` by reference gives ``fn`` back in another process."""
    if isinstance(fn, Travels):
        return True
    place = _place(fn)
    return place is not None and _attribute(sys.modules[place[0]], place[1]) is fn


def _place(fn):
    module, qualname = getattr(fn, "__module__", None), getattr(fn, "__qualname__", None)
    if (not isinstance(module, str) or not isinstance(qualname, str) or module == "__main__"
            or module not in sys.modules or "<" in qualname):
        return None
    return module, qualname


def _attribute(scope, qualname):
    for part in qualname.split("."):
        scope = getattr(scope, part, None)
    return scope


def _qualname(fn):
    return getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or repr(fn)


def _bound_by(text):
    """The names the module text binds at its top level."""
    names = set()
    for stmt in ast.parse(text).body:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).partition(".")[0] for a in stmt.names)
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(stmt.name)
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
    return names


def _global_reads(code):
    """The global names ``code`` and the code nested in it may read, in order, once each."""
    names = list(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names += _global_reads(const)
    return list(dict.fromkeys(names))
