"""numba.cuda.cudadrv.driver: `driver` (Numba's binding object, whose functions tests replace
to inject failures) is a stand-in that loom never calls, so such a test fails; CudaAPIError is
a class loom never raises."""
from ..._missing import MissingModule


class CudaAPIError(Exception):
    def __init__(self, code, msg):
        self.code = code
        self.msg = msg
        super().__init__(code, msg)


driver = MissingModule("numba.cuda.cudadrv.driver.driver", "loom drives CUDA from C++")


def _have_nvjitlink():
    """Whether Numba could link LTO-IR with nvJitLink: loom links no LTO-IR, so no."""
    return False
