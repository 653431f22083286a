"""symdiff.witnesses.deadline: a call given up on past its budget, its worker stopped."""

import threading

import pytest

from symdiff.witnesses.deadline import TimedOut, within


def spin():
    while True:
        try:
            sum(range(100))
        except Exception:  # code that swallows exceptions does not keep the worker alive
            pass


def test_the_result_and_the_exception_come_back():
    assert within(60.0, lambda a, b=1: a + b, 2, b=3) == 5
    assert within(None, lambda: 7) == 7
    with pytest.raises(ZeroDivisionError):
        within(60.0, lambda: 1 / 0)


def test_a_call_past_its_budget_is_stopped():
    before = threading.active_count()
    with pytest.raises(TimedOut):
        within(0.05, spin)
    assert threading.active_count() == before
    with pytest.raises(TimedOut):
        within(0, spin)
