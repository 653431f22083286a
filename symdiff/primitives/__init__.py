"""What symdiff knows about each primitive: one record each (``record``; the scalar ones in
``scalar``, SciPy's in ``scipy``), the questions the passes ask of them (``registry``), the type
rules they state (``type_rules``), the texts' helpers (``texts``) and the functions
generated code defines for some of them (``special``).
"""
