"""numba.cuda.tests: the harness's support module first, then the suite's own files from the
checkout named by $NUMBA_CUDA_DIR (test modules and their use-case modules)."""
import os

_suite = os.environ.get("NUMBA_CUDA_DIR")
if _suite:
    __path__.append(os.path.join(_suite, "numba_cuda", "numba", "cuda", "tests"))
