"""The same function gives byte-identical generated code in every process.

Two interpreters with different ``PYTHONHASHSEED`` (so sets and str hashes iterate
differently) print the generated source and the DOT graph of functions with
branches, loops, early exits, helpers and many names; the outputs must match.
"""

import os
import pathlib
import subprocess
import sys

TESTS = pathlib.Path(__file__).resolve().parent.parent
ROOT = TESTS.parent

EXTRA_CASES = '''
import math


def many_names(x, dx, t):
    mul_z = x * dx
    result = mul_z + t
    stack = math.sin(result)
    push = stack * x
    pop = push - t
    cond = pop
    if cond > 0.0:
        cond = cond * 2.0
    grad_many_names = cond * 2.0 + t
    _ = grad_many_names + x
    for i in range(3):
        _ = _ * x + dx
        if _ > 100.0:
            break
    return _ + cond


def exits(x, y):
    total = 0.0
    for i in range(6):
        if i == 4:
            break
        if i % 2 == 1:
            continue
        total = total + x * i
        if total > 50.0:
            return total * y
    k = 0
    while k < 5:
        k = k + 1
        if total > 100.0:
            return total - x
        total = total * 1.5 + y
    return total + x * y


def unpacking(x, y, z):
    a, b, c = x, y, z
    for i in range(2):
        a, b, c = b, c, a * 2.0
    return a + b * c


CASES = [many_names, exits, unpacking]
'''

SCRIPT = r'''
import determinism_cases
import golden_cases
import symdiff

for fn in list(golden_cases.CASES) + determinism_cases.CASES:
    print("=" * 20, fn.__name__)
    print(symdiff.source(fn))
    print(symdiff.source(fn, wrt=0))
    print(symdiff.value_and_grad(fn).source)
    print(symdiff.grad(fn).graph.to_dot())
'''


def _start(seed, folder):
    env = dict(os.environ)
    env["PYTHONHASHSEED"] = str(seed)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(TESTS), str(folder),
                                         env.get("PYTHONPATH", "")])
    return subprocess.Popen([sys.executable, "-c", SCRIPT], env=env, cwd=str(folder),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _finish(process):
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err.decode(errors="replace")
    return out


def test_generated_source_is_identical_across_hash_seeds(tmp_path):
    (tmp_path / "determinism_cases.py").write_text(EXTRA_CASES, encoding="utf-8")
    processes = [_start(seed, tmp_path) for seed in (0, 987654321)]
    first, second = [_finish(p) for p in processes]
    assert first.count(b"def grad_") == 8 * 3
    assert first == second


def test_generated_source_is_identical_within_a_process():
    import golden_cases
    from symdiff.ad.reverse import differentiate
    from symdiff.backend.emit import emit
    from symdiff.backend.to_python import to_python
    from symdiff.pipeline import lower
    from symdiff.optimize.driver import optimize_function
    from symdiff.frontend.parse import parse_function

    for fn in golden_cases.CASES:
        texts = set()
        for _ in range(2):
            program = lower(parse_function(fn))
            generated = optimize_function(differentiate(program, list(program.params)))
            texts.add(emit(to_python(generated)))
        assert len(texts) == 1
