"""A device array named by a kernel as a global or closure variable (pykernel/intrinsics.py
device_array_global), as Numba passes it: by pointer, on every device. The kernel reads and
writes the array itself (writes on either side are seen by the other), keeps it alive, binds
the array the name held when it compiled (as Numba freezes globals), and refuses an array on
another device than the kernel's."""
import gc

import numpy as np
import pytest

import loom
from loom import cuda
from conftest import skip_cpu_kernels

table = None  # set by the tests: a loom array the kernels below read as a global


@cuda.jit
def gather(out, idx):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = table[idx[i]]


def make_counter(counts):
    @cuda.jit
    def count(keys):
        i = cuda.grid(1)
        if i < keys.size:
            cuda.atomic.add(counts, keys[i], 1)  # a closure variable, written by the kernel
    return count


def test_a_global_device_array_is_read_by_pointer(device, rng):
    skip_cpu_kernels(device)
    global table
    dev = loom.Device(device)
    values = rng.standard_normal(50)
    table = loom.array(values, device=dev)
    kernel = cuda.jit(gather.py_func)  # a fresh dispatcher: compiled against this table
    idx = rng.integers(0, 50, 40)
    out = loom.zeros(40, device=dev)
    kernel[1, 64](out, loom.asarray(idx, device=dev))
    np.testing.assert_array_equal(out.to(loom.cpu()).numpy(), values[idx])

    table[...] = loom.asarray(-values, device=dev)  # the kernel sees later writes: no copy was frozen
    kernel[1, 64](out, loom.asarray(idx, device=dev))
    np.testing.assert_array_equal(out.to(loom.cpu()).numpy(), -values[idx])

    old = table
    table = loom.zeros(50, device=dev)  # rebinding the name: the compiled kernel keeps its array
    del old
    gc.collect()
    _ = [loom.ones(50, device=dev) for _ in range(20)]  # memory that would reuse a freed table
    kernel[1, 64](out, loom.asarray(idx, device=dev))
    np.testing.assert_array_equal(out.to(loom.cpu()).numpy(), -values[idx])


def test_a_closure_device_array_is_written_by_the_kernel(device, rng):
    skip_cpu_kernels(device)
    dev = loom.Device(device)
    counts = loom.zeros(8, dtype=loom.int32, device=dev)
    keys = rng.integers(0, 8, 500)
    make_counter(counts)[(500 + 127) // 128, 128](loom.asarray(keys, device=dev))
    np.testing.assert_array_equal(counts.to(loom.cpu()).numpy(), np.bincount(keys, minlength=8))


def test_an_array_on_another_device_is_refused(gpu):
    global table
    table = loom.zeros(4, device=loom.cpu())
    kernel = cuda.jit(gather.py_func)
    out = loom.zeros(4, device=loom.gpu(0))
    with pytest.raises(cuda.TypingError, match=r"global device array is on cpu\(\) but the kernel is compiled for "
                                               r"gpu\(0\)"):
        kernel[1, 32](out, loom.zeros(4, dtype=loom.int64, device=loom.gpu(0)))


@pytest.mark.skipif(not loom.build_info()["cuda"], reason="loom built without CUDA (no NVRTC)")
def test_generated_source_compiles_with_nvrtc_without_a_gpu():
    """The baked-in pointer form is valid CUDA C++ for NVRTC too (here with a cpu() address)."""
    global table
    from loom.pykernel import types as T
    from loom.pykernel.compiler import translate_kernel
    table = loom.zeros((5, 3), device=loom.cpu())[:, 1]  # strided: the view's element strides
    with loom.device(loom.cpu()):  # the kernel's device, where the array is (a GPU machine's default is gpu(0))
        src, _ = translate_kernel(gather.py_func, (T.Array("float64", 1, "C"), T.Array("int64", 1, "C")))
    assert "{3LL}" in src  # stride of the column view, in elements
    loom.RawModule(src).compile(90)
