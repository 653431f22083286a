"""The intermediate representation passed between the passes, as plain data.

``nodes`` (the lowered program's statements, each with a stable id), ``expr`` (IR
expressions: the IR holds no Python syntax tree; the types of its variables are
``symdiff.types``, below both the IR and the registry, whose type rules give them),
``sweeps`` (the statements ``differentiate`` writes, ``AddTo`` among them),
``check`` (``check_program``, its types checked by ``check_types`` against each
record's type rule), ``printer`` (one text of a program) and ``evaluate`` (one
interpreter), with ``names`` (fresh, hygienic names).  Beside them, what the IR stands
for in Python: ``to_python`` (the sweeps as the Python syntax tree they stand for, as
``expr.to_ast`` is an expression's) and ``syntax`` (the helpers every pass that writes a
Python syntax tree builds it with, the comment statement among them).
"""
