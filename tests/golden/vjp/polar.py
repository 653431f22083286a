import math


def vjp_polar(r, theta, cotangent):
    # line 15: return r * math.cos(theta), r * math.sin(theta)
    cos_result = math.cos(theta)
    mul_result = r * cos_result
    sin_result = math.sin(theta)
    result = mul_result, r * sin_result
    # reverse sweep: adjoints, from the result back
    # line 15: return r * math.cos(theta), r * math.sin(theta)
    dmul_result = cotangent[0]
    dmul_result_1 = cotangent[1]
    dr = dmul_result_1 * sin_result
    dtheta = dmul_result_1 * r * cos_result
    dr += dmul_result * cos_result
    dtheta -= dmul_result * r * sin_result
    return result, (dr, dtheta)
