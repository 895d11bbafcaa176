"""cupy_backends as far as the suite's tests read it: cupy_backends.cuda.api.runtime and driver
are the shim's cupy.cuda.runtime and driver (HIP or CUDA, the versions loom was built with)."""
