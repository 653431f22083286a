import math


def grad_if_else(x, y):
    # line 29: if x > y:
    cond = x > y
    if cond:
        # line 30: z = x * x
        z = x * x
    else:
        # line 31: elif x < 0.0:
        cond_1 = x < 0.0
        if cond_1:
            # line 32: z = -x * y
            neg_z = -x
            z = neg_z * y
        else:
            # line 34: z = y - x
            z = y - x
    # line 35: return math.log1p(z * z)
    mul_result = z * z
    result = math.log1p(mul_result)
    # reverse sweep: adjoints, from the result back
    # line 35: return math.log1p(z * z)
    dz = 1.0 / (1.0 + mul_result) * (z + z)
    # line 29: if x > y:
    dx = 0.0
    dneg_z = 0.0
    dy = 0.0
    if cond:
        # line 30: z = x * x
        dx += dz * (x + x)
    else:
        # line 31: elif x < 0.0:
        if cond_1:
            # line 32: z = -x * y
            dneg_z += dz * y
            dy += dz * neg_z
            dx -= dneg_z
        else:
            # line 34: z = y - x
            dy += dz
            dx -= dz
    return dx, dy
