system_mass = 2.0


def grad_method_energy(v):
    # line 32 (in energy): return 0.5 * self.mass * v ** 2
    mul_result = 0.5 * system_mass
    # reverse sweep: adjoints, from the result back
    # line 32 (in energy): return 0.5 * self.mass * v ** 2
    dv = mul_result * (2 * v)
    return dv
