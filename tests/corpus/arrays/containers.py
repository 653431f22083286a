"""Arrays inside lists, tuples and dicts, as models hold them: a dict of weight arrays
(``params``), lists of layer matrices iterated with ``for`` and ``zip``, a list of
per-step arrays a loop appends to and ``np.stack``, ``np.array``, ``np.concatenate``,
``np.vstack``, ``np.hstack`` or ``np.column_stack`` joins (along any axis), ``sum`` of a list of arrays, dicts built, filled by a loop or by a
comprehension and read back, a tuple of arrays a helper returns.  The gradient by a
container parameter is a container of the same structure, an array of each element's
shape in it.

A list parameter whose arrays differ in kind (a flat ``[W1, b1, W2, b2]``, a last layer
of one output) is typed element by element, read by position and unpacked; a list the
function builds of unlike arrays, read at constant positions, too; a loop over a
container of unlike arrays (``for k in params``) reads each entry by its own index or
key.  An array a container holds is indexed as arrays are (``params["w"][0]``,
``xs[1][:, 0]``).  Each function is checked against the tape, finite differences
along random directions and, for small shapes, sympy (``tests/end_to_end/test_arrays.py``).
"""

import numpy as np

from .case import F32, at, batches, normal


# --- a dict of weight arrays -----------------------------------------------------------

def mlp_of_params(params, X, y):
    h = np.tanh(X @ params["W1"] + params["b1"])
    out = h @ params["W2"] + params["b2"]
    return np.mean((out - y) ** 2)


def _forward(params, X):
    return np.tanh(X @ params["W"] + params["b"])


def params_through_a_helper(params, X):
    h = _forward(params, X)
    return np.sum(h ** 2) + 0.1 * np.sum(params["W"] ** 2)


def squared_by_comprehension(params):
    squares = {k: v ** 2 for k, v in params.items()}
    return np.sum(squares["w"]) + np.sum(np.sin(squares["u"]))


def scaled_by_a_loop(params, scale):
    scaled = {}
    for k in params:
        scaled[k] = params[k] * scale
    return np.sum(scaled["w"] ** 2) + np.sum(np.exp(scaled["u"]))


def dict_built_and_read(x, w):
    parts = {"lin": x * w, "exp": np.exp(0.5 * x)}
    return np.sum(parts["lin"] * parts["exp"]) + np.sum(parts["exp"])


def penalties_of_values(params):
    return sum(np.sum(v ** 2) for v in params.values()) + np.sum(params["w"] * params["u"])


def mlp_with_decay_by_key(params, X, y):
    h = np.tanh(X @ params["W1"] + params["b1"])
    loss = np.mean((h @ params["W2"] + params["b2"] - y) ** 2)
    for k in params:  # unlike arrays: each entry read by its own key
        loss = loss + 1e-2 * np.sum(params[k] ** 2)
    return loss


def entries_of_held_arrays(params, xs):
    head = params["w"][0] * np.sum(params["u"][1:] ** 2)
    return head + np.sum(np.sin(xs[1][:, 0])) + xs[0][-1] * params["w"][-1]


# --- lists of layer matrices -----------------------------------------------------------

def layers_by_zip(Ws, bs, x):
    h = x
    for W, b in zip(Ws, bs):
        h = np.tanh(W @ h + b)
    return np.sum(h ** 2)


def square_layers_enumerated(Ws, x):
    h = x
    total = 0.0
    for i, W in enumerate(Ws):
        h = np.tanh(W @ h)
        total = total + (i + 1.0) * np.sum(h)
    return total


def pairs_of_a_list(layers, X):
    h = X
    for W, b in layers:
        h = np.sin(h @ W + b)
    return np.sum(h)


def layers_by_index(Ws, x):
    return np.sum(np.tanh(Ws[1] @ np.tanh(Ws[0] @ x)))


def flat_list_unpacked(params, X):
    W1, b1, W2, b2 = params
    h = np.tanh(X @ W1 + b1)
    return np.mean((h @ W2 + b2) ** 2)


def unlike_layers_by_index(Ws, x):
    return np.sum(np.tanh(np.tanh(x @ Ws[0]) @ Ws[-1])) + len(Ws) * np.sum(Ws[1] ** 2)


def comprehension_of_arrays(xs):
    ys = [np.tanh(x) * x for x in xs]
    return sum(np.sum(y) for y in ys)


# --- lists a loop appends to, joined ---------------------------------------------------

def stacked_states(x, a):
    states = []
    h = x
    for t in range(3):
        h = np.tanh(a * h + 0.1 * t)
        states.append(h)
    S = np.stack(states)
    return np.sum(S ** 2) + np.sum(S[0] * S[-1])


def steps_as_an_array(x):
    hs = []
    for k in range(3):
        hs.append(np.sin(x * (k + 1.0)))
    H = np.array(hs)
    return np.sum(H[1:] * H[:-1])


def rnn_over_a_list(W, U, xs, h0):
    h = h0
    outputs = []
    for x in xs:
        h = np.tanh(W @ h + U @ x)
        outputs.append(h)
    H = np.stack(outputs, axis=1)
    return np.sum(H * np.arange(H.shape[1]))


def stacked_along_the_last_axis(xs):
    S = np.stack(xs, axis=-1)
    return np.sum(np.sin(S[..., 0]) * S[..., -1]) + np.sum(S ** 2)


def concatenated_windows(x):
    parts = [x[1:] * 2.0]
    for k in range(3):
        parts.append(np.sin(x * (k + 1.0)))
    joined = np.concatenate(parts)
    return np.sum(joined ** 2 * np.arange(joined.shape[0]))


def concatenated_columns(blocks):
    C = np.concatenate(blocks, axis=1)
    return np.sum(C ** 3 * np.arange(C.shape[1]))


def rows_stacked_vertically(W, X):
    rows = []
    for i in range(X.shape[0]):
        rows.append(np.tanh(X[i] @ W))
    H = np.vstack(rows)
    return np.sum(H ** 2 * np.arange(H.shape[1]))


def blocks_side_by_side(A, B):
    parts = [A, 2.0 * B, A * B]
    M = np.hstack(parts)
    return np.sum(M @ M.T)


def columns_of_a_loop(x):
    cols = []
    for k in range(3):
        cols.append(x ** (k + 1))
    V = np.column_stack(cols)
    return np.sum(np.sin(V) * np.arange(V.shape[1]))


def stacked_tuple_and_unlike_blocks(pair, blocks):
    S = np.stack(pair, axis=-1)
    C = np.concatenate(blocks, axis=1)
    return np.sum(S[..., 0] * S[..., 1]) + np.sum(np.tanh(C) * np.arange(C.shape[1]))


def states_by_a_comprehension(W, x):
    states = [np.tanh(W @ x * (t + 1.0)) for t in range(3)]
    S = np.stack(states, axis=1)
    return np.sum(S ** 2 * np.arange(1.0, 4.0)) + np.sum(S[:, 0] * S[:, -1])


def unlike_parts_by_position(x, w):
    parts = [np.sin(x * w), np.outer(x, w)]
    parts[1] = parts[1] * np.sum(parts[0])
    return np.sum(parts[0] ** 2) + np.sum(np.tanh(parts[1]))


def summed_list(x, y):
    parts = [x, 2.0 * y, x * y]
    return np.sum(sum(parts) ** 2)


def summed_pair(x, y):
    pair = [x, y]
    return np.sum(np.sin(sum(pair)))


def read_back_by_position(x):
    hs = []
    for t in range(3):
        hs.append(np.sin(x * (t + 1.0)))
    return np.sum(hs[0] * hs[2]) + np.sum(hs[1])


# --- tuples of arrays ------------------------------------------------------------------

def _polar(x):
    return np.sin(x), np.cos(x)


def tuple_from_a_helper(x, w):
    s, c = _polar(x * w)
    return np.sum(s * c + s ** 2)


def _layer(W, b):
    return W, b


def tuple_of_arrays_as_params(params, X):
    W, b = _layer(*params)
    return np.sum(np.tanh(X @ W + b) ** 2)


def _dict_params(seed, d, h, dtype=np.float64):
    return {"W1": normal(f"{seed}W1", d, h, dtype=dtype), "b1": normal(f"{seed}b1", h, dtype=dtype),
            "W2": normal(f"{seed}W2", h, 2, dtype=dtype), "b2": normal(f"{seed}b2", 2, dtype=dtype)}


def _alike(seed, count, *shape, dtype=np.float64):
    return [normal(f"{seed}{k}", *shape, dtype=dtype) for k in range(count)]


CASES = [
    at(mlp_of_params, *batches(lambda n: (_dict_params("mop", 3, 4), normal(f"mopX{n}", n, 3),
                                          normal(f"mopy{n}", n, 2))),
       (_dict_params("mop", 3, 4, F32), normal("mopX", 3, 3, dtype=F32),
        normal("mopy", 3, 2, dtype=F32)), wrt="params"),
    at(params_through_a_helper,
       ({"W": normal("pth", 3, 2), "b": normal("pthb", 2)}, normal("pthX", 4, 3)),
       ({"W": normal("pth", 2, 3), "b": normal("pthb", 3)}, normal("pthX", 1, 2)), wrt="params"),
    at(squared_by_comprehension, ({"w": normal("sbc", 3), "u": normal("sbcu", 2)},),
       ({"w": normal("sbc", 2, 2), "u": normal("sbcu", 3, 2)},)),
    at(scaled_by_a_loop, ({"w": normal("sbl", 3), "u": normal("sblu", 2)}, 0.7),
       ({"w": normal("sbl", 2, 3), "u": normal("sblu", 3, 2)}, -0.4)),
    at(dict_built_and_read, (normal("dbr", 3), normal("dbrw", 3)),
       (normal("dbr", 2, 2), normal("dbrw", 2, 2))),
    at(penalties_of_values, ({"w": normal("pov", 3), "u": normal("povu", 3)},),
       ({"w": normal("pov", 2, 3, dtype=F32), "u": normal("povu", 2, 3, dtype=F32)},)),
    at(mlp_with_decay_by_key, *batches(lambda n: (_dict_params("mwd", 3, 4),
                                                  normal(f"mwdX{n}", n, 3),
                                                  normal(f"mwdy{n}", n, 2))),
       (_dict_params("mwd", 2, 3, F32), normal("mwdX", 2, 2, dtype=F32),
        normal("mwdy", 2, 2, dtype=F32)), wrt="params"),
    at(entries_of_held_arrays, ({"w": normal("eha", 3), "u": normal("ehau", 4)},
                                [normal("ehx", 2), normal("ehx2", 3, 2)]),
       ({"w": normal("eha", 2), "u": normal("ehau", 2)}, [normal("ehx", 4), normal("ehx2", 2, 3)])),
    at(layers_by_zip, (_alike("lbz", 2, 3, 3), _alike("lbzb", 2, 3), normal("lbzx", 3)),
       (_alike("lbz", 3, 2, 2), _alike("lbzb", 3, 2), normal("lbzx", 2)), wrt=("Ws", "bs")),
    at(square_layers_enumerated, (_alike("sle", 2, 3, 3), normal("slex", 3)),
       (_alike("sle", 3, 2, 2), normal("slex", 2))),
    at(pairs_of_a_list,
       ([(normal("pal", 3, 3), normal("palb", 3)), (normal("pal2", 3, 3), normal("palb2", 3))],
        normal("palX", 4, 3)),
       ([(normal("pal", 2, 2), normal("palb", 2))], normal("palX", 1, 2))),
    at(layers_by_index, (_alike("lbi", 2, 3, 3), normal("lbix", 3)),
       (_alike("lbi", 2, 2, 2), normal("lbix", 2))),
    at(flat_list_unpacked, ([normal("flu", 3, 4), normal("flub", 4), normal("flu2", 4, 1),
                             normal("flub2", 1)], normal("fluX", 5, 3)),
       ([normal("flu", 2, 3), normal("flub", 3), normal("flu2", 3, 2), normal("flub2", 2)],
        normal("fluX", 1, 2)), wrt="params"),
    at(unlike_layers_by_index, ([normal("ulb", 3, 4), normal("ulb2", 4, 1)], normal("ulbx", 2, 3)),
       ([normal("ulb", 2, 2), normal("ulb2", 2, 3, dtype=F32)], normal("ulbx", 1, 2))),
    at(comprehension_of_arrays, (_alike("coa", 3, 2),), (_alike("coa", 2, 2, 3),)),
    at(stacked_states, (normal("sst", 3), 0.7), (normal("sst", 2, 2), -0.3)),
    at(steps_as_an_array, (normal("saa", 4),), (normal("saa", 2, 3, dtype=F32),)),
    at(rnn_over_a_list, (normal("rol", 3, 3, scale=0.5), normal("rolU", 3, 2),
                         _alike("rolx", 3, 2), normal("rolh", 3)),
       (normal("rol", 2, 2, scale=0.5), normal("rolU", 2, 1), _alike("rolx", 2, 1),
        normal("rolh", 2)), wrt=("W", "U", "h0")),
    at(stacked_along_the_last_axis, (_alike("sla", 2, 3, 2),), (_alike("sla", 3, 2, 3),)),
    at(concatenated_windows, (normal("cw", 4),), (normal("cw", 3, dtype=F32),)),
    at(concatenated_columns, (_alike("cc", 2, 3, 2),), (_alike("cc", 3, 2, 3),)),
    at(rows_stacked_vertically, *batches(lambda n: (normal("rsv", 3, 2), normal(f"rsvX{n}", n, 3))),
       wrt="W"),
    at(blocks_side_by_side, (normal("bsbs", 2, 3), normal("bsbsB", 2, 3)),
       (normal("bsbs", 4), normal("bsbsB", 4))),
    at(columns_of_a_loop, (normal("cal", 4),), (normal("cal", 2, 3),), (normal("cal", 3, dtype=F32),)),
    at(stacked_tuple_and_unlike_blocks,
       ((normal("stu", 3), normal("stu2", 3)), [normal("stub", 3, 1), normal("stub2", 3, 2)]),
       ((normal("stu", 2, 2), normal("stu2", 2, 2)), [normal("stub", 2, 2), normal("stub2", 2, 1),
                                                      normal("stub3", 2, 3)])),
    at(states_by_a_comprehension, (normal("sbc2", 3, 3, scale=0.5), normal("sbcx", 3)),
       (normal("sbc2", 2, 2, scale=0.5), normal("sbcx", 2))),
    at(unlike_parts_by_position, (normal("upp", 3), normal("uppw", 3)),
       (normal("upp", 2), normal("uppw", 2))),
    at(summed_list, (normal("sl", 3), normal("sly", 3)), (normal("sl", 2, 2), normal("sly", 2, 2))),
    at(summed_pair, (normal("sp", 3), normal("spy", 3)), (normal("sp", 2, 2), normal("spy", 2, 2))),
    at(read_back_by_position, (normal("rbp", 3),), (normal("rbp", 2, 2),)),
    at(tuple_from_a_helper, (normal("tfh", 3), normal("tfhw", 3)), (normal("tfh", 2), 0.5)),
    at(tuple_of_arrays_as_params, ((normal("toap", 3, 2), normal("toapb", 2)), normal("toapX", 4, 3)),
       ((normal("toap", 2, 2), normal("toapb", 2)), normal("toapX", 1, 2)), wrt="params"),
]
