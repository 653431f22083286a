"""symdiff: source-to-source reverse-mode differentiation for plain Python."""

from .errors import (InternalError, RecursionCycleError, SourceUnavailableError,
                     SymdiffError, UndefinedNameError, UnknownFunctionError,
                     UnsupportedSyntaxError)
from .markers import stop_gradient

__all__ = [
    "InternalError", "RecursionCycleError", "SourceUnavailableError", "SymdiffError",
    "UndefinedNameError", "UnknownFunctionError", "UnsupportedSyntaxError",
    "stop_gradient",
]
__version__ = "0.1.0"
