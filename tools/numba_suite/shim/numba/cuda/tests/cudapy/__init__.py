"""numba.cuda.tests.cudapy: the test files of the checkout named by $NUMBA_CUDA_DIR (its own
__init__.py, a unittest loader, is not run)."""
import os

_suite = os.environ.get("NUMBA_CUDA_DIR")
if _suite:
    __path__.append(os.path.join(_suite, "numba_cuda", "numba", "cuda", "tests", "cudapy"))
