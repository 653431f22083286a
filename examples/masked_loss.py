"""A wrong gradient found: a hand-written backward that treats a mask as constant.

`masked_error` weights a squared error by a soft mask that depends on `x` itself. Its
hand-written derivative (given to symdiff with `defgrad`) differentiates the error but
forgets that the mask moves with `x`. `symdiff.check` catches the disagreement and names
the line that calls the rule; two fixes make the check pass.
"""

import math

import symdiff


def soft_mask(x, threshold):
    return 1.0 / (1.0 + math.exp(-8.0 * (x - threshold)))


def masked_error(x, threshold):
    mask = soft_mask(x, threshold)
    return mask * (x - 1.0) ** 2


def masked_error_dx(x, threshold, out):
    mask = soft_mask(x, threshold)
    return mask * 2.0 * (x - 1.0)  # wrong: the mask depends on x too


def masked_error_dthreshold(x, threshold, out):
    mask = soft_mask(x, threshold)
    return -8.0 * mask * (1.0 - mask) * (x - 1.0) ** 2


symdiff.defgrad(masked_error, masked_error_dx, masked_error_dthreshold)


def loss(w, x):
    prediction = w * x
    error = masked_error(prediction, 0.5)
    return error + 0.01 * w * w


# Fix 1: if the mask really is meant as a constant weight, say so in the code itself.
def masked_error_constant_mask(x, threshold):
    mask = symdiff.stop_gradient(soft_mask(x, threshold))
    return mask * (x - 1.0) ** 2


def loss_constant_mask(w, x):
    prediction = w * x
    error = masked_error_constant_mask(prediction, 0.5)
    return error + 0.01 * w * w


# Fix 2: the correct derivative, product rule and all.
def masked_error_fixed(x, threshold):
    mask = soft_mask(x, threshold)
    return mask * (x - 1.0) ** 2


def masked_error_fixed_dx(x, threshold, out):
    mask = soft_mask(x, threshold)
    dmask = 8.0 * mask * (1.0 - mask)
    return dmask * (x - 1.0) ** 2 + mask * 2.0 * (x - 1.0)


symdiff.defgrad(masked_error_fixed, masked_error_fixed_dx, masked_error_dthreshold)


def loss_fixed(w, x):
    prediction = w * x
    error = masked_error_fixed(prediction, 0.5)
    return error + 0.01 * w * w


def main():
    points = [(0.8, 0.9), (1.3, 0.4), (0.2, 2.1)]
    wrong = symdiff.check(loss, *points)
    print(wrong, "\n")
    assert not wrong.ok and wrong.divergences[0].text == "error = masked_error(prediction, 0.5)"
    for fixed in (loss_constant_mask, loss_fixed):
        report = symdiff.check(fixed, *points)
        print(report, "\n")
        assert report.ok
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
