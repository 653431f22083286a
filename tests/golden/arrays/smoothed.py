import numpy as np


def grad_smoothed(u, dt):
    # line 41: new = u.copy()
    new = u.copy()
    # line 42: new[1:-1] = u[1:-1] + dt * (u[2:] - 2.0 * u[1:-1] + u[:-2])
    u_part = u[1:-1]
    u_part_1 = u[2:]
    u_part_2 = u[1:-1]
    sub_new = u_part_1 - 2.0 * u_part_2
    u_part_3 = u[:-2]
    add_new = sub_new + u_part_3
    add_new_1 = u_part + dt * add_new
    new_1 = new.copy()
    new_1[1:-1] = add_new_1
    # line 43: return np.sum(new ** 2)
    pow_result = new_1 ** 2
    result = np.sum(pow_result)
    # reverse sweep: adjoints, from the result back
    du = np.zeros_like(u)
    # line 43: return np.sum(new ** 2)
    dpow_result = np.full_like(pow_result, 1.0)
    dnew_1 = dpow_result * (2 * new_1)
    # line 42: new[1:-1] = u[1:-1] + dt * (u[2:] - 2.0 * u[1:-1] + u[:-2])
    dnew_before = dnew_1.copy()
    dnew_before[1:-1] = 0.0
    dadd_new_1 = dnew_1[1:-1]
    ddt = np.sum(dadd_new_1 * add_new)
    dadd_new = dadd_new_1 * dt
    du[:-2] += dadd_new
    du[1:-1] += -dadd_new * 2.0
    du[2:] += dadd_new
    du[1:-1] += dadd_new_1
    # line 41: new = u.copy()
    du = du + dnew_before
    return du, float(ddt)
