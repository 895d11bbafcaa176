"""numba.cuda.testing, the harness's own minimal version: the test-case class and the skip
decorators Numba's CUDA tests import, with the meaning they have on a real GPU. loom's cpu()
compiles kernels to native code (it is not Numba's simulator), so "skip on cudasim" skips
nothing and "skip unless cudasim" skips; Numba's CPU target is never there (HAS_NUMBA)."""
import os
import platform
import unittest
from pathlib import Path

import loom

from numba.cuda import HAS_NUMBA
from numba.cuda.core import config
from numba.cuda.tests.support import TestCase


def _suite_dir():
    d = os.environ.get("NUMBA_CUDA_DIR")
    return Path(d) / "numba_cuda" / "numba" / "cuda" if d else Path(__file__).parent


numba_cuda_dir = _suite_dir()
test_data_dir = numba_cuda_dir / "tests" / "data"


class CUDATestCase(TestCase):
    """For tests that use a CUDA device (loom's default device: a GPU, else cpu())."""

    FLOAT16_RTOL = 0.0009765625  # float16's machine epsilon
    _dump_failed_filechecks = False

    def assertFileCheckAsm(self, ir_producer, signature=None, check_prefixes=("ASM",), **options):
        # loom's dispatchers have no inspect_asm (they compile CUDA C++): this raises there.
        self.assertFileCheckMatches(_ir(ir_producer.inspect_asm(), signature), ir_producer.__doc__,
                                    check_prefixes, **options)

    def assertFileCheckLLVM(self, ir_producer, signature=None, check_prefixes=("LLVM",), **options):
        self.assertFileCheckMatches(_ir(ir_producer.inspect_llvm(), signature), ir_producer.__doc__,
                                    check_prefixes, **options)

    def assertFileCheckMatches(self, ir_content, check_patterns, check_prefixes=("CHECK",), **options):
        raise NotImplementedError("FileCheck of LLVM IR/PTX text: loom generates CUDA C++, not LLVM IR or PTX")


def _ir(result, signature):
    if isinstance(result, str):
        return result
    return result[signature] if signature is not None else "\n".join(result.values())


def skip_on_cudasim(reason):
    assert isinstance(reason, str)
    return unittest.skipIf(config.ENABLE_CUDASIM, reason)


def skip_unless_cudasim(reason):
    assert isinstance(reason, str)
    return unittest.skipUnless(config.ENABLE_CUDASIM, reason)


skip_on_standalone_numba_cuda = unittest.skipUnless(HAS_NUMBA, "requires base numba install")


def skip_unless_conda_cudatoolkit(reason):
    return unittest.skip(reason)


def skip_if_external_memmgr(reason):
    return unittest.skipIf(config.CUDA_MEMORY_MANAGER != "default", reason)


def skip_under_cuda_memcheck(reason):
    return unittest.skipIf(os.environ.get("CUDA_MEMCHECK") is not None, reason)


def skip_without_nvdisasm(reason):
    return unittest.skip(reason)  # loom produces no SASS to disassemble


def skip_with_nvdisasm(reason):
    return lambda fn: fn


def skip_on_arm(reason):
    return unittest.skipIf(platform.machine().lower().startswith(("arm", "aarch")), reason)


def skip_on_wsl2(reason):
    return unittest.skipIf("wsl2" in platform.release().lower(), reason)


def _cuda_include_dir():
    for d in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if d and os.path.isfile(os.path.join(d, "include", "cuda.h")):
            return os.path.join(d, "include")
    return None


def skip_if_cuda_includes_missing(fn):
    return unittest.skipIf(_cuda_include_dir() is None, "CUDA include dir not available on this system")(fn)


def skip_if_curand_kernel_missing(fn):
    inc = _cuda_include_dir()
    ok = inc is not None and os.path.isfile(os.path.join(inc, "curand_kernel.h"))
    return unittest.skipUnless(ok, "curand_kernel.h not available on this system")(fn)


def cc_X_or_above(major, minor):
    """The default device's compute capability; on cpu() the emulator claims every feature
    (as Numba's simulator does)."""
    dev = loom.default_device()
    if dev.type != "cuda":
        return True
    return tuple(dev.compute_capability) >= (major, minor)


def skip_unless_cc_50(fn):
    return unittest.skipUnless(cc_X_or_above(5, 0), "requires cc >= 5.0")(fn)


def skip_unless_cc_53(fn):
    return unittest.skipUnless(cc_X_or_above(5, 3), "requires cc >= 5.3")(fn)


def skip_unless_cc_60(fn):
    return unittest.skipUnless(cc_X_or_above(6, 0), "requires cc >= 6.0")(fn)


def skip_unless_cc_75(fn):
    return unittest.skipUnless(cc_X_or_above(7, 5), "requires cc >= 7.5")(fn)


def skip_unless_cc_90(fn):
    return unittest.skipUnless(cc_X_or_above(9, 0), "requires cc >= 9.0")(fn)


def xfail_unless_cudasim(fn):
    return fn if config.ENABLE_CUDASIM else unittest.expectedFailure(fn)


def cudadevrt_missing():
    return False  # what the device runtime enables (cooperative launches) is loom's to provide


def skip_if_cudadevrt_missing(fn):
    return fn


def skip_if_nvjitlink_missing(reason):
    return lambda fn: fn  # linking foreign code is loom's to provide: run, and fail if it cannot


def skip_on_nvjitlink_13_1_sm_120(reason):
    return lambda fn: fn


class ForeignArray:
    """An array from another library, seen only through the CUDA Array Interface."""

    def __init__(self, arr):
        self._arr = arr
        self.__cuda_array_interface__ = arr.__cuda_array_interface__
