"""``desugar`` of the container syntax: comprehensions as lists filled in loops, loops
over containers as index loops, unpacking as indexed reads.

What each rewrite writes (as text), where its statements say they come from, what it
refuses (class and place), that its fresh names never collide with the user's, and that
the desugared function computes what the user's does (Python runs both, on many
inputs: the witness knows nothing of symdiff).  Functions whose values are all numbers
(loops over module-level tables) are differentiated end to end, against the tape and
finite differences.
"""

import ast
import doctest
import math
import random
import textwrap

import numpy as np
import pytest

import symdiff
import symdiff.lower.comprehension_names
import symdiff.lower.comprehensions
import symdiff.lower.hygiene
import symdiff.lower.iteration
import symdiff.tape
from symdiff.errors import SymdiffError, UnsupportedSyntaxError
from symdiff.frontend.parse import parse_function
from symdiff.lower.desugar import desugar, desugar_function
import array_oracles
from oracles import finite_difference, marked_place, mismatches


def _desugared(source, globals_=None):
    tree = ast.parse(textwrap.dedent(source)).body[0]
    return ast.unparse(desugar_function(tree, {"math": math} if globals_ is None else globals_))


def _same(source, expected, globals_=None):
    assert _desugared(source, globals_) == ast.unparse(ast.parse(textwrap.dedent(expected)))


@pytest.mark.parametrize("module", [symdiff.lower.comprehensions, symdiff.lower.hygiene,
                                    symdiff.lower.iteration,
                                    symdiff.lower.comprehension_names])
def test_the_doctests_run(module):
    failures, tried = doctest.testmod(module)
    assert tried and not failures


# --- comprehensions -----------------------------------------------------------------------

def test_a_generator_in_a_sum_is_a_list_of_terms():
    _same("""
        def f(x, coeffs):
            total = sum(c * x ** i for i, c in enumerate(coeffs))
            return total
    """, """
        def f(x, coeffs):
            terms = []
            for i in range(len(coeffs)):
                c = coeffs[i]
                terms.append(c * x ** i)
            total = sum(terms)
            return total
    """)


def test_several_fors_and_ifs_nest_in_their_order_and_a_list_fills_its_target():
    _same("""
        def f(m, v):
            products = [a * b for row in m if len(row) > 1 for a, b in zip(row, v) if a > 0 if b]
            return products
    """, """
        def f(m, v):
            products = []
            for row_index in range(len(m)):
                row = m[row_index]
                if len(row) > 1:
                    length = min(len(row), len(v))
                    for a_index in range(length):
                        a = row[a_index]
                        b = v[a_index]
                        if a > 0:
                            if b:
                                products.append(a * b)
            return products
    """)


def test_a_comprehension_inside_an_element_is_built_inside_the_loop():
    _same("""
        def f(m, v):
            return max(sum(w * x for w, x in zip(row, v)) for row in m)
    """, """
        def f(m, v):
            sum_values = []
            for row_index in range(len(m)):
                row = m[row_index]
                terms = []
                length = min(len(row), len(v))
                for w_index in range(length):
                    w = row[w_index]
                    x = v[w_index]
                    terms.append(w * x)
                sum_values.append(sum(terms))
            return max(sum_values)
    """)


def test_a_list_that_reads_its_own_target_gets_a_fresh_name():
    _same("""
        def f(xs):
            xs = [x * x for x in xs]
            return xs
    """, """
        def f(xs):
            squares = []
            for x_index in range(len(xs)):
                x = xs[x_index]
                squares.append(x * x)
            xs = squares
            return xs
    """)


def test_every_spelling_of_a_reduction():
    _same("""
        def f(xs, y):
            from math import fsum
            a = fsum(x for x in xs)
            b = m.prod(x + 1.0 for x in xs) + sum((x for x in xs), y) + sum((x for x in xs), start=y)
            c = min(x - y for x in xs) * max(abs(x) for x in xs)
            return tuple(x for x in xs), list(x * y for x in xs)
    """, """
        def f(xs, y):
            from math import fsum
            terms = []
            for x_index in range(len(xs)):
                x = xs[x_index]
                terms.append(x)
            a = fsum(terms)
            factors = []
            for x_index_1 in range(len(xs)):
                x = xs[x_index_1]
                factors.append(x + 1.0)
            terms_1 = []
            for x_index_2 in range(len(xs)):
                x = xs[x_index_2]
                terms_1.append(x)
            terms_2 = []
            for x_index_3 in range(len(xs)):
                x = xs[x_index_3]
                terms_2.append(x)
            b = m.prod(factors) + sum(terms_1, y) + sum(terms_2, start=y)
            differences = []
            for x_index_4 in range(len(xs)):
                x = xs[x_index_4]
                differences.append(x - y)
            abs_values = []
            for x_index_5 in range(len(xs)):
                x = xs[x_index_5]
                abs_values.append(abs(x))
            c = min(differences) * max(abs_values)
            xs_1 = []
            for x_index_6 in range(len(xs)):
                x = xs[x_index_6]
                xs_1.append(x)
            products = []
            for x_index_7 in range(len(xs)):
                x = xs[x_index_7]
                products.append(x * y)
            return (tuple(xs_1), list(products))
    """, {"m": math})


def test_a_comprehension_in_a_branch_test_or_a_loop_over_it_comes_just_before():
    _same("""
        def f(xs, y):
            if y > 0:
                y = 1.0
            elif sum([x for x in xs]) > y:
                return y
            for t in [x + y for x in xs]:
                y = y * t
            return y
    """, """
        def f(xs, y):
            if y > 0:
                y = 1.0
            else:
                xs_1 = []
                for x_index in range(len(xs)):
                    x = xs[x_index]
                    xs_1.append(x)
                if sum(xs_1) > y:
                    return y
            sums = []
            for x_index_1 in range(len(xs)):
                x = xs[x_index_1]
                sums.append(x + y)
            for t_index in range(len(sums)):
                t = sums[t_index]
                y = y * t
            return y
    """)


def test_a_comprehension_in_a_lambda_is_built_in_its_def():
    _same("""
        def f(xs, y):
            total = lambda t: sum(x * t for x in xs)
            return total(y)
    """, """
        def f(xs, y):
            def total(t):
                terms = []
                for x_index in range(len(xs)):
                    x = xs[x_index]
                    terms.append(x * t)
                return sum(terms)
            return total(y)
    """)


# --- iteration ----------------------------------------------------------------------------

def test_loops_over_containers_are_index_loops():
    _same("""
        def f(xs, ys, zs, layers, pairs, p, x):
            for c in reversed(xs):
                x = x * c
            for i, c in enumerate(xs, 1):
                x = x + c * i
            for a, b, c in zip(xs, ys, zs):
                x = x + a * b * c
            for w, b in layers:
                x = w * x + b
            for j, ((a, b), c) in enumerate(zip(pairs, (1.0, 2.0))):
                x = x + a * b * c * j
            for w in p["w"]:
                x = x * w
            for k in (0.5, 1.5):
                x = x * k
            for k in range(3):
                x = x + k
            return x
    """, """
        def f(xs, ys, zs, layers, pairs, p, x):
            for c_index in reversed(range(len(xs))):
                c = xs[c_index]
                x = x * c
            for c_index_1 in range(len(xs)):
                i = c_index_1 + 1
                c = xs[c_index_1]
                x = x + c * i
            length = min(len(xs), len(ys), len(zs))
            for a_index in range(length):
                a = xs[a_index]
                b = ys[a_index]
                c = zs[a_index]
                x = x + a * b * c
            for index in range(len(layers)):
                if len(layers[index]) != 2:
                    raise ValueError('wrong number of values to unpack (expected 2)')
                w = layers[index][0]
                b = layers[index][1]
                x = w * x + b
            length_1 = min(len(pairs), 2)
            for j in range(length_1):
                if len(pairs[j]) != 2:
                    raise ValueError('wrong number of values to unpack (expected 2)')
                a = pairs[j][0]
                b = pairs[j][1]
                c = (1.0, 2.0)[j]
                x = x + a * b * c * j
            ws = p['w']
            for w_index in range(len(ws)):
                w = ws[w_index]
                x = x * w
            for k_index in range(2):
                k = (0.5, 1.5)[k_index]
                x = x * k
            for k in range(3):
                x = x + k
            return x
    """)


TABLE = (0.5, -1.0, 2.0)
OTHER = [1.0, 2.0]


def test_a_module_table_s_length_is_known_where_zip_needs_the_shortest():
    _same("""
        def f(x, extra):
            for a, b in zip(TABLE, OTHER):
                x = x * a + b
            for a, b in zip(TABLE, extra):
                x = x * a + b
            return x
    """, """
        def f(x, extra):
            for a_index in range(2):
                a = TABLE[a_index]
                b = OTHER[a_index]
                x = x * a + b
            length = min(3, len(extra))
            for a_index_1 in range(length):
                a = TABLE[a_index_1]
                b = extra[a_index_1]
                x = x * a + b
            return x
    """, {"TABLE": TABLE, "OTHER": OTHER})


def test_a_loop_that_assigns_what_it_runs_over_reads_it_once_before():
    _same("""
        def f(xs, x):
            for x in xs:
                xs = x
            for xs in xs:
                x = x + xs
            for v in helper(x):
                x = x * v
            return x
    """, """
        def f(xs, x):
            xs_1 = xs
            for x_index in range(len(xs_1)):
                x = xs_1[x_index]
                xs = x
            values = xs
            for xs_index in range(len(values)):
                xs = values[xs_index]
                x = x + xs
            vs = helper(x)
            for v_index in range(len(vs)):
                v = vs[v_index]
                x = x * v
            return x
    """)


# --- unpacking ----------------------------------------------------------------------------

def test_unpacking_a_container_reads_it_by_position():
    _same("""
        def f(params, p, x, c):
            w, b = params
            (u, v), t = p["layer"]
            a, params = params
            s, q = x if c else params
            r, z = helper(x)
            return w
    """, """
        def f(params, p, x, c):
            if len(params) != 2:
                raise ValueError('wrong number of values to unpack (expected 2)')
            w = params[0]
            b = params[1]
            if len(p['layer']) != 2:
                raise ValueError('wrong number of values to unpack (expected 2)')
            if len(p['layer'][0]) != 2:
                raise ValueError('wrong number of values to unpack (expected 2)')
            u = p['layer'][0][0]
            v = p['layer'][0][1]
            t = p['layer'][1]
            pair = params
            if len(pair) != 2:
                raise ValueError('wrong number of values to unpack (expected 2)')
            a = pair[0]
            params = pair[1]
            pair_1 = x if c else params
            if len(pair_1) != 2:
                raise ValueError('wrong number of values to unpack (expected 2)')
            s = pair_1[0]
            q = pair_1[1]
            r, z = helper(x)
            return w
    """)


# --- hygiene ------------------------------------------------------------------------------

def test_fresh_names_never_take_a_user_s_name():
    _same("""
        def f(x, terms, i, c_index, length):
            total = sum(c * x ** i for i, c in enumerate(terms))
            for a, c in zip(terms, terms):
                i = i + a * c + c_index + length
            return total + i
    """, """
        def f(x, terms, i, c_index, length):
            terms_1 = []
            for j in range(len(terms)):
                c_1 = terms[j]
                terms_1.append(c_1 * x ** j)
            total = sum(terms_1)
            length_1 = min(len(terms), len(terms))
            for a_index in range(length_1):
                a = terms[a_index]
                c = terms[a_index]
                i = i + a * c + c_index + length
            return total + i
    """)


def test_a_comprehension_s_names_are_its_own():
    _same("""
        def f(x, xs):
            a = sum(x * x for x in xs)
            b = sum(t for t in xs) + sum(t * t for t in xs)
            c = [[t * u for t in row] for t in xs for row in t]
            return [x for x in x]
    """, """
        def f(x, xs):
            terms = []
            for x_1_index in range(len(xs)):
                x_1 = xs[x_1_index]
                terms.append(x_1 * x_1)
            a = sum(terms)
            terms_1 = []
            for t_index in range(len(xs)):
                t = xs[t_index]
                terms_1.append(t)
            terms_2 = []
            for t_index_1 in range(len(xs)):
                t = xs[t_index_1]
                terms_2.append(t * t)
            b = sum(terms_1) + sum(terms_2)
            c = []
            for t_index_2 in range(len(xs)):
                t = xs[t_index_2]
                for row_index in range(len(t)):
                    row = t[row_index]
                    products = []
                    for t_1_index in range(len(row)):
                        t_1 = row[t_1_index]
                        products.append(t_1 * u)
                    c.append(products)
            xs_1 = []
            for x_2_index in range(len(x)):
                x_2 = x[x_2_index]
                xs_1.append(x_2)
            return xs_1
    """)


def test_comprehensions_over_unlike_values_have_names_of_their_own():
    """Two comprehensions binding one name share it only where they loop over one value
    the function never assigns: desugared, their loops would give one name the elements
    of both (a matrix and a vector, say)."""
    _same("""
        def f(Ws, bs, xs):
            a = [w * 2.0 for w in Ws]
            b = [w + 1.0 for w in bs]
            xs = [x for x in xs]
            return a, b, [x for x in xs]
    """, """
        def f(Ws, bs, xs):
            a = []
            for w_index in range(len(Ws)):
                w = Ws[w_index]
                a.append(w * 2.0)
            b = []
            for w_1_index in range(len(bs)):
                w_1 = bs[w_1_index]
                b.append(w_1 + 1.0)
            xs_1 = []
            for x_index in range(len(xs)):
                x = xs[x_index]
                xs_1.append(x)
            xs = xs_1
            xs_2 = []
            for x_1_index in range(len(xs)):
                x_1 = xs[x_1_index]
                xs_2.append(x_1)
            return (a, b, xs_2)
    """)


def matrices_and_vectors_by_one_name(Ws, bs):
    a = [np.sin(w) for w in Ws]
    c = [np.cos(w) * w for w in bs]
    return np.sum(a[0] * a[-1]) + np.sum(c[0]) * np.sum(c[-1] ** 2)


def test_one_name_of_two_comprehensions_over_unlike_arrays_is_differentiated():
    rng = np.random.default_rng(0)
    Ws = [rng.standard_normal((2, 3)) for _ in range(2)]
    bs = [rng.standard_normal(3) for _ in range(3)]
    gradient = symdiff.grad(matrices_and_vectors_by_one_name)(Ws, bs)
    assert array_oracles.gradient_failures(matrices_and_vectors_by_one_name, (Ws, bs),
                                           gradient) == []


def test_a_builtin_the_function_binds_is_not_the_builtin():
    source = """
        def f(xs):
            sum = 1.0
            return sum(x for x in xs)
    """
    with pytest.raises(UnsupportedSyntaxError) as raised:
        _desugared(source)
    assert (raised.value.lineno, raised.value.col_offset) == (4, 14)


def test_the_input_is_untouched():
    tree = ast.parse(textwrap.dedent("""
        def f(xs, layers):
            s = sum(x * x for x in xs if x > 0)
            for i, (w, b) in enumerate(layers):
                s = s * w + b
            a, b = layers
            return s
    """)).body[0]
    before = ast.dump(tree, include_attributes=True)
    desugar_function(tree)
    assert ast.dump(tree, include_attributes=True) == before


# --- refusals: class and place ------------------------------------------------------------



def comprehension_in_a_while_test(xs):
    s = 1.0
    while sum([x * s for x in xs]) < 4.0:  # REFUSED at [x * s
        s = s * 2.0
    return s


def comprehension_in_an_arm(xs, y):
    return y if y > 0 else sum(x for x in xs)  # REFUSED at (x for x


def comprehension_after_or(xs, y):
    return y or sum(x for x in xs)  # REFUSED at (x for x


def comprehension_later_in_a_chain(xs, y):
    return 0.0 < y < max([x for x in xs])  # REFUSED at [x for


def generator_given_to_a_helper(xs):
    return helper(x for x in xs)  # REFUSED at (x for x


def generator_assigned(xs):
    g = (x for x in xs)  # REFUSED at (x for
    return sum(g)


def min_with_a_key(xs):
    return min((x for x in xs), key=abs)  # REFUSED at (x for x


def set_comprehension(xs):
    return len({x for x in xs})  # REFUSED at {x


def dict_comprehension(xs):
    return len({x: x for x in xs})  # REFUSED at {x


def enumerate_of_reversed(x, xs):
    for i, c in enumerate(reversed(xs)):  # REFUSED at enumerate(
        x = x * c + i
    return x


def zip_of_reversed(x, xs):
    for a, b in zip(xs, reversed(xs)):  # REFUSED at zip(
        x = x * a + b
    return x


def reversed_call(x, xs):
    for c in reversed(helper(xs)):  # REFUSED at reversed(
        x = x * c
    return x


def loop_that_grows_its_list(x, xs):
    for c in xs:
        xs.append(c * x)  # REFUSED at xs.append
    return x


def comprehension_beside_a_pop(x):
    s = []
    s.append(x)
    return s.pop() + sum(t for t in range(3))  # REFUSED at (t for t


def pairs_from_a_range(x):
    for i, j in range(3):  # REFUSED at i, j
        x = x * i
    return x


def zip_into_too_many_names(x):
    for a, b, c in zip(TABLE, OTHER):  # REFUSED at a, b, c
        x = x * a + b * c
    return x


def a_comprehension_of_a_shadowed_len(x, xs):
    len = 3
    return x * len + sum(c for c in xs)  # REFUSED at xs)


def starred_loop_target(x, xs):
    for a, *rest in xs:  # REFUSED at a, *rest
        x = x * a
    return x


SETTINGS = {"w": 0.5, "b": 1.5}


def loop_over_items(x, p):
    for k, v in p.items():  # REFUSED at p.items()
        x = x * v
    return x


def loop_over_a_module_dict(x):
    for k in SETTINGS:  # REFUSED at SETTINGS
        x = x * SETTINGS[k]
    return x


def helper(xs):
    return xs


REFUSED = [comprehension_in_a_while_test, comprehension_in_an_arm, comprehension_after_or,
           comprehension_later_in_a_chain, generator_given_to_a_helper, generator_assigned,
           min_with_a_key, set_comprehension, dict_comprehension, enumerate_of_reversed,
           zip_of_reversed, reversed_call, loop_that_grows_its_list,
           comprehension_beside_a_pop, pairs_from_a_range, zip_into_too_many_names,
           a_comprehension_of_a_shadowed_len, starred_loop_target, loop_over_items,
           loop_over_a_module_dict]


@pytest.mark.parametrize("fn", REFUSED, ids=lambda fn: fn.__name__)
def test_refused_with_its_class_at_its_place(fn):
    with pytest.raises(SymdiffError) as raised:
        symdiff.grad(fn)(1.0, [1.0, 2.0]) if fn.__code__.co_argcount == 2 else symdiff.grad(
            fn)(1.0)
    assert type(raised.value) is UnsupportedSyntaxError, raised.value
    assert (raised.value.lineno, raised.value.col_offset) == marked_place(fn), raised.value
    assert raised.value.hint


# --- locations ----------------------------------------------------------------------------

def spread_over_lines(x, coeffs, layers):
    total = sum(
        c * x ** i
        for i, c in enumerate(coeffs)
        if c > 0.0
    )
    for w, b in layers:
        total = w * total + b
    w, b = layers
    return total


def _where(node):
    return (node.lineno, node.col_offset, node.end_lineno, node.end_col_offset)


def test_every_statement_written_says_which_user_code_it_stands_for():
    parsed = parse_function(spread_over_lines)
    user = parsed.tree
    body = desugar(parsed).tree.body
    generator = user.body[0].value.args[0]
    built, loop, total, layers_loop, check, w_read, b_read = body[:7]
    assert _where(built) == _where(generator)  # terms = []
    assert _where(loop) == _where(generator.generators[0].target)
    branch = loop.body[1]  # after the read of c
    assert _where(loop.body[0]) == _where(generator.generators[0].target.elts[1])
    assert _where(branch) == _where(generator.generators[0].ifs[0])
    assert _where(branch.body[0]) == _where(generator.elt)  # terms.append(...)
    assert _where(total) == _where(user.body[0])
    assert _where(layers_loop) == _where(user.body[1])
    w_target, b_target = user.body[1].target.elts
    assert _where(layers_loop.body[0]) == _where(user.body[1].target)  # its length checked
    assert [_where(s) for s in layers_loop.body[1:3]] == [_where(w_target), _where(b_target)]
    assert _where(check) == _where(user.body[2].targets[0])
    assert [_where(w_read), _where(b_read)] == [_where(t) for t in user.body[2].targets[0].elts]
    for node in ast.walk(ast.Module(body, [])):
        if isinstance(node, (ast.stmt, ast.expr)):
            assert node.lineno is not None and node.col_offset is not None, ast.dump(node)


def pair_inside_a_comprehension(x):
    return sum(
        math.gamma(x) * k
        + math.frexp(x * k)
        for k in range(3)
    )


def test_an_error_in_an_element_names_the_element_s_line():
    with pytest.raises(UnsupportedSyntaxError) as raised:
        symdiff.grad(pair_inside_a_comprehension)
    first = pair_inside_a_comprehension.__code__.co_firstlineno
    assert raised.value.lineno == first + 3


# --- the desugared function computes what the user's does ---------------------------------

def polynomial(x, coeffs):
    return sum(c * x ** i for i, c in enumerate(coeffs))


def dense_layers(layers, x):
    for w, b in layers:
        x = math.tanh(w * x + b)
    return x


def every_other_product(xs, ys):
    return math.fsum(a * b for i, (a, b) in enumerate(zip(xs, ys), 2) if i % 2 == 0)


def best_row(m, v):
    return max(sum(w * x for w, x in zip(row, v)) for row in m)


def unpacked_params(params, x):
    w, (b, c) = params
    return w * x + b * c


def filtered_pairs(xs):
    products = [x * y for x in xs if x > 0 for y in reversed(xs) if y < x]
    return sum(products, 0.5)


def forwards_and_backwards(xs, x):
    for i, c in enumerate(xs):
        x = x * c - i
    for c in reversed(xs):
        x = x + c
    return x


def smallest_and_product(xs):
    return min(x * x for x in xs) + math.prod(1 + x for x in xs)


def built_containers(xs):
    t = tuple(x * 2 for x in xs)
    s = list(x + 1 for x in xs)
    return sum(t) + sum(s) + len(t)


def dict_of_lists(p, x):
    for w in p["w"]:
        x = x * w + p["b"]
    return x


def clashing_names(terms, i):
    total = sum(terms[k] * k for k in range(len(terms)))
    for k, t in enumerate(terms):
        i = i + k * t
    return total + i + sum(i * t for t in terms)


def break_and_else(xs, x):
    for c in xs:
        if c > x:
            break
        x += c
    else:
        x = -x
    return x


def in_a_branch_test(xs, y):
    if sum([x for x in xs]) > y:
        return y
    elif max(x for x in xs) < y * 0.5:
        y = y * 2.0
    return -y


def rebinds_what_it_loops_over(xs, x):
    for c in xs:
        xs = [c, c * 2.0]
        x = x + c
    return x + sum(xs)


def _numbers(rng, least=0):
    return [round(rng.uniform(-2.0, 2.0), 3) for _ in range(rng.randint(least, 5))]


def _arguments(fn, rng):
    kinds = {"x": lambda: rng.uniform(-1.5, 1.5), "y": lambda: rng.uniform(-3.0, 3.0),
             "i": lambda: rng.randint(-3, 3),
             "layers": lambda: [(rng.uniform(-1, 1), rng.uniform(-1, 1))
                                for _ in range(rng.randint(0, 4))],
             "m": lambda: [_numbers(rng) for _ in range(rng.randint(0, 4))],
             "params": lambda: (rng.uniform(-1, 1), (rng.uniform(-1, 1), rng.uniform(-1, 1))),
             "p": lambda: {"w": _numbers(rng), "b": rng.uniform(-1, 1)}}
    names = fn.__code__.co_varnames[:fn.__code__.co_argcount]
    return tuple(kinds.get(name, lambda: _numbers(rng))() for name in names)


SAME = [polynomial, dense_layers, every_other_product, best_row, unpacked_params,
        filtered_pairs, forwards_and_backwards, smallest_and_product, built_containers,
        dict_of_lists, clashing_names, break_and_else, in_a_branch_test,
        rebinds_what_it_loops_over]


@pytest.mark.parametrize("fn", SAME, ids=lambda fn: fn.__name__)
def test_the_desugared_function_computes_the_same(fn):
    parsed = parse_function(fn)
    tree = desugar(parsed).tree
    for node in ast.walk(tree):
        assert not isinstance(node, (ast.ListComp, ast.GeneratorExp)), ast.unparse(node)
        if isinstance(node, ast.For):
            assert _is_range_loop(node.iter), ast.unparse(node.iter)
    namespace = dict(fn.__globals__)
    exec(compile(ast.Module([tree], type_ignores=[]), "<desugared>", "exec"), namespace)
    rng = random.Random(fn.__name__)
    points = [_arguments(fn, rng) for _ in range(300)]
    assert not mismatches(fn, namespace[fn.__name__], points)


def _is_range_loop(node):
    if isinstance(node.func, ast.Name) and node.func.id == "reversed":
        node = node.args[0]
    return isinstance(node.func, ast.Name) and node.func.id == "range"


# --- gradients end to end, where every value is a number ----------------------------------

SAMPLES = (0.5, 1.5, -0.3, 2.0, 0.9)
LABELS = [1.0, 0.0, 1.0, 0.0]
PAIR = (0.25, -1.5)


def weighted_logistic_loss(w, b):
    total = 0.0
    for i, (x, y) in enumerate(zip(SAMPLES, LABELS), 1):
        p = 1.0 / (1.0 + math.exp(-(w * x + b)))
        total -= i * (y * math.log(p) + (1 - y) * math.log(1 - p))
    return total


def unpacks_a_table(x):
    a, b = PAIR
    return a * x * x + b * math.sin(x)


def forwards_over_backwards(x, y):
    s = y
    for i, c in enumerate(SAMPLES):
        for d in reversed(LABELS):
            s = s * math.tanh(x * c) + d * i * y
    return s


def zipped_three_ways(x):
    s = 0.0
    for a, (b, c) in zip(SAMPLES, zip(LABELS, reversed(SAMPLES))):
        s = s + a * math.sin(b * x) + c * x
    return s


def polynomial_over_a_table(x):
    return sum(c * x ** i for i, c in enumerate(SAMPLES))


def _check_gradient(fn, points):
    gradient, tape = symdiff.grad(fn), symdiff.tape.grad(fn)
    for point in points:
        got, expected = gradient(*point), tape(*point)
        got = got if isinstance(got, tuple) else (got,)
        expected = expected if isinstance(expected, tuple) else (expected,)
        for i, (g, e) in enumerate(zip(got, expected)):
            assert g == pytest.approx(e, rel=1e-10, abs=1e-12), (point, i)
            estimate, _ = finite_difference(fn, point, i)
            assert g == pytest.approx(estimate, rel=1e-6, abs=1e-8), (point, i)


@pytest.mark.parametrize("fn", [weighted_logistic_loss, unpacks_a_table, forwards_over_backwards],
                         ids=lambda fn: fn.__name__)
def test_gradients_of_loops_over_tables_and_unpacked_tables(fn):
    rng = random.Random(fn.__name__)
    arity = fn.__code__.co_argcount
    _check_gradient(fn, [tuple(rng.uniform(-1.0, 1.0) for _ in range(arity))
                         for _ in range(6)])


def test_a_zip_of_a_reversed_table_is_refused_until_it_is_bound_to_a_name():
    with pytest.raises(UnsupportedSyntaxError):
        symdiff.grad(zipped_three_ways)


def test_a_generator_over_a_table_in_a_sum():
    _check_gradient(polynomial_over_a_table, [(0.3,), (-0.8,), (1.2,)])
