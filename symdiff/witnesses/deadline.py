"""Deadline: a call that is given up on when it runs past a time budget.

Expects a pure-Python computation that may take too long (the sympy witness on a function
whose expression swells).  Guarantees ``within(seconds, fn, *args)``: ``fn(*args)``'s
result, its exception, or ``TimedOut`` once ``seconds`` have passed.

Signals would interrupt only the main thread, and only on Unix; so the call runs in a
worker thread and the caller waits for it with a timeout.  On a timeout the worker is
asked to stop: an exception (a ``BaseException``, so ``except Exception`` in the code it
runs lets it through) is raised inside it at its next bytecode, and the caller waits up to
``GRACE`` seconds for it to end.  A worker stuck in one long C call cannot be stopped: it
is a daemon thread, left to finish on its own and never waited for at exit.  Starting and
joining the thread costs about 0.1 ms a call (measured on a 2-core machine, against
several milliseconds for forking a process that has imported sympy).
"""

import ctypes
import threading

GRACE = 2.0
STACK_SIZE = 64 * 2 ** 20  # deep sympy expressions recurse deeply; threads get small stacks


class TimedOut(Exception):
    """The call did not finish within its time budget."""


class _Stop(BaseException):
    """Raised inside a worker that ran out of time."""


def within(seconds, fn, *args, **kwargs):
    """``fn(*args, **kwargs)``, or ``TimedOut`` after ``seconds`` (None: no limit)."""
    if seconds is None:
        return fn(*args, **kwargs)
    if seconds <= 0:
        raise TimedOut
    outcome = {}

    def work():
        try:
            try:
                outcome["value"] = fn(*args, **kwargs)
            except BaseException as exc:  # handed to the caller, in the caller's thread
                outcome["error"] = exc
            finally:
                outcome["done"] = True
        except _Stop:  # arrived after the call ended
            pass

    worker = _start(work)
    worker.join(seconds)
    if worker.is_alive() and "done" not in outcome:
        _stop(worker, outcome)
        raise TimedOut
    worker.join()
    error = outcome.get("error")
    if error is not None and not isinstance(error, _Stop):
        raise error
    if "value" not in outcome:
        raise TimedOut
    return outcome["value"]


def _start(work):
    previous = threading.stack_size()
    try:
        threading.stack_size(STACK_SIZE)
    except (ValueError, RuntimeError):  # a platform that does not let us choose
        pass
    try:
        worker = threading.Thread(target=work, name="symdiff-deadline", daemon=True)
        worker.start()
    finally:
        threading.stack_size(previous)
    return worker


def _stop(worker, outcome):
    """Raise ``_Stop`` in ``worker`` (again, if it swallowed it) until it ends or GRACE passes."""
    waited = 0.0
    while worker.is_alive() and "done" not in outcome and waited < GRACE:
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(worker.ident),
                                                   ctypes.py_object(_Stop))
        worker.join(0.25)
        waited += 0.25
