import numpy as np


def grad_filtered_halves(x, k):
    # line 64: left, right = np.split(np.convolve(x, k, mode="same"), 2)
    convolve_value = np.convolve(x, k, mode='same')
    left = np.split(convolve_value, 2)[0]
    right = np.split(convolve_value, 2)[1]
    # line 65: return np.sum(np.tanh(left) * right) + np.sum(np.cross(x[:3], k[:3]) ** 2)
    tanh_result = np.tanh(left)
    mul_result = tanh_result * right
    x_part = x[:3]
    k_part = k[:3]
    cross_result = np.cross(x_part, k_part)
    # reverse sweep: adjoints, from the result back
    dx = np.zeros_like(x)
    dk = np.zeros_like(k)
    # line 65: return np.sum(np.tanh(left) * right) + np.sum(np.cross(x[:3], k[:3]) ** 2)
    dcross_result = 2 * cross_result
    dx_part = np.cross(k_part, dcross_result)
    dk[:3] += np.cross(dcross_result, x_part)
    dx[:3] += dx_part
    dmul_result = np.full_like(mul_result, 1.0)
    dtanh_result = dmul_result * right
    dright = dmul_result * tanh_result
    dleft = dtanh_result * (1.0 - tanh_result * tanh_result)
    # line 64: left, right = np.split(np.convolve(x, k, mode="same"), 2)
    dconvolve_value = (np.pad(dright,
                              (convolve_value.shape[0] // 2,
                               convolve_value.shape[0] - convolve_value.shape[0] // 2 - dright.shape[0]))
                       + np.pad(dleft,
                                (0, convolve_value.shape[0] - dleft.shape[0])))
    pad_dconvolve_value = np.pad(dconvolve_value,
                                 ((x.size + k.size - 1 - dconvolve_value.size) // 2,
                                  (x.size + k.size - dconvolve_value.size) // 2))
    dx = dx + np.correlate(pad_dconvolve_value, k, mode='valid')
    dk = dk + np.correlate(pad_dconvolve_value, x, mode='valid')
    return dx, dk
