"""loom.pycuda.gpuarray, cumath, curandom and tools on every device, against NumPy on fresh
random data: GPUArray is loom's ndarray with PyCUDA's methods and module functions."""
import numpy as np
import pytest

import loom
import loom.pycuda.driver as drv
from loom.pycuda import cumath, curandom, gpuarray, tools


@pytest.fixture
def ctx(device):
    with loom.device(device):
        c = drv.Device(0).make_context()
        yield c
        c.pop()


def test_arrays_are_loom_arrays_on_the_context_device(ctx, device, rng):
    a = rng.standard_normal((7, 5)).astype(np.float32)
    g = gpuarray.to_gpu(a)
    assert isinstance(g, gpuarray.GPUArray) and isinstance(2 * g, gpuarray.GPUArray)
    assert g.device == device
    host = g.get()
    host[0, 0] = 99  # get() is a copy, also on cpu() where memory is shared
    np.testing.assert_array_equal(g.get(), a)
    np.testing.assert_array_equal((g - 3 * g + (-g)).get(), a - 3 * a - a)
    out = np.empty_like(a)
    assert g.get(out) is out and np.array_equal(out, a)
    g.set(a[::-1].copy())
    np.testing.assert_array_equal(g.get(), a[::-1])
    f = rng.standard_normal((6, 9)).copy(order="F")
    assert gpuarray.to_gpu(f).strides == f.strides


def test_creation(ctx):
    assert gpuarray.empty(np.int32(17), np.float32).shape == (17,)
    assert gpuarray.empty(np.array([2, 3]), np.float32).shape == (2, 3)
    np.testing.assert_array_equal(gpuarray.zeros((3, 4), np.int16).get(), np.zeros((3, 4), np.int16))
    np.testing.assert_array_equal(gpuarray.ones(5).get(), np.ones(5))
    assert gpuarray.zeros((3, 4), order="F").flags.f_contiguous
    np.testing.assert_array_equal(gpuarray.arange(3, 20, 4, dtype=np.int32).get(), np.arange(3, 20, 4))
    like = gpuarray.zeros_like(gpuarray.empty((2, 3), np.float32))
    assert like.dtype == np.float32 and float(gpuarray.sum(like).get()) == 0


def test_views_of_device_memory(ctx, rng):
    a = rng.standard_normal((30, 10)).astype(np.float32)
    g = gpuarray.to_gpu(a)
    f = gpuarray.GPUArray((10, 30), np.float32, gpudata=g.gpudata, order="F")
    np.testing.assert_array_equal(f.get(), a.ravel().reshape(10, 30, order="F"))  # the same bytes
    alloc = drv.to_device(a)
    v = gpuarray.GPUArray(a.shape, a.dtype, gpudata=alloc)
    del alloc  # the view keeps the allocation
    np.testing.assert_array_equal(v.get(), a)
    np.testing.assert_array_equal(g.view(np.int32).get(), a.view(np.int32))
    assert int(g.gpudata) == g.ptr and g.mem_size == a.size
    np.testing.assert_array_equal(g.reverse().get(), a[::-1])


def test_reductions_and_selection(ctx, rng):
    a = rng.uniform(0, 10, 2000)
    b = rng.uniform(0, 10, 2000)
    ga, gb = gpuarray.to_gpu(a), gpuarray.to_gpu(b)
    idx = np.sort(rng.choice(2000, 700, replace=False)).astype(np.int32)
    gi = gpuarray.to_gpu(idx)
    np.testing.assert_allclose(gpuarray.sum(ga).get(), a.sum())
    np.testing.assert_allclose(gpuarray.dot(ga, gb).get(), np.dot(a, b))
    np.testing.assert_allclose(gpuarray.subset_sum(gi, ga).get(), a[idx].sum())
    assert gpuarray.subset_min(gi, ga).get() == a[idx].min()
    assert gpuarray.max(ga).get() == a.max()
    np.testing.assert_array_equal(gpuarray.take(ga, gi).get(), a[idx])
    np.testing.assert_array_equal(gpuarray.minimum(ga, 5.0).get(), np.minimum(a, 5.0))
    np.testing.assert_array_equal(gpuarray.if_positive(ga - 5, ga, gb).get(), np.where(a > 5, a, b))
    np.testing.assert_array_equal(gpuarray.where(ga > 5, ga, gb).get(), np.where(a > 5, a, b))
    np.testing.assert_allclose(ga.mul_add(2, gb, 3).get(), 2 * a + 3 * b, rtol=1e-15)
    calls = []
    pool = tools.DeviceMemoryPool()

    def allocator(n):
        calls.append(n)
        return pool.allocate(n)
    np.testing.assert_allclose(gpuarray.sum(ga, allocator=allocator).get(), a.sum())
    assert len(calls) == 1


def test_fill_and_concatenate(ctx, rng):
    parts = [rng.standard_normal(n) for n in (3, 5, 2)]
    np.testing.assert_array_equal(gpuarray.concatenate([gpuarray.to_gpu(p) for p in parts]).get(),
                                  np.concatenate(parts))
    x = gpuarray.empty((4, 4), np.float32).fill(2.5)
    np.testing.assert_array_equal(x.get(), np.full((4, 4), 2.5, np.float32))


@pytest.mark.parametrize("name, np_name", [("sqrt", "sqrt"), ("asin", "arcsin"), ("exp", "exp"), ("fabs", "fabs")])
def test_cumath_out_and_stream_positionally(ctx, rng, name, np_name):
    a = rng.uniform(0.1, 0.9, 300)
    g = gpuarray.to_gpu(a)
    fn, want = getattr(cumath, name), getattr(np, np_name)(a)
    np.testing.assert_allclose(fn(g).get(), want, rtol=1e-12)
    out = gpuarray.empty_like(g)
    assert fn(g, out) is out
    np.testing.assert_allclose(out.get(), want, rtol=1e-12)
    np.testing.assert_allclose(fn(g, drv.Stream()).get(), want, rtol=1e-12)


def test_cumath_pairs(ctx, rng):
    a = rng.uniform(-5, 5, 200).astype(np.float32)
    sig, ex = cumath.frexp(gpuarray.to_gpu(a))
    np.testing.assert_array_equal(sig.get() * 2.0 ** ex.get(), a)
    frac, whole = cumath.modf(gpuarray.to_gpu(a))
    np.testing.assert_array_equal(frac.get() + whole.get(), a)
    e = rng.uniform(0, 8, 200).astype(np.float32)
    np.testing.assert_array_equal(cumath.ldexp(gpuarray.to_gpu(a), gpuarray.to_gpu(e)).get(),
                                  np.ldexp(a, e.astype(np.int32)))


def test_curandom_rand(ctx):
    for dtype in (np.float32, np.float64):
        x = curandom.rand((100, 50), dtype).get()
        assert x.dtype == dtype and (x >= 0).all() and (x < 1).all() and 0.45 < x.mean() < 0.55


def test_tools():
    assert [tools.bitlog2(v) for v in (17, 0xAFFE, 0x3AFFE)] == [4, 15, 17]
    assert tools.dtype_to_ctype(np.uint32) == "unsigned int"
    assert tools.dtype_to_ctype(gpuarray.vec.float3) == "float3"
    with pytest.raises(ValueError, match="unable to map"):
        tools.dtype_to_ctype(np.dtype("U3"))
    arg = tools.parse_c_arg("const float *x")
    assert isinstance(arg, tools.VectorArg) and arg.dtype == np.float32 and arg.name == "x"
    pool = tools.DeviceMemoryPool()
    rng = np.random.default_rng()
    for s in rng.integers(1, 1 << 31, 500):
        nr = pool.bin_number(int(s))
        size = pool.alloc_size(nr)
        assert size >= s and pool.bin_number(size) == nr and size < s * (1 + 1 / 8)
