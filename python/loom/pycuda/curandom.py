"""pycuda.curandom over loom.random: uniform arrays on the current device."""
import numpy as np

import loom

from ._context import Context


def rand(shape, dtype=np.float32, stream=None):
    """Uniform samples in [0, 1) of `shape` and float `dtype` (or integers of an integer dtype,
    as PyCUDA's: uniform over the type's range) on the current device."""
    dtype = np.dtype(dtype)
    device = Context.get_device().loom_device
    if dtype.kind == "f":
        return loom.random.random(shape, dtype=dtype, device=device)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return loom.random.randint(info.min, info.max, size=shape, dtype=dtype, device=device)
    if dtype.kind == "c":
        real = np.empty(0, dtype).real.dtype
        return (loom.random.random(shape, dtype=real, device=device)
                + 1j * loom.random.random(shape, dtype=real, device=device)).astype(dtype)
    raise NotImplementedError(f"[curandom.rand] no random numbers of dtype {dtype}")


def get_curand_version():
    """None: loom's generator is its own counter-based Philox, not cuRAND's; the cuRAND-backed
    generator classes are not provided."""
    return None
