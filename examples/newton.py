"""Newton's method on a two-dimensional energy, driven by symdiff.grad and symdiff.hessian."""

import math

import symdiff


def energy(x, y):
    return (x - 1.0) ** 2 + 10.0 * (y - x * x) ** 2 + 0.1 * math.cosh(x + y)


gradient = symdiff.grad(energy)
hessian = symdiff.hessian(energy)

x, y = -1.0, 2.0
for step in range(20):
    gx, gy = gradient(x, y)
    (hxx, hxy), (hyx, hyy) = hessian(x, y)
    det = hxx * hyy - hxy * hyx
    x, y = x - (hyy * gx - hxy * gy) / det, y - (hxx * gy - hyx * gx) / det
print(round(x, 6), round(y, 6), gradient(x, y))
