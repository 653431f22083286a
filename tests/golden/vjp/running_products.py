def vjp_running_products(xs, cotangent):
    stack = []
    push, pop = stack.append, stack.pop
    # line 35: out = []
    out = []
    # line 36: total = 1.0
    total = 1.0
    # line 37: for v in xs:
    xs_length = len(xs)
    for v_index in range(xs_length):
        v = xs[v_index]
        # line 38: total = total * v
        push(total)
        total = total * v
        # line 39: out.append(total)
        out.append(total)
    # line 40: out.append(sum(out))
    sum_out = sum(out)
    out.append(sum_out)
    value = list(out)
    # reverse sweep: adjoints, from the result back
    dout = list(cotangent)
    dxs = [0.0] * len(xs)
    # line 40: out.append(sum(out))
    out.pop()
    dsum_out = dout.pop()
    for i in range(len(out)):
        dout[i] += dsum_out
    # line 37: for v in xs:
    dtotal = 0.0
    for v_index in reversed(range(xs_length)):
        # line 39: out.append(total)
        dtotal += dout.pop()
        # line 38: total = total * v
        dmul_total = dtotal
        total = pop()
        v = xs[v_index]
        dtotal = dmul_total * v
        dxs[v_index] += dmul_total * total
    return value, dxs
