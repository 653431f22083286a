"""Gradients travel: pickled and rebuilt in other processes, in pools, and as saved text.

Each way back (by module name, by reference to the function, as generated text) is
checked by the values it gives: bit for bit those of the gradient it came from, which
the tape engine witnesses.
"""

import concurrent.futures
import importlib.util
import inspect
import math
import multiprocessing
import os
import pathlib
import pickle
import subprocess
import sys
import textwrap

import pytest

import symdiff
from symdiff.backend import travel

try:
    from oracles import finite_difference
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests.oracles import finite_difference

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
POINTS = [(0.3, 1.7), (-1.2, 0.4), (2.5, -0.8)]


def env_with_symdiff():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + ([env["PYTHONPATH"]]
                                                       if env.get("PYTHONPATH") else []))
    return env


def wave(x, y):
    return math.sin(x * y) + x * x / (1.0 + y * y)


def power(x, n):
    result = 1.0
    for _ in range(n):
        result = result * x
    return result


def cube(x):
    return x * x * x + math.cos(x)


def softclip(t):
    return math.log1p(math.exp(t))


def softclip_slope(t, out):
    return 1.0 / (1.0 + math.exp(-t))


symdiff.defgrad(softclip, softclip_slope)


def way(obj):
    """Which of the three ways ``obj`` pickles."""
    reduced = obj.__reduce__()
    return {travel.lookup: "name", travel.rebuild: "reference",
            travel.from_source: "text"}[reduced[0]]


def round_trip(obj):
    return pickle.loads(pickle.dumps(obj))


def tape_gradient(fn, point):
    witness = symdiff.tape.grad(fn)(*point)
    return witness if isinstance(witness, tuple) else (witness,)


# --- in one process ------------------------------------------------------------------------

BUILT = [
    ("grad", lambda: symdiff.grad(wave), POINTS),
    ("grad wrt", lambda: symdiff.grad(power, wrt="x"), [(1.5, 3), (0.7, 5)]),
    ("value_and_grad", lambda: symdiff.value_and_grad(wave), POINTS),
    ("unoptimized", lambda: symdiff.grad(wave, optimize=False), POINTS),
    ("jvp", lambda: symdiff.jvp(wave), [p + (0.5, -2.0) for p in POINTS]),
    ("jacobian", lambda: symdiff.jacobian(wave), POINTS),
    ("hessian", lambda: symdiff.hessian(wave), POINTS),
    ("hvp", lambda: symdiff.hvp(wave), [p + (1.0, 0.25) for p in POINTS]),
    ("grad of grad", lambda: symdiff.grad(symdiff.grad(cube)), [(0.5,), (-1.5,)]),
]


@pytest.mark.parametrize("label, make, points", BUILT, ids=[b[0] for b in BUILT])
def test_a_module_function_travels_by_reference_and_is_rebuilt(label, make, points):
    built = make()
    assert way(built) == "reference"
    back = round_trip(built)
    assert type(back) is type(built) and back.__name__ == built.__name__
    assert back.source == built.source
    for point in points:
        assert back(*point) == built(*point)
    if label != "grad of grad":
        assert back.fn is built.fn


def test_the_values_that_travel_are_the_tapes():
    back = round_trip(symdiff.grad(wave))
    for point in POINTS:
        assert back(*point) == pytest.approx(tape_gradient(wave, point), rel=1e-12)


def test_functions_that_cannot_travel_by_reference_carry_their_text():
    scale = 2.5

    def nested(x, y):
        return scale * x * math.exp(-y * y)

    lam = lambda x, y: x * math.sin(y)  # noqa: E731
    for fn in (nested, lam):
        built = symdiff.grad(fn)
        assert way(built) == "text"
        back = round_trip(built)
        assert back.fn is None and back.graph is None and back.source == built.source
        for point in POINTS:
            assert back(*point) == built(*point)
            assert back(*point) == pytest.approx(tape_gradient(fn, point), rel=1e-12)
        assert inspect.getsource(back) in back.source
        assert round_trip(back)(*POINTS[0]) == built(*POINTS[0])  # and travels again


def test_a_hessian_of_a_nested_function_carries_its_text_and_its_evaluator():
    def nested(x, y):
        return x * x * y + math.sin(y)

    hessian = symdiff.hessian(nested)
    assert way(hessian) == "text"
    back = round_trip(hessian)
    for point in POINTS:
        assert back(*point) == hessian(*point)


def test_a_rule_the_text_imports_is_not_carried():
    def loss(t, s):
        return softclip(t * s) * s

    built = symdiff.grad(loss)
    assert way(built) == "text"
    assert "from test_travel import softclip_slope" in built.source
    assert built._carried()["outside"] == {}
    back = round_trip(built)
    for point in POINTS:
        assert back(*point) == built(*point)


def test_a_gradient_built_on_first_use_travels_too(tmp_path):
    path = tmp_path / "late_module.py"
    path.write_text(textwrap.dedent("""
        import math
        import symdiff

        @symdiff.grad
        def late(x):
            return helper(x) * x

        def helper(t):
            return math.sin(t)
    """))
    spec = importlib.util.spec_from_file_location("late_module", path)
    module = importlib.util.module_from_spec(spec)  # not in sys.modules: not importable
    spec.loader.exec_module(module)
    assert isinstance(module.late, symdiff.api.GradFunction)
    assert way(module.late) == "text"
    back = round_trip(module.late)
    assert back(0.7) == module.late(0.7) == pytest.approx(math.sin(0.7) + 0.7 * math.cos(0.7))


def swell_of(depth):
    """A function whose loop saves three values an iteration (pushed as one tuple)."""
    def swell(x, n):
        s = 0.0
        for i in range(n):
            a = math.sin(x * i + depth)
            b = math.cos(a) * x
            s = s + a * b + math.exp(-b)
        return s
    return swell


def test_a_gradient_that_packs_its_saves_is_differentiated_again_after_travelling():
    swell = swell_of(0.25)
    built = symdiff.grad(swell, wrt="x")
    assert way(built) == "text" and "push((" in built.source  # the saves as one tuple
    back = round_trip(built)
    second, again = symdiff.grad(built, wrt="x"), symdiff.grad(back, wrt="x")
    for x, n in [(0.3, 4), (-1.1, 6), (2.0, 3)]:
        assert back(x, n) == built(x, n)
        assert again(x, n) == second(x, n)
        estimate, spread = finite_difference(lambda t: built(t, n), (x,), 0)
        assert again(x, n) == pytest.approx(estimate, rel=1e-7, abs=1e-7 + 10 * spread)
    assert symdiff.grad(round_trip(back), wrt="x")(0.3, 4) == second(0.3, 4)


def test_a_gradient_built_on_first_use_that_packs_its_saves_travels_too(tmp_path):
    path = tmp_path / "late_swell.py"
    path.write_text(textwrap.dedent("""
        import math
        import symdiff

        @symdiff.grad
        def late(x):
            s = 0.0
            for i in range(5):
                a = helper(x * i)
                b = math.cos(a) * x
                s = s + a * b + math.exp(-b)
            return s

        def helper(t):
            return math.sin(t)
    """))
    spec = importlib.util.spec_from_file_location("late_swell", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert isinstance(module.late, symdiff.api.GradFunction)
    back = round_trip(module.late)
    assert "push((" in back.source
    for x in (0.3, -0.8):
        assert back(x) == module.late(x)
        assert symdiff.grad(back)(x) == symdiff.grad(module.late)(x)


GRADIENT_OF_CUBE = symdiff.grad(cube)


def uses_a_gradient(x):
    return GRADIENT_OF_CUBE(x) * math.sin(x)


def test_a_gradient_called_by_a_function_is_differentiated_through():
    """As the generated function it stands for is (finite differences witness: the tape
    sees the generated code's math calls as constants)."""
    got = symdiff.grad(uses_a_gradient)
    for x in (0.3, -1.1, 2.0):
        estimate, spread = finite_difference(uses_a_gradient, (x,), 0)
        assert got(x) == pytest.approx(estimate, rel=1e-8, abs=1e-8 + 10 * spread)
    assert way(got) == "reference" and round_trip(got)(0.3) == got(0.3)


def test_only_symdiffs_transforms_are_rebuilt():
    with pytest.raises(ValueError):
        travel.rebuild("getattr", wave, {})


# --- across processes ----------------------------------------------------------------------

DECORATED = '''
import math
import symdiff


@symdiff.grad
def swing(x, y):
    """Decorated: the module's swing is its gradient."""
    return math.cos(x) * y + x * y * y
'''


def run(code, cwd, name="script.py"):
    """Run ``code`` as a script of its own (so its functions have source to read)."""
    (cwd / name).write_text(code)
    done = subprocess.run([sys.executable, name], cwd=cwd, env=env_with_symdiff(),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_a_decorated_gradient_travels_by_its_module_name(tmp_path):
    (tmp_path / "decorated.py").write_text(DECORATED)
    dump = ("import pickle, sys, decorated, symdiff.backend.travel as t\n"
            "assert decorated.swing.__reduce__()[0] is t.lookup\n"
            "sys.stdout.buffer.write(pickle.dumps(decorated.swing))\n")
    done = subprocess.run([sys.executable, "-c", dump], cwd=tmp_path, env=env_with_symdiff(),
                          capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode()
    (tmp_path / "swing.pickle").write_bytes(done.stdout)
    load = ("import pickle\n"
            "g = pickle.load(open('swing.pickle', 'rb'))\n"
            "print(repr(g(0.3, 1.7)), repr(g(-1.2, 0.4)))\n")
    got = run(load, tmp_path).split()
    fn = lambda x, y: math.cos(x) * y + x * y * y  # noqa: E731  the same function, here
    for text, point in zip([" ".join(got[:2]), " ".join(got[2:])], [(0.3, 1.7), (-1.2, 0.4)]):
        assert eval(text) == pytest.approx(tape_gradient(fn, point), rel=1e-12)


def test_a_gradient_of_main_travels_as_text_to_a_process_without_the_function(tmp_path):
    dump = textwrap.dedent("""
        import math, pickle, symdiff

        def main_loss(w, x):
            total = 0.0
            for k in range(3):
                total = total + math.tanh(w * x + k)
            return total

        g = symdiff.grad(main_loss)
        assert g.__reduce__()[0] is symdiff.backend.travel.from_source
        pickle.dump((g, g(0.4, 1.3)), open("main.pickle", "wb"))
    """)
    run(dump, tmp_path, "dump.py")
    load = textwrap.dedent("""
        import inspect, pickle
        g, expected = pickle.load(open("main.pickle", "rb"))
        assert "main_loss" not in dir(__import__("__main__"))
        assert g(0.4, 1.3) == expected, (g(0.4, 1.3), expected)
        assert inspect.getsource(g).startswith("def grad_main_loss(w, x):")
        print("ok")
    """)
    assert run(load, tmp_path, "load.py").strip() == "ok"


def call_with(args):
    """What a pool's worker runs: a gradient and its arguments, both pickled."""
    gradient, point = args
    return gradient(*point)



SCRIPT_WITH_A_RULE = """
import math, multiprocessing, symdiff


def softplus(x):
    return math.log1p(math.exp(x))


def softplus_slope(x, out):
    return 1.0 / (1.0 + math.exp(-x))


symdiff.defgrad(softplus, softplus_slope)


def loss(w, x):
    return softplus(w * x) - 0.5 * w * w


if __name__ == "__main__":
    gradient = symdiff.grad(loss)
    state = gradient._carried()
    # the text defines the rule's functions itself, so nothing travels beside it
    assert not state["outside"], state["outside"]
    assert "def softplus(" in state["text"] and "def softplus_dx(" in state["text"]
    points = [(0.1 * k, 1.5 - 0.2 * k) for k in range(8)]
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        got = pool.starmap_async(gradient, points).get(timeout=120)
    assert got == [gradient(*p) for p in points], got
    print(repr(got))
"""


def test_a_script_with_its_own_rule_maps_its_gradient_in_a_spawn_pool(tmp_path):
    (tmp_path / "with_rule.py").write_text(SCRIPT_WITH_A_RULE)
    done = subprocess.run([sys.executable, "with_rule.py"], cwd=tmp_path, env=env_with_symdiff(),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr

    def loss(w, x):  # the same function, differentiated by the tape
        return math.log1p(math.exp(w * x)) - 0.5 * w * w

    points = [(0.1 * k, 1.5 - 0.2 * k) for k in range(8)]
    for got, point in zip(eval(done.stdout), points):
        assert got == pytest.approx(tape_gradient(loss, point), rel=1e-12)


@pytest.fixture(scope="module")
def spawn():
    return multiprocessing.get_context("spawn")


@pytest.mark.parametrize("method", ["default", "spawn"])
def test_pool_map_and_starmap(method, spawn):
    context = spawn if method == "spawn" else multiprocessing.get_context()
    one = symdiff.grad(cube)
    two = symdiff.grad(wave)
    lam = symdiff.grad(lambda x, y: x * math.exp(y))  # travels as text
    xs = [0.1 * k - 1.0 for k in range(20)]
    with context.Pool(2) as pool:
        mapped = pool.map_async(one, xs).get(timeout=120)
        starred = pool.starmap_async(two, POINTS).get(timeout=120)
        by_text = pool.starmap_async(lam, POINTS).get(timeout=120)
    assert mapped == [one(x) for x in xs]
    assert starred == [two(*p) for p in POINTS]
    assert by_text == [lam(*p) for p in POINTS]


def test_process_pool_executor_with_spawn(spawn):
    hessian = symdiff.hessian(wave)
    jvp = symdiff.jvp(power, wrt="x")
    with concurrent.futures.ProcessPoolExecutor(max_workers=2, mp_context=spawn) as pool:
        hessians = list(pool.map(call_with, [(hessian, p) for p in POINTS], timeout=120))
        tangents = list(pool.map(call_with, [(jvp, (1.5, 3, 1.0))], timeout=120))
    assert hessians == [hessian(*p) for p in POINTS]
    assert tangents == [jvp(1.5, 3, 1.0)]
    assert tangents[0][1] == pytest.approx(3 * 1.5 ** 2, rel=1e-12)


# --- the saved text, with nothing but Python -----------------------------------------------

SAVED = [("neuron", None, (0.5, -0.2, 1.5)), ("power", "x", (1.5, 3))]


@pytest.mark.parametrize("name, wrt, point", SAVED, ids=[s[0] for s in SAVED])
def test_symdiff_show_saved_to_a_file_imports_in_an_isolated_python(name, wrt, point, tmp_path):
    shown = subprocess.run([sys.executable, "-m", "symdiff", "show",
                            str(ROOT / "examples" / "model.py") + f":{name}"]
                           + (["--wrt", wrt] if wrt else []),
                           env=env_with_symdiff(), capture_output=True, text=True, timeout=120)
    assert shown.returncode == 0, shown.stderr
    (tmp_path / f"grad_{name}.py").write_text(shown.stdout)
    code = textwrap.dedent(f"""
        import importlib.util, os, sys
        assert importlib.util.find_spec("symdiff") is None, "symdiff must not be importable"
        sys.path.insert(0, os.getcwd())
        import grad_{name}
        print(repr(grad_{name}.grad_{name}(*{point!r})))
    """)
    # -I -S: neither PYTHONPATH nor site-packages, where an installed symdiff would be
    done = subprocess.run([sys.executable, "-I", "-S", "-c", code], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    spec = importlib.util.spec_from_file_location("model", ROOT / "examples" / "model.py")
    model = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(model)
    fn = getattr(model, name)
    assert eval(done.stdout) == symdiff.grad(fn, wrt=wrt)(*point)
    witness = symdiff.tape.grad(fn, wrt=wrt)(*point)
    assert eval(done.stdout) == pytest.approx(witness, rel=1e-12)


# --- examples/parallel.py ------------------------------------------------------------------

def run_parallel_example(*args):
    done = subprocess.run([sys.executable, str(ROOT / "examples" / "parallel.py"), *args],
                          env=env_with_symdiff(), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_the_parallel_example_checks_a_process_pool():
    out = run_parallel_example("--no-dask")
    assert "process pool, 2 spawned workers: 10000 gradients, equal" in out


def dask_importable():
    return all(importlib.util.find_spec(name) is not None for name in ("dask", "distributed"))


@pytest.mark.skipif(not dask_importable(), reason="dask[distributed] is not installed "
                    "(pip install 'dask[distributed]' to run the example on a local cluster)")
def test_the_parallel_example_checks_a_dask_cluster():
    out = run_parallel_example()
    assert "process pool, 2 spawned workers: 10000 gradients, equal" in out
    assert "dask, 2 worker processes: 10000 gradients, equal" in out


def test_as_a_class_attribute_it_binds_as_a_function_does():
    gradient = symdiff.grad(wave)

    class Holder:
        plain = wave
        generated = gradient

    holder = Holder()
    assert Holder.generated is gradient and Holder.generated(*POINTS[0]) == gradient(*POINTS[0])
    bound = holder.generated
    assert type(bound) is type(holder.plain)  # a bound method, as for the plain function
    assert bound.__self__ is holder and bound.__func__ is gradient
