"""Objects on the tape: namedtuples, dataclasses and plain instances as arguments.

Expects an argument of the function the tape differentiates.  Guarantees the tape's own
reading of an object, stated apart from the generator's: ``fields(value)`` gives
``[(name, value)]`` of a namedtuple's fields, a dataclass's, or a plain instance's
attributes (None for anything else); ``rebuilt(value, changed)`` a new object of the
same class holding ``changed`` (name -> value) and the other fields as they are, made
without calling the class (a copy, its fields set as ``dataclasses`` does for a frozen
one); ``gradient(value, grads)`` the gradient of an object: a namedtuple or a dataclass
of the same class holding ``grads`` (its other fields as they are, as JAX keeps a
pytree's static data), a plain instance's a dict of ``grads`` (its class need not be
built from its attributes).
"""

import copy
import dataclasses
import inspect


def fields(value):
    """``[(name, value)]`` of an object's fields (see the module), or None."""
    if isinstance(value, tuple) and hasattr(type(value), "_fields"):
        return list(zip(type(value)._fields, value))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [(f.name, getattr(value, f.name)) for f in dataclasses.fields(value)]
    if _plain(value):
        return [(k, v) for k, v in vars(value).items() if not k.startswith("__")]
    return None


def _plain(value):
    """An instance of a class of the user's, holding its attributes (one with ``__call__``
    too: ``spring`` by ``self``), not a function, a ``functools.partial`` or a class."""
    return type(value).__module__ not in ("builtins", "numpy", "functools") and isinstance(
        getattr(value, "__dict__", None), dict) and not isinstance(value, type) and not (
        inspect.isroutine(value)) and not hasattr(value, "__get__")


def rebuilt(value, changed):
    """A copy of ``value`` whose fields ``changed`` names hold the values given."""
    if isinstance(value, tuple):
        return value._replace(**changed)
    made = copy.copy(value)
    for name, field in changed.items():
        object.__setattr__(made, name, field)
    return made


def gradient(value, grads):
    """The gradient of the object ``value``: ``grads`` (name -> derivative) in its
    structure (see the module)."""
    if isinstance(value, tuple) or dataclasses.is_dataclass(value):
        return rebuilt(value, grads)
    return dict(grads)
