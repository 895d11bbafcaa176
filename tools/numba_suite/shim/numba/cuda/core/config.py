"""numba.cuda.core.config, the harness's own: loom has no Numba settings. The few values
the suite's helpers branch on are given as on a real GPU with Numba: loom's cpu() compiles
the kernels (it is not Numba's simulator), so ENABLE_CUDASIM is 0. Reading any other
setting raises an ImportError naming it; setting one (override_config) has no effect on loom."""
from ..._missing import module_getattr as _module_getattr

ENABLE_CUDASIM = 0
CUDA_MEMORY_MANAGER = "default"
CUDA_LOW_OCCUPANCY_WARNINGS = 0
CUDA_WARN_ON_IMPLICIT_COPY = 0
# Switches tests set and restore around what they check; loom reads none of them.
CUDA_ENABLE_NRT = 0
DISABLE_PERFORMANCE_WARNINGS = 0
CUDA_ARRAY_INTERFACE_SYNC = 1

__getattr__ = _module_getattr(__name__)
