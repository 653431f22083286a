"""The intermediate representation passed between the passes, as plain data.

``nodes`` (the lowered program's statements, each with a stable id), ``sweeps`` (the
statements ``differentiate`` writes, ``AddTo`` among them), ``check`` (``check_program``,
its types checked by ``check_types`` against each record's type rule), ``printer`` (one
text of a program) and ``evaluate`` (one interpreter), with ``names`` (fresh, hygienic
names) and ``syntax`` (the helpers a pass that writes a Python syntax tree builds it
with, the comment statement among them; the sweeps become that tree in
``backend.to_python``).  The expressions the statements hold and the types of their
variables are ``symdiff.core``'s, below both the IR and the registry.
"""
