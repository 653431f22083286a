"""Saved generated text runs on its own: ``python -I``, without symdiff, gives the gradient.

The functions a custom rule (``symdiff.defgrad``) calls are bound above the gradient:
imported from the module that holds them, or, where no import reaches them (a script
run as ``__main__``, a lambda passed inline), defined there from their source, with
what they read.  What cannot be carried is named in a comment, never left out silently.
"""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent

LIBRARY = '''\
import math


def lgamma(x):
    return math.lgamma(x)


def lgamma_dx(x, out):
    return digamma(x)


def digamma(x):
    return math.log(x) - 0.5 / x - 1.0 / (12.0 * x * x)
'''

# A script run as __main__: its rules are its own functions and lambdas, one given
# inline; the rule reads a helper, a constant and math.  It writes the generated text
# and the gradient symdiff computes in-process.
SCRIPT = '''\
import json
import math
import sys

import symdiff
from library import lgamma, lgamma_dx

SHARPNESS = 8.0

symdiff.defgrad(lgamma, lgamma_dx)


def soft_mask(x):
    return 1.0 / (1.0 + math.exp(-SHARPNESS * x))


def masked(x, t):
    return soft_mask(x - t) * x


def masked_dx(x, t, out):
    m = soft_mask(x - t)
    return m + x * SHARPNESS * m * (1.0 - m)


symdiff.defgrad(masked, masked_dx, lambda x, t, out: -x * SHARPNESS * soft_mask(x - t)
                * (1.0 - soft_mask(x - t)))


def f(x, t):
    return masked(x, t) * lgamma(x) + x


text = symdiff.source(f)
with open("grad_f.py", "w") as handle:
    handle.write(text)
json.dump(list(symdiff.grad(f)(1.7, 0.4)), sys.stdout)
'''

RUN_SAVED = '''\
import importlib.util, json, sys
sys.path.insert(0, ".")
assert importlib.util.find_spec("symdiff") is None, "symdiff must not be importable"
from grad_f import grad_f
json.dump(list(grad_f(1.7, 0.4)), sys.stdout)
'''


def _run(args, cwd, **env):
    done = subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120, env=dict(os.environ, **env))
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_saved_text_of_a_script_with_rules_runs_with_python_isolated(tmp_path):
    (tmp_path / "library.py").write_text(LIBRARY)
    (tmp_path / "script.py").write_text(SCRIPT)
    expected = json.loads(_run(["script.py"], tmp_path, PYTHONPATH=str(ROOT)))
    saved = (tmp_path / "grad_f.py").read_text()
    assert "from library import lgamma" in saved and "def masked_dx(x, t, out):" in saved
    assert "def soft_mask(x):" in saved and "SHARPNESS = 8.0" in saved
    assert "import symdiff" not in saved and "Not bound here" not in saved
    got = json.loads(_run(["-I", "-S", "-c", RUN_SAVED], tmp_path))  # no symdiff reachable
    assert got == expected


def test_what_cannot_be_carried_is_named_not_left_out(tmp_path):
    """A rule that reads a dictionary it closes over cannot be written out."""
    (tmp_path / "model.py").write_text(textwrap.dedent('''\
        import symdiff


        def make_rule():
            table = {"scale": 3.0}
            return lambda x, out: table["scale"] * x * x


        def cube(x):
            return x * x * x


        symdiff.defgrad(cube, make_rule())


        def f(x):
            return cube(x) + x
        '''))
    script = ("import sys; sys.path.insert(0, '.'); import model, symdiff\n"
              "print(symdiff.source(model.f))\n")
    text = _run(["-c", script], tmp_path, PYTHONPATH=str(ROOT))
    assert "Not bound here" in text and "cube_dx: a function defined inside another" in text
    assert "model.py, line 6" in text
