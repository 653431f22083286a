"""The front end: a user's function as source, a syntax tree and its names, fenced.

parse (source and lines) -> fence (the allow-list) ; static (the CLI's reader of files
that are not imported), resolve (what names mean), wrappers (decorators run through),
provenance (the source is the code that runs).
"""
