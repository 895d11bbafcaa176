"""numba.cuda.cudadrv.error: Numba's driver errors, which loom never raises (its CUDA errors are
loom.LoomError); a test that expects one fails."""


class CudaDriverError(Exception):
    pass


class CudaSupportError(ImportError):
    pass


class NvrtcError(Exception):
    pass
