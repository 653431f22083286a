DECAY = 0.9


def grad_for_loop(x, n):
    stack = []
    push, pop = stack.append, stack.pop
    # line 39: s = 0.0
    s = 0.0
    # line 40: p = 1.0
    p = 1.0
    # line 41: for i in range(5):
    for i in range(5):
        # line 42: p = p * x
        push(p)
        p = p * x
        # line 43: s = s + p / (i + 1)
        add_s = i + 1
        s = s + p / add_s
    # reverse sweep: adjoints, from the result back
    # line 41: for i in range(5):
    dp = 0.0
    dx = 0.0
    for i in reversed(range(5)):
        # line 43: s = s + p / (i + 1)
        add_s = i + 1
        dp += DECAY / add_s
        # line 42: p = p * x
        dmul_p = dp
        p = pop()
        dp = dmul_p * x
        dx += dmul_p * p
    return dx, 1.0
