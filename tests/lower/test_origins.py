"""An error raised after lowering points at the user's line as written: the origin keeps
the indentation its text was stripped of, so the caret stands under the column."""

import inspect

import numpy as np
import pytest

import symdiff
from symdiff.errors import UnsupportedSyntaxError
from tests.frontend.test_fence import assert_points_at


def unlike_in_a_branch(x, k):
    if k > 0:
        xs = [x, np.sum(x)]
        for i in range(2):
            x = x + xs[i]
    return np.sum(x)


def unlike_at_the_top(x):
    xs = [x, np.sum(x)]
    for i in range(2):
        x = x + xs[i]
    return np.sum(x)


@pytest.mark.parametrize("fn, row", [(unlike_in_a_branch, 2), (unlike_at_the_top, 1)])
def test_an_error_of_the_types_points_under_its_statement(fn, row):
    with pytest.raises(UnsupportedSyntaxError) as info:
        symdiff.grad(fn, wrt="x")(np.ones(3), *([1] if fn is unlike_in_a_branch else []))
    lines, first = inspect.getsourcelines(fn)
    written = lines[row]
    assert_points_at(info.value, __file__, first + row, len(written) - len(written.lstrip()))
    assert info.value.source_line == written.rstrip("\n")
