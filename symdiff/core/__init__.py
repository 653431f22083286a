"""The vocabulary every stage speaks, below the registry and the IR: the types of values
(``types``), IR expressions (``expr``: frozen data, no Python syntax tree), and
substitution over them (``rewrite``: how a rule's template is filled in for one
statement).  The registry's rules are written in it and the IR's statements hold it, so
both read this package and it reads neither (``errors`` alone)."""
