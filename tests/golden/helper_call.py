import math


def grad_helper_call(x, y):
    # line 20 (in norm): return math.sqrt(a * a + b * b)
    mul_r = x * x
    mul_r_1 = y * y
    r = math.sqrt(mul_r + mul_r_1)
    # line 25: return r * math.atan2(y, x)
    atan2_result = math.atan2(y, x)
    # reverse sweep: adjoints, from the result back
    # line 25: return r * math.atan2(y, x)
    dy = r * (x / (mul_r_1 + mul_r) if mul_r_1 + mul_r
              else x / math.hypot(y, x) / math.hypot(y, x) if y or x
              else math.nan)
    dx = r * (-y / (mul_r_1 + mul_r) if mul_r_1 + mul_r
              else -y / math.hypot(y, x) / math.hypot(y, x) if y or x
              else math.nan)
    # line 20 (in norm): return math.sqrt(a * a + b * b)
    dadd_r = atan2_result * (0.5 / r if r else math.inf)
    dy += dadd_r * (y + y)
    dx += dadd_r * (x + x)
    return dx, dy
