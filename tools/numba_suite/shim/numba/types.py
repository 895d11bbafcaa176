"""numba.types is numba.cuda.types."""
import sys

from .cuda import types as _types

sys.modules[__name__] = _types
