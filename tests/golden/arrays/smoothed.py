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
    new_1 = new
    new_1[1:-1] = u_part + dt * add_new
    # reverse sweep: adjoints, from the result back
    du = np.zeros_like(u)
    # line 43: return np.sum(new ** 2)
    dnew_1 = 2 * new_1
    # line 42: new[1:-1] = u[1:-1] + dt * (u[2:] - 2.0 * u[1:-1] + u[:-2])
    dnew_before = dnew_1.copy()
    dnew_before[1:-1] = 0.0
    dadd_new_1 = dnew_1[1:-1]
    ddt = np.sum(dadd_new_1 * add_new)
    dadd_new = dadd_new_1 * dt
    du[:-2] += dadd_new
    du[1:-1] -= dadd_new * 2.0
    du[2:] += dadd_new
    du[1:-1] += dadd_new_1
    # line 41: new = u.copy()
    du = du + dnew_before
    return du, float(ddt)
