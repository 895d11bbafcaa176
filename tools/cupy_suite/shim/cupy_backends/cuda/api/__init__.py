"""cupy_backends.cuda.api: the runtime and driver facts (cupy.cuda.runtime and driver of the shim)."""
from cupy.cuda import driver, runtime  # noqa: F401
