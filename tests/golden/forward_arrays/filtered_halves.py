import numpy as np


def jvp_filtered_halves(x, k, dx, dk):
    # line 64: left, right = np.split(np.convolve(x, k, mode="same"), 2)
    convolve_value = np.convolve(x, k, mode='same')
    dconvolve_value = (np.convolve(dx, k, mode='same')
                       + np.convolve(x, dk, mode='same'))
    left = np.split(convolve_value, 2)[0]
    dleft = np.split(dconvolve_value, 2, axis=0)[0]
    right = np.split(convolve_value, 2)[1]
    dright = np.split(dconvolve_value, 2, axis=0)[1]
    # line 65: return np.sum(np.tanh(left) * right) + np.sum(np.cross(x[:3], k[:3]) ** 2)
    tanh_result = np.tanh(left)
    dtanh_result = dleft * (1.0 - tanh_result * tanh_result)
    mul_result = tanh_result * right
    darray_sum_result = np.sum(dtanh_result * right + dright * tanh_result)
    x_part = x[:3]
    dx_part = dx[:3]
    k_part = k[:3]
    dk_part = dk[:3]
    cross_result = np.cross(x_part, k_part)
    darray_sum_result_1 = np.sum((np.cross(dx_part, k_part)
                                  + np.cross(x_part, dk_part)) * (2 * cross_result))
    result = mul_result.sum() + np.sum(cross_result ** 2)
    dresult = darray_sum_result + darray_sum_result_1
    return result, dresult
