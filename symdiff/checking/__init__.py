"""symdiff.check: the generated gradient against the tape, sympy and finite
differences, and the divergence locator.

``compare`` (the four-way comparison, ``check``), ``report`` (``CheckReport`` and its
table), ``statuses`` (agreement and finite differences), ``leaf_rows`` (a row per number
of a container argument), ``examples`` (random points, and the example a container
needs), ``leaves`` (the numbers of a container by path: ``xs[2]``, ``p["w"]``; shared by
all of symdiff), ``locate`` (the divergence locator), ``interpret`` (lowered statements
run on tape values), ``tape_bridge`` (each operation as the tape computes it) and
``rules`` (user rules against finite differences).
"""
