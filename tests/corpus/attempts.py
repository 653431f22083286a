"""Functions with ``try``/``except``/``else``/``finally``: an exception raised inside the
``try`` and caught by its handler is part of the function.  Each domain holds points
where the exception is raised and caught and points where it is not (the ``kinky``
mark: the switch between the two is a kink the finite differences step over); ``bad``
points are where an exception leaves the function (not caught, or raised again by a
handler), so the gradient must raise it too.
"""

import math

from . import case


class FitError(ValueError):
    """A module's own exception class, caught by a handler."""


def log_or_line(x):
    """The body raises on its one line for x <= 0; the handler takes over."""
    try:
        y = math.log(x)
    except ValueError:
        y = x - 1.0
    return y * x


def half_way(x, y):
    """The first line runs, the second raises for y <= 0: the first line's value
    reaches the result through the handler."""
    try:
        a = math.exp(x) * y
        b = math.sqrt(y) * a
    except ValueError:
        b = 2.0 * a
    return a + b


def with_else(x, y):
    """``else`` runs only when the body raised nothing."""
    try:
        r = x / y
    except ZeroDivisionError:
        r = x
    else:
        r = r * r + x
    return r


def classes_tuple(x):
    """A tuple of classes, and ``except Exception`` as the last clause."""
    try:
        if x > 1.0:
            v = math.acos(x - 2.0)
        else:
            v = 1.0 / (x - 0.5) if x > 0.75 else math.log(x - 0.25)
    except (ZeroDivisionError, OverflowError):
        v = x * 3.0
    except Exception:
        v = x * x
    return v + x


def bare_except(x):
    try:
        t = math.sqrt(x - 1.0)
    except:  # noqa: E722 (as Python's: BaseException)
        t = -x
    return t * math.sin(x)


def own_class(x, y):
    """A module's own exception class, raised by a check inside the body."""
    try:
        if y < 0.5:
            raise FitError("y too small")
        z = x * y
    except FitError:
        z = x
    return z * x


def reraise(x):
    """A handler that raises again when it cannot repair: bare ``raise``."""
    try:
        v = math.log(x)
    except ValueError:
        if x < -1.0:
            raise
        v = x
    return v * 2.0


def translate(x):
    """``except E as e`` and ``raise ... from e``: a different class leaves the function."""
    try:
        v = math.sqrt(x)
    except ValueError as e:
        if x < -1.0:
            raise FitError(f"negative input {x}") from e
        v = -x
    return v + x


def returns_inside(x, y):
    """``return`` inside the body, with a ``finally`` that runs after it."""
    total = x
    try:
        q = math.log(y)
        return q * total
    except ValueError:
        total = total * 2.0
    finally:
        total = total + 1.0
    return total * y


def nested(x, y):
    """A ``try`` in the body of another: the inner handler raises what the outer catches."""
    try:
        a = x * 2.0
        try:
            b = math.log(y) + a
        except ValueError:
            if y < -1.0:
                raise ZeroDivisionError("far below") from None
            b = a * y
        c = b * x
    except ZeroDivisionError:
        c = a - x
    return c


def in_loop(x, n):
    """A ``try`` inside a loop: each iteration takes its own path."""
    total = 0.0
    for i in range(3):
        try:
            total = total + math.log(x - i)
        except ValueError:
            total = total + x * i
    return total * n


def loop_pass(x):
    """A handler that does nothing: the value before the ``try`` is kept."""
    v = x * x
    try:
        v = math.log(x) * v
    except ValueError:
        pass
    return v + x


def finally_after(x, y):
    """``finally`` after a handler, on both paths."""
    try:
        t = x / y
    except ZeroDivisionError:
        t = x
    finally:
        t = t * x
    return t + y


def overflow(x):
    """An ``OverflowError`` the function catches: ``math.exp`` of a large number."""
    try:
        e = math.exp(x * 300.0)
    except OverflowError:
        e = x
    return e / (1.0 + e)


def two_lines_caught(x, y):
    """Three lines: the second raises for x + y <= 0 and the third for y < 0."""
    try:
        a = x * y
        b = math.log(x + y) * a
        c = math.sqrt(y) + b
    except ValueError:
        c = y
    return c + x


def break_in_handler(x, y):
    """A handler that leaves the loop: the terms after the failing one are not added."""
    total = 0.0
    for i in range(4):
        try:
            total = total + math.log(x - 0.5 * i) * y
        except ValueError:
            total = total + y * y
            break
    return total + x


def continue_in_handler(x, y):
    """A handler that goes on with the next term, skipping the rest of this one."""
    total = 0.0
    for i in range(4):
        try:
            t = math.sqrt(x - 0.5 * i)
        except ValueError:
            total = total + x * y
            continue
        total = total + t * y
    return total


def finally_with_return(x, y):
    """A ``return`` inside the ``try``: the ``finally`` block runs after it (it changes
    no value the ``return`` gave)."""
    scale = 2.0
    try:
        return math.log(x) * y * scale
    except ValueError:
        scale = 3.0
    finally:
        scale = scale + 1.0
    return x * y * scale


CASES = [
    case(log_or_line, (-2.0, 3.0), kinky=True),
    case(half_way, (-1.0, 1.0), (-1.0, 2.0), kinky=True),
    case(with_else, (-2.0, 2.0), (-1.0, 1.0), kinky=True),
    case(classes_tuple, (0.3, 2.9), kinky=True),
    case(bare_except, (0.2, 3.0), kinky=True),
    case(own_class, (-2.0, 2.0), (0.1, 1.0), kinky=True),
    case(reraise, (-1.0, 2.0), kinky=True, bad=((-2.0,), (-1.5,))),
    case(translate, (-1.0, 2.0), kinky=True, bad=((-2.0,), (-3.0,))),
    case(returns_inside, (-2.0, 2.0), (-1.0, 2.0), kinky=True),
    case(nested, (-2.0, 2.0), (-2.0, 2.0), kinky=True),
    case(in_loop, (0.5, 4.0), (0.5, 2.0), kinky=True),
    case(loop_pass, (-1.0, 2.0), kinky=True),
    case(finally_after, (-2.0, 2.0), (-1.0, 1.0), kinky=True),
    case(overflow, (-0.5, 3.0), kinky=True),
    case(two_lines_caught, (-1.0, 2.0), (-1.0, 2.0), kinky=True),
    case(break_in_handler, (0.3, 2.5), (-1.0, 2.0), kinky=True),
    case(continue_in_handler, (-0.5, 2.2), (-1.0, 2.0), kinky=True),
    case(finally_with_return, (-2.0, 3.0), (-1.0, 2.0), kinky=True),
]
