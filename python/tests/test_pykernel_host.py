"""The host side of loom.cuda (Numba's names) and the kernel options: to_device,
device_array, pinned_array, gpus, select_device, streams; arguments through the CUDA array
interface and DLPack; constant arrays; fastmath/lineinfo/debug; the bit intrinsics."""
import numpy as np
import pytest

import loom
from loom import cuda

COEFFS = np.array([0.5, -1.0, 2.0, 0.25], dtype=np.float64)


@cuda.jit
def poly(x, out):
    c = cuda.const.array_like(COEFFS)
    i = cuda.grid(1)
    if i < x.size:
        acc = 0.0
        for k in range(c.shape[0] - 1, -1, -1):
            acc = acc * x[i] + c[k]
        out[i] = acc


def test_const_array_like(device, rng):
    x = rng.random(300)
    out = loom.zeros(300, dtype=loom.float64, device=device)
    poly[3, 128](loom.asarray(x, device=device), out)
    np.testing.assert_allclose(out.numpy(), np.polynomial.polynomial.polyval(x, COEFFS), rtol=1e-12)


@pytest.mark.parametrize("opts", [{"fastmath": True}, {"lineinfo": True}, {"debug": True}])
def test_options_compile_and_run(device, rng, opts):
    @cuda.jit(**opts)
    def scaled(x, out):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = x[i] * 3.0 + 1.0

    x = rng.random(100, dtype=np.float32)
    out = loom.zeros(100, dtype=loom.float32, device=device)
    scaled[1, 128](loom.asarray(x, device=device), out)
    np.testing.assert_allclose(out.numpy(), x * 3 + 1, rtol=1e-5)


@cuda.jit
def bits(x, out):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        out[i, 0] = cuda.popc(v)
        out[i, 1] = cuda.brev(v)
        out[i, 2] = cuda.clz(v)
        out[i, 3] = cuda.ffs(v)
        out[i, 4] = cuda.selp(v > 1000, 1, 2)
        cuda.threadfence()
        cuda.threadfence_block()


def test_bit_intrinsics(device, rng):
    x = rng.integers(0, 2**31, 64).astype(np.uint32)
    x[0] = 0
    out = loom.zeros((64, 5), dtype=loom.int64, device=device)
    bits[1, 64](loom.asarray(x, device=device), out)
    o = out.numpy()
    ints = [int(v) for v in x]
    np.testing.assert_array_equal(o[:, 0], [bin(v).count("1") for v in ints])
    np.testing.assert_array_equal(o[:, 1], [int(f"{v:032b}"[::-1], 2) for v in ints])
    np.testing.assert_array_equal(o[:, 2], [32 - v.bit_length() for v in ints])
    np.testing.assert_array_equal(o[:, 3], [(v & -v).bit_length() for v in ints])
    np.testing.assert_array_equal(o[:, 4], np.where(x > 1000, 1, 2))


@cuda.jit
def fma_cbrt(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = cuda.fma(x[i], 2.0, 1.0) + cuda.cbrt(x[i])


def test_fma_and_cbrt(device, rng):
    x = rng.random(50)
    out = loom.zeros(50, dtype=loom.float64, device=device)
    fma_cbrt[1, 64](loom.asarray(x, device=device), out)
    np.testing.assert_allclose(out.numpy(), x * 2 + 1 + np.cbrt(x), rtol=1e-12)


@cuda.jit
def inc(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] += 1


def test_pinned_arrays_and_streams(rng):
    h = cuda.pinned_array(100, dtype=np.float32)
    h[:] = rng.random(100, dtype=np.float32)
    want = h + 1
    s = cuda.stream()
    d = cuda.to_device(h)
    inc[1, 128, s](d)
    s.synchronize()
    np.testing.assert_allclose(d.copy_to_host(), want)
    assert cuda.pinned_array_like(h).shape == (100,)


def test_numpy_scalar_types_and_read_only_arrays(rng):
    x = rng.random(10)
    x.flags.writeable = False  # read-only NumPy input: copied in, never copied back
    out = np.zeros(10)

    @cuda.jit
    def copy(a, b):
        i = cuda.grid(1)
        if i < a.size:
            b[i] = a[i]

    copy[1, 16](x, out)
    np.testing.assert_array_equal(out, x)


def test_dlpack_argument(device, rng):
    torch = pytest.importorskip("torch")
    if device.type == "cuda" and not torch.cuda.is_available():
        pytest.skip("torch without CUDA")
    t = torch.zeros(64, dtype=torch.float32, device="cuda:0" if device.type == "cuda" else "cpu")
    inc[1, 64](t)
    loom.synchronize()
    assert float(t.sum()) == 64


@pytest.mark.gpu
def test_cuda_array_interface_argument_writes_in_place():
    cupy = pytest.importorskip("cupy")
    a = cupy.arange(10, dtype=cupy.float32)
    inc[1, 16](a)
    cupy.cuda.Device().synchronize()
    np.testing.assert_array_equal(cupy.asnumpy(a), np.arange(10) + 1)


@pytest.mark.gpu
def test_gpus_and_select_device():
    assert len(cuda.gpus) == loom.num_gpus() >= 1
    with cuda.gpus[0]:
        assert loom.default_device() == loom.gpu(0)
    old = loom.default_device()
    try:
        assert cuda.select_device(0) == loom.gpu(0)
        assert cuda.get_current_device() == loom.gpu(0)
    finally:
        loom.set_default_device(old)
    assert cuda.is_available()


def test_without_a_gpu_the_code_still_runs_on_cpu():
    if loom.num_gpus():
        pytest.skip("a GPU is present")
    assert not cuda.is_available() and len(cuda.gpus) == 0
    d = cuda.to_device(np.arange(5.0))
    assert d.device == loom.cpu()
    inc[1, 8](d)
    np.testing.assert_array_equal(d.copy_to_host(), np.arange(5.0) + 1)
