import math


def grad_while_with_break(x, y):
    stack = []
    push, pop = stack.append, stack.pop
    # line 48: t = x
    t = x
    # line 49: steps = 0
    steps = 0
    # line 50: while t < 100.0:
    stop = False
    trips = 0
    while t < 100.0:
        trips += 1
        # line 51: t = t * y + 1.0
        push(t)
        t = t * y + 1.0
        # line 52: steps = steps + 1
        steps = steps + 1
        # line 53: if steps >= 8:
        cond_1 = steps >= 8
        if cond_1:
            # line 54: break
            stop = True
        # line 50: while t < 100.0:
        if stop:
            break
    # line 55: return t + math.cos(x)
    cos_result = math.cos(x)
    # reverse sweep: adjoints, from the result back
    # line 55: return t + math.cos(x)
    dt = 1.0
    dx = -math.sin(x)
    # line 50: while t < 100.0:
    dy = 0.0
    for _ in range(trips):
        # line 51: t = t * y + 1.0
        dmul_t = dt
        t = pop()
        dt = dmul_t * y
        dy += dmul_t * t
    # line 48: t = x
    dx += dt
    return dx, dy
