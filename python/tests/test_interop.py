"""Zero-copy exchange: DLPack with NumPy (both directions), __cuda_array_interface__,
CuPy and PyTorch on the GPU (skipped when they are not installed)."""
import ctypes
import gc

import numpy as np
import pytest

import loom
from conftest import DTYPE_NAMES, NP_DTYPES, assert_matches, random_array

_capsule_is_valid = ctypes.pythonapi.PyCapsule_IsValid
_capsule_is_valid.restype = ctypes.c_int
_capsule_is_valid.argtypes = [ctypes.py_object, ctypes.c_char_p]

NUMPY_DLPACK_DTYPES = [n for n in DTYPE_NAMES if n != "bfloat16"]  # NumPy has no bfloat16


def capsule_name(cap):
    for name in (b"dltensor", b"dltensor_versioned", b"used_dltensor", b"used_dltensor_versioned"):
        if _capsule_is_valid(cap, name):
            return name.decode()
    return None


@pytest.mark.parametrize("name", NUMPY_DLPACK_DTYPES)
def test_numpy_from_loom_shares_memory(name, rng):
    a = random_array(rng, (4, 6), NP_DTYPES[name])
    x = loom.array(a, device=loom.cpu())
    for view in (x, x.T):
        n = np.from_dlpack(view)
        assert n.dtype == a.dtype and n.shape == view.shape
        np.testing.assert_array_equal(n, a if view is x else a.T)
    n = np.from_dlpack(x)
    n[1, 2] = n[0, 0] if name == "bool" else n[0, 0] + np.ones((), a.dtype)
    assert x.numpy()[1, 2] == n[1, 2]
    assert np.asarray(x.copy())[1, 2] == n[1, 2]


@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_loom_from_numpy_shares_memory(name, rng):
    a = random_array(rng, (5, 4), NP_DTYPES[name])
    if name == "bfloat16":
        # NumPy cannot export bfloat16 through DLPack: a loom-made capsule stands in.
        a_loom = loom.array(a, device="cpu")
        x = loom.from_dlpack(a_loom.__dlpack__())
        assert_matches(x, a, exact=True)
        a_loom.numpy()[0, 0] = 3.0
        assert float(x.numpy()[0, 0]) == 3.0
        return
    for src in (a, a[::-1, 1::2]):
        x = loom.from_dlpack(src)
        assert x.device == loom.cpu()
        assert_matches(x, src, exact=True)
    x = loom.from_dlpack(a)
    a[2, 3] = a[0, 0] if name == "bool" else a[0, 0] + np.ones((), a.dtype)
    assert x.numpy()[2, 3] == a[2, 3]
    del a
    gc.collect()
    assert x.numpy().shape == (5, 4)  # the producer is kept alive by the loom array


def test_from_dlpack_read_only_numpy_is_copied(rng):
    a = random_array(rng, (6,), np.float32)
    ro = a.view()
    ro.flags.writeable = False
    x = loom.from_dlpack(ro)
    a[0] = 42.0
    assert x.numpy()[0] != 42.0


def test_capsules(device, rng):
    x = loom.asarray(random_array(rng, (3, 2), np.float32), device=device)
    assert capsule_name(x.__dlpack__()) == "dltensor"
    assert capsule_name(x.__dlpack__(max_version=(0, 8))) == "dltensor"
    assert capsule_name(x.__dlpack__(max_version=(1, 0))) == "dltensor_versioned"
    assert capsule_name(x.__dlpack__(max_version=(1, 3))) == "dltensor_versioned"
    want = (1, 0) if device.type == "cpu" else (2, device.index)
    assert tuple(x.__dlpack_device__()) == want
    cap = x.__dlpack__(max_version=(1, 0))
    y = loom.from_dlpack(cap)
    assert capsule_name(cap) == "used_dltensor_versioned"
    assert y.device == device
    assert_matches(y, x.numpy(), exact=True)
    with pytest.raises(ValueError):
        loom.from_dlpack(cap)  # consumed
    assert loom.from_dlpack(x) is x


def test_capsule_keeps_the_buffer_alive(device, rng):
    a = random_array(rng, (1000,), np.int64)
    base = loom.memory.stats(device)["in_use"]
    x = loom.array(a, device=device)
    cap = x.__dlpack__()
    del x
    gc.collect()
    assert loom.memory.stats(device)["in_use"] >= base + a.nbytes
    y = loom.from_dlpack(cap)
    assert_matches(y, a)
    del y, cap
    gc.collect()
    unused = loom.array(a, device=device).__dlpack__(max_version=(1, 0))  # never consumed
    del unused
    gc.collect()
    assert loom.memory.stats(device)["in_use"] == base


def test_dlpack_copy_and_device_arguments(device, rng):
    a = random_array(rng, (4,), np.float64)
    x = loom.array(a, device=device)
    y = loom.from_dlpack(x.__dlpack__(max_version=(1, 0), copy=True))
    assert_matches(y, a, device=device)
    host = np.from_dlpack(x, device="cpu")  # dl_device=(1, 0): a host copy for GPU arrays
    np.testing.assert_array_equal(host, a)
    if device.type == "cuda":
        with pytest.raises(BufferError):
            x.__dlpack__(dl_device=(1, 0), copy=False)
    z = loom.from_dlpack(a, device=device)
    assert_matches(z, a, device=device)


def test_cuda_array_interface_absent_on_cpu():
    x = loom.zeros(3, device="cpu")
    assert not hasattr(x, "__cuda_array_interface__")
    with pytest.raises(AttributeError):
        x.__cuda_array_interface__


@pytest.mark.gpu
def test_cuda_array_interface_on_gpu(gpu, rng):
    a = random_array(rng, (4, 6), np.float32)
    x = loom.asarray(a, device=gpu)
    cai = x.__cuda_array_interface__
    assert cai["version"] == 3
    assert cai["shape"] == (4, 6)
    assert cai["typestr"] == "<f4"
    assert cai["descr"] == [("", "<f4")]
    assert cai["strides"] is None
    ptr, ro = cai["data"]
    assert isinstance(ptr, int) and ptr != 0 and ro is False
    assert isinstance(cai["stream"], int) and cai["stream"] != 0
    t = x.T.__cuda_array_interface__
    assert t["shape"] == (6, 4) and t["strides"] == (4, 24) and t["data"][0] == ptr
    assert loom.asarray(np.zeros(2, np.bool_), device=gpu).__cuda_array_interface__["typestr"] == "|b1"


@pytest.mark.gpu
def test_cuda_array_interface_import_is_zero_copy(gpu, rng):
    a = random_array(rng, (5, 3), np.int32)
    x = loom.asarray(a, device=gpu)

    class Producer:
        def __init__(self, cai):
            self.__cuda_array_interface__ = cai

    p = Producer(x.T.__cuda_array_interface__)
    y = loom.asarray(p)
    assert y.device == gpu and y.shape == (3, 5)
    assert y.__cuda_array_interface__["data"][0] == x.__cuda_array_interface__["data"][0]
    assert_matches(y, a.T, exact=True)
    ro = dict(x.__cuda_array_interface__, data=(x.__cuda_array_interface__["data"][0], True))
    z = loom.asarray(Producer(ro))
    assert z.__cuda_array_interface__["data"][0] != ro["data"][0]  # read-only memory is copied
    assert_matches(z, a, exact=True)


@pytest.mark.gpu
def test_cupy_interop(gpu, rng):
    cupy = pytest.importorskip("cupy")
    a = random_array(rng, (8, 3), np.float32)
    x = loom.asarray(a, device=gpu)
    c = cupy.asarray(x)  # __cuda_array_interface__
    assert c.data.ptr == x.__cuda_array_interface__["data"][0]
    c[0, 0] = 5.0
    assert x.numpy()[0, 0] == 5.0
    d = cupy.from_dlpack(x)
    assert d.data.ptr == c.data.ptr
    src = cupy.arange(12, dtype=cupy.float64).reshape(3, 4)
    y = loom.asarray(src)
    assert y.device == gpu and y.__cuda_array_interface__["data"][0] == src.data.ptr
    z = loom.from_dlpack(src)
    src[1, 1] = -1.0
    assert z.numpy()[1, 1] == -1.0 and y.numpy()[1, 1] == -1.0


@pytest.mark.gpu
def test_torch_gpu_interop(gpu, rng):
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch without CUDA")
    a = random_array(rng, (4, 5), np.float32)
    x = loom.asarray(a, device=gpu)
    t = torch.from_dlpack(x)
    assert t.is_cuda and t.data_ptr() == x.__cuda_array_interface__["data"][0]
    t[0, 0] = 7.0
    assert x.numpy()[0, 0] == 7.0
    src = torch.arange(10, dtype=torch.bfloat16, device="cuda")
    y = loom.from_dlpack(src)
    assert y.dtype == loom.bfloat16 and y.device == gpu
    src[3] = 100.0
    assert float(y.numpy()[3]) == 100.0
    w = loom.asarray(torch.ones(3, 3, device="cuda"))
    assert w.device == gpu and w.numpy().sum() == 9.0


def test_torch_cpu_interop(rng):
    torch = pytest.importorskip("torch")
    a = random_array(rng, (3, 4), np.float32)
    x = loom.array(a, device="cpu")
    t = torch.from_dlpack(x)
    t[0, 0] = 9.0
    assert x.numpy()[0, 0] == 9.0
    b = loom.array(np.ones(4, np.float32), device="cpu").astype(loom.bfloat16)
    tb = torch.from_dlpack(b)
    assert tb.dtype == torch.bfloat16 and tb.sum().item() == 4.0
    y = loom.from_dlpack(torch.arange(6))
    assert y.dtype == loom.int64 and y.tolist() == list(range(6))
