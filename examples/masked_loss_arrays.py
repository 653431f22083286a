"""A wrong gradient found in NumPy code: a hand-written backward that treats a mask as
constant.

`masked_error` weights each squared error of a batch by a soft mask that depends on the
prediction itself. Its hand-written derivative (given to symdiff with `defgrad`, applied
elementwise as `d_error * rule(...)`) differentiates the error but forgets that the mask
moves with the prediction. The tape engine does not take arrays, so `symdiff.check`
compares the generated gradient with central differences, element by element and along
random directions: it catches the disagreement, finds the rule wrong, and names the line
that calls it. The corrected rule passes the same check.
"""

import numpy as np

import symdiff


def soft_mask(x, threshold):
    return 1.0 / (1.0 + np.exp(-8.0 * (x - threshold)))


def masked_error(x, threshold):
    mask = soft_mask(x, threshold)
    return mask * (x - 1.0) ** 2


def masked_error_dx(x, threshold, out):
    mask = soft_mask(x, threshold)
    return mask * 2.0 * (x - 1.0)  # wrong: the mask depends on x too


symdiff.defgrad(masked_error, masked_error_dx, None)


def loss(w, X):
    prediction = X @ w
    error = masked_error(prediction, 0.5)
    return np.mean(error) + 0.01 * np.sum(w * w)


# The fix: the correct derivative, product rule and all.
def masked_error_fixed(x, threshold):
    mask = soft_mask(x, threshold)
    return mask * (x - 1.0) ** 2


def masked_error_fixed_dx(x, threshold, out):
    mask = soft_mask(x, threshold)
    dmask = 8.0 * mask * (1.0 - mask)
    return dmask * (x - 1.0) ** 2 + mask * 2.0 * (x - 1.0)


symdiff.defgrad(masked_error_fixed, masked_error_fixed_dx, None)


def loss_fixed(w, X):
    prediction = X @ w
    error = masked_error_fixed(prediction, 0.5)
    return np.mean(error) + 0.01 * np.sum(w * w)


def main():
    rng = np.random.default_rng(7)
    w, X = rng.normal(size=3), rng.normal(size=(6, 3))
    wrong = symdiff.check(loss, (w, X), wrt="w")
    print(wrong, "\n")
    assert not wrong.ok and wrong.rule_problems
    assert wrong.divergences and wrong.divergences[0].text == (
        "error = masked_error(prediction, 0.5)")
    fixed = symdiff.check(loss_fixed, (w, X), wrt="w")
    print(fixed)
    assert fixed.ok
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
