import numpy as np


def jvp_smoothed(u, dt, du, ddt):
    # line 41: new = u.copy()
    new = u.copy()
    dnew = du.copy()
    # line 42: new[1:-1] = u[1:-1] + dt * (u[2:] - 2.0 * u[1:-1] + u[:-2])
    u_part = u[1:-1]
    du_part = du[1:-1]
    u_part_1 = u[2:]
    du_part_1 = du[2:]
    u_part_2 = u[1:-1]
    du_part_2 = du[1:-1]
    sub_new = u_part_1 - 2.0 * u_part_2
    dsub_new = du_part_1 - du_part_2 * 2.0
    u_part_3 = u[:-2]
    du_part_3 = du[:-2]
    add_new = sub_new + u_part_3
    dadd_new = dsub_new + du_part_3
    mul_new_1 = dt * add_new
    dmul_new_1 = ddt * add_new + dadd_new * dt
    add_new_1 = u_part + mul_new_1
    dadd_new_1 = du_part + dmul_new_1
    new_1 = new
    new_1[1:-1] = add_new_1
    dnew_1 = dnew
    dnew_1[1:-1] = dadd_new_1
    # line 43: return np.sum(new ** 2)
    result = np.sum(new_1 ** 2)
    dresult = np.sum(dnew_1 * (2 * new_1))
    return result, dresult
