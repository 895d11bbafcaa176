"""numba.cuda.config is numba.cuda.core.config."""
import sys

from .core import config as _config

sys.modules[__name__] = _config
