"""The whole suite runs with the IR checked after every pass (``symdiff.ir.check``):
a pass that breaks an invariant fails the test that reached it, naming the pass.
The variable is inherited by the processes tests start (the CLI's)."""

import os

os.environ["SYMDIFF_CHECK_IR"] = "1"
