"""``python -m symdiff``: the same command line as the ``symdiff`` script."""

from symdiff.cli.main import main

if __name__ == "__main__":
    raise SystemExit(main())
