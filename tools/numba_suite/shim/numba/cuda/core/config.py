"""numba.cuda.core.config, the harness's own. The settings loom honours (loom.cuda.config:
CUDA_NVRTC_EXTRA_SEARCH_PATHS) are read and set there. The few values the suite's helpers
branch on are given as on a real GPU with Numba: loom's cpu() compiles the kernels (it is not
Numba's simulator), so ENABLE_CUDASIM is 0. Reading any other setting raises an ImportError
naming it; setting one of those (override_config) has no effect on loom."""
import sys
import types

from loom.cuda import config as _loom_config

from ..._missing import module_getattr as _module_getattr

_LOOMS = ("CUDA_NVRTC_EXTRA_SEARCH_PATHS",)

ENABLE_CUDASIM = 0
CUDA_MEMORY_MANAGER = "default"
CUDA_LOW_OCCUPANCY_WARNINGS = 0
CUDA_WARN_ON_IMPLICIT_COPY = 0
# Switches tests set and restore around what they check; loom reads none of them.
CUDA_ENABLE_NRT = 0
DISABLE_PERFORMANCE_WARNINGS = 0
CUDA_ARRAY_INTERFACE_SYNC = 1

_missing = _module_getattr(__name__)


class _Config(types.ModuleType):
    def __getattr__(self, name):
        return getattr(_loom_config, name) if name in _LOOMS else _missing(name)

    def __setattr__(self, name, value):
        if name in _LOOMS:
            setattr(_loom_config, name, value)
        else:
            super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Config
