"""symdiff runs without NumPy: importing it, building a gradient, checking it and running
the tape import no NumPy (NumPy is needed only by code that uses arrays)."""

import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent



def test_symdiff_works_where_numpy_cannot_be_imported(tmp_path):
    (tmp_path / "used.py").write_text(
        "import math\n\ndef f(x, y):\n    return x * math.sin(y)\n\n\n"
        "def g(xs):\n    return sum(x * x for x in xs)\n", encoding="utf-8")
    script = ('import sys\nsys.modules["numpy"] = None  # importing numpy now fails\n'
              "import symdiff, symdiff.tape\nfrom used import f, g\n"
              "assert symdiff.grad(f)(1.0, 2.0)[0] == __import__('math').sin(2.0)\n"
              "assert symdiff.grad(g)([1.0, 2.0]) == [2.0, 4.0]\n"
              "assert symdiff.check(f, (1.0, 2.0)).ok\n"
              "assert symdiff.tape.grad(f)(1.0, 2.0)[1] == __import__('math').cos(2.0)\n"
              "print('ok')\n")
    (tmp_path / "run.py").write_text(script, encoding="utf-8")
    done = subprocess.run([sys.executable, "run.py"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
