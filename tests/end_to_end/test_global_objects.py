"""Objects defined at module level (or in a closure) read as data
(``corpus/global_objects.py``): their fields, their methods, ``__call__``.

Every case, at each of its points, passes ``symdiff.check`` (the generated gradient
against the tape, sympy where it reads the function, and central finite differences) and
agrees with ``symdiff.tape.grad`` run on its own; a build is redone when a field it read
is assigned another value (a number, a flag, an array, a list changed in place), and a
module-level array changed in place is read as it is when the gradient runs; the
generated text of three cases is recorded in ``tests/golden/global_objects``
(``SYMDIFF_UPDATE_GOLDEN=1`` records it again); what is refused is refused located, with
a hint, and the way out the hint gives works.
"""

import pathlib

import numpy as np
import pytest

import symdiff
import symdiff.tape

try:
    import oracles
    from corpus import global_objects as corpus
    from golden_files import matches_golden
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import oracles
    from tests.corpus import global_objects as corpus
    from tests.golden_files import matches_golden

CASES = {fn.__name__: (fn, points) for fn, points in corpus.SCALAR_CASES + corpus.ARRAY_CASES}
GOLDEN = pathlib.Path(__file__).resolve().parent.parent / "golden" / "global_objects"


@pytest.mark.parametrize("name", list(CASES))
def test_the_gradient_passes_check(name):
    fn, points = CASES[name]
    report = symdiff.check(fn, *points)
    assert report.ok, str(report)


@pytest.mark.parametrize("name", list(CASES))
def test_the_gradient_agrees_with_the_tape(name):
    fn, points = CASES[name]
    gradient, witness = symdiff.grad(fn), symdiff.tape.grad(fn)
    for point in points:
        got, want = gradient(*point), witness(*point)
        np.testing.assert_allclose(np.asarray(got, dtype=float),
                                   np.asarray(want, dtype=float), rtol=1e-10, atol=1e-12)


def test_forward_mode_reads_the_objects_as_data():
    fn = corpus.methods_through_self
    hessian = np.array(symdiff.hessian(fn)(0.3, 0.8))
    step = 1e-5
    columns = [(np.array(symdiff.grad(fn)(*(np.array([0.3, 0.8]) + step * e)))
                - np.array(symdiff.grad(fn)(*(np.array([0.3, 0.8]) - step * e)))) / (2 * step)
               for e in np.eye(2)]
    np.testing.assert_allclose(hessian, np.array(columns).T, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("name", ["method_energy", "array_field", "layer_called"])
def test_the_generated_text_reads_the_fields_by_name(name):
    fn, points = CASES[name]
    text = symdiff.source(fn, *points[0])
    matches_golden(GOLDEN / f"{name}.py", text, f"the gradient of {name}")
    code = [line for line in text.splitlines() if not line.strip().startswith("#")]
    assert not any("self" in line for line in code)  # the object's fields, by their names


MODULE = """\
import numpy as np


class Body:
    G = 9.81  # a class attribute

    def __init__(self):
        self.mass = 2.0
        self.mode = "soft"
        self.coeffs = [1.0, 2.0]
        self.W = np.eye(2)

    def energy(self, v):
        if self.mode == "soft":
            return self.mass * v ** 2
        return v

    def second(self, x):
        return self.coeffs[1] * x

    def push(self, x):
        return np.sum(self.W @ x)


body = Body()


def energy(v):
    return body.energy(v)


def second(x):
    return body.second(x)


def pushed(x):
    return body.push(x)


def weighed(h):
    return body.G * body.mass * h
"""


def test_a_build_is_redone_when_a_field_read_changes(tmp_path):
    module = oracles.module_from_text(tmp_path, "m_body_fields", MODULE)
    assert symdiff.grad(module.energy)(1.5) == 2 * 2.0 * 1.5
    module.body.mass = 5.0  # a number assigned
    assert symdiff.grad(module.energy)(1.5) == 2 * 5.0 * 1.5
    module.body.mode = "hard"  # a flag assigned: the other branch
    assert symdiff.grad(module.energy)(1.5) == 1.0
    module.body = module.Body()  # the object itself rebound
    assert symdiff.grad(module.energy)(1.5) == 2 * 2.0 * 1.5
    assert symdiff.grad(module.second)(1.5) == 2.0
    module.body.coeffs[1] = 7.0  # a list changed in place
    assert symdiff.grad(module.second)(1.5) == 7.0
    assert symdiff.grad(module.weighed)(1.5) == 9.81 * 2.0
    module.Body.G = 4.0  # the class attribute assigned
    assert symdiff.grad(module.weighed)(1.5) == 4.0 * 2.0
    module.body.G = 1.0  # the class attribute hidden by the instance's own
    assert symdiff.grad(module.weighed)(1.5) == 2.0


def test_an_array_field_reassigned_or_changed_in_place_is_read_anew(tmp_path):
    module = oracles.module_from_text(tmp_path, "m_body_arrays", MODULE)
    gradient, x = symdiff.grad(module.pushed), np.array([0.5, -1.0])
    np.testing.assert_allclose(gradient(x), [1.0, 1.0])
    module.body.W = np.array([[1.0, 2.0], [3.0, 4.0]])  # reassigned
    np.testing.assert_allclose(gradient(x), [4.0, 6.0])
    module.body.W[0, 0] = 10.0  # changed in place: the generated code reads it
    np.testing.assert_allclose(gradient(x), [13.0, 6.0])
    module.body.W = np.ones((2, 3))  # another shape: built again
    np.testing.assert_allclose(gradient(np.ones(3)), [2.0, 2.0, 2.0])
    np.testing.assert_allclose(gradient(np.ones(3)), symdiff.tape.grad(module.pushed)(
        np.ones(3)))


REFUSED = """\
class Body:
    def __init__(self):
        self.mass = 2.0
        self.table = {"a": 1.0}
        self.kind = "sum"

    @property
    def heavy(self):
        return self.mass * 2

    @classmethod
    def unit(cls, x):
        return x

    def bump(self, x):
        self.mass = x
        return x * self.mass

    def energy(self, v):
        return self.mass * v * v


body = Body()


def by_property(x):
    return body.heavy * x  # REFUSED at body.heavy


def by_classmethod(x):
    return body.unit(x)  # REFUSED at body.unit


def by_bump(x):
    return body.bump(x)


def by_dict_field(x):
    return body.table * x  # REFUSED at body.table


def by_missing_field(x):
    return body.nothing * x  # REFUSED at body.nothing


def by_method_as_value(x):
    return body.energy * x  # REFUSED at body.energy


def by_string_field(x):
    return body.kind * x  # REFUSED at body.kind


def by_object_as_number(x):
    return body * x  # REFUSED at body


def way_out(x, mass):
    return mass * x * x
"""


@pytest.mark.parametrize("name", ["by_property", "by_classmethod", "by_dict_field",
                                  "by_missing_field", "by_method_as_value",
                                  "by_string_field", "by_object_as_number"])
def test_what_is_not_data_is_refused_located_with_a_hint(tmp_path, name):
    module = oracles.module_from_text(tmp_path, f"m_refused_{name}", REFUSED)
    fn = getattr(module, name)
    with pytest.raises(symdiff.SymdiffError) as caught:
        symdiff.grad(fn)(1.5)
    error = caught.value
    assert (error.lineno, error.col_offset) == oracles.marked_place(fn)
    assert error.hint


def test_a_method_assigning_a_field_is_refused_where_it_assigns_and_the_way_out_works(
        tmp_path):
    module = oracles.module_from_text(tmp_path, "m_refused_bump", REFUSED)
    with pytest.raises(symdiff.SymdiffError) as caught:
        symdiff.grad(module.by_bump)(1.5)
    error = caught.value
    assert error.source_line.strip() == "self.mass = x" and "return it" in error.hint
    got = symdiff.grad(module.way_out, wrt="x")(1.5, module.body.mass)  # the way out
    assert got == symdiff.tape.grad(module.way_out, wrt="x")(1.5, module.body.mass)


@pytest.mark.parametrize("name", ["layer_called", "nested_objects", "array_field_transposed"])
def test_forward_mode_on_arrays_agrees_with_the_gradient_and_its_differences(name):
    fn, points = CASES[name]
    x = points[0][0]
    direction = np.array([1.0, 0.5, -0.2])
    value, tangent = symdiff.jvp(fn)(x, direction)
    assert value == pytest.approx(fn(x), rel=1e-12)
    assert tangent == pytest.approx(float(symdiff.tape.grad(fn)(x) @ direction), rel=1e-10)
    step = 1e-5
    moved = (symdiff.grad(fn)(x + step * direction) - symdiff.grad(fn)(x - step * direction))
    np.testing.assert_allclose(np.asarray(symdiff.hessian(fn)(x)) @ direction,
                               moved / (2 * step), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("name", ["method_energy", "list_field_loop", "layer_called"])
def test_a_compiled_gradient_reads_the_objects_as_the_python_one_does(name):
    pytest.importorskip("numba")
    fn, points = CASES[name]
    compiled, plain = symdiff.grad(fn, jit="numba"), symdiff.grad(fn)
    for point in points:
        np.testing.assert_allclose(compiled(*point), plain(*point), rtol=1e-12, atol=1e-14)
