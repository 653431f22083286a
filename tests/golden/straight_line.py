import math


def grad_straight_line(x, y):
    # line 14: z = x * y
    z = x * y
    # line 15: w = math.sin(z) + x / y
    sin_w = math.sin(z)
    div_w = x / y
    w = sin_w + div_w
    # line 16: return w * w - math.exp(-x)
    exp_result = math.exp(-x)
    # reverse sweep: adjoints, from the result back
    # line 16: return w * w - math.exp(-x)
    dx = exp_result
    dw = w + w
    # line 15: w = math.sin(z) + x / y
    dx += dw / y
    dy = dw * (-div_w / y)
    dz = dw * math.cos(z)
    # line 14: z = x * y
    dx += dz * y
    dy += dz * x
    return dx, dy
