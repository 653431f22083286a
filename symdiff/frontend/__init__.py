"""The front end: a user's function as source, a syntax tree and its names, fenced.

``parse`` (the source with real line numbers) -> ``fence`` (the allow-list of syntax) ->
``desugar`` (in ``lower``); beside them ``exits`` (where control may leave a block, what a
statement assigns), ``resolve`` (what a name means), ``wrappers``
(decorators run through), ``provenance`` (the source is the code that runs), ``wrt`` (the
one resolver of ``wrt`` every entry point uses) and ``static`` with ``static_values``,
``static_define`` and ``static_rules`` (the CLI's reader of files it does not import).
"""
