"""loom.ElementwiseKernel (CuPy's semantics) compared with NumPy; codegen and NVRTC
compile without a GPU, launches on the GPU and on the CPU (the kernel emulator)."""
import numpy as np
import pytest

import loom
from conftest import assert_matches, random_array
from conftest import skip_cpu_kernels as skip_cpu

needs_nvrtc = pytest.mark.skipif(not loom.build_info()["cuda"], reason="loom built without CUDA (no NVRTC)")


def on(device, a):
    return loom.asarray(a, device=device)


def test_attributes_and_docstring():
    k = loom.ElementwiseKernel("T x, raw T y", "T z", "z = x + y[i]", "addraw")
    assert k.name == "addraw"
    assert k.in_params == ("T x", "raw T y")
    assert k.out_params == ("T z",)
    assert "CuPy" in loom.ElementwiseKernel.__doc__


def test_bad_param_lists():
    with pytest.raises(ValueError, match=r"\[ElementwiseKernel k\] .*'floaty'"):
        loom.ElementwiseKernel("floaty x", "T y", "y = x", "k")
    with pytest.raises(ValueError, match="duplicate"):
        loom.ElementwiseKernel("T x, T x", "T y", "y = x", "k")
    with pytest.raises(TypeError, match="float128"):
        loom.ElementwiseKernel("float128 x", "T y", "y = x", "k")


def test_argument_errors(rng):
    k = loom.ElementwiseKernel("T x, T y", "T z", "z = x - y", "sub")
    x = on(loom.cpu(), random_array(rng, (4,), "float32"))
    with pytest.raises(TypeError, match=r"^\[ElementwiseKernel sub\] takes 2 inputs"):
        k._source(x)
    with pytest.raises(TypeError, match="loom.asarray"):
        k._source(x, np.ones(4, np.float32))
    with pytest.raises(TypeError, match="float32.*float64|float64.*float32"):
        k._source(x, on(loom.cpu(), np.ones(4)))
    with pytest.raises(ValueError, match="broadcast"):
        k._source(x, x, on(loom.cpu(), np.ones(3, np.float32)))
    with pytest.raises(TypeError):  # output dtype must match exactly
        k._source(x, x, on(loom.cpu(), np.ones(4)))
    f = loom.ElementwiseKernel("int32 x", "int32 y", "y = x", "ident")
    with pytest.raises(TypeError, match="same_kind"):
        f._source(x)
    raw = loom.ElementwiseKernel("raw T x", "raw T y", "y[i] = x[i]", "rawcopy")
    with pytest.raises(ValueError, match="size"):
        raw._source(x)


@needs_nvrtc
def test_raw_params_compile_given_a_size(rng):
    raw = loom.ElementwiseKernel("raw T x", "raw T y", "y[i] = x[i]", "rawcopy")
    raw._compile(on(loom.cpu(), random_array(rng, (4,), "float32")), size=4)


@needs_nvrtc
@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "int8", "uint64", "bool", "float64"])
def test_codegen_compiles_each_dtype(dtype, rng):
    k = loom.ElementwiseKernel("T x, T y", "T z", "z = x + y", "add_" + dtype)
    x = on(loom.cpu(), random_array(rng, (3, 5), dtype))
    src = k._source(x, x[:, 1:2])  # broadcast: strided form
    assert "_loom_st" in src
    assert ("loom_user_types.cuh" in src) == (dtype in ("float16", "bfloat16"))
    k._compile(x, x[:, 1:2])
    flat = k._source(x, x)
    assert "#include" not in flat or dtype in ("float16", "bfloat16")
    k._compile(x, x)


def test_simple_source_is_small(rng):
    k = loom.ElementwiseKernel("T x", "T y", "y = x * 2", "double_it")
    src = k._source(on(loom.cpu(), random_array(rng, (10,), "float32")))
    assert "#include" not in src and len(src) < 1000, src


def test_broadcast_scalars_and_conversion(device, rng):
    skip_cpu(device)
    k = loom.ElementwiseKernel("T x, T y, float32 s", "T z", "z = x * s + y", "fma_s")
    x = random_array(rng, (3, 4), "float32")
    y = random_array(rng, (4,), "float32")
    z = k(on(device, x), on(device, y), 2.5)
    # The GPU fuses x * s + y into one rounding (FMA): compare with the exact value, within
    # an ulp of the terms (NumPy's two roundings can differ by that when they cancel).
    exact = x.astype(np.float64) * 2.5 + y
    bound = np.finfo(np.float32).eps * (np.abs(x * 2.5) + np.abs(y))
    assert z.dtype == loom.float32 and np.all(np.abs(z.numpy() - exact) <= bound)
    # A weak Python scalar takes T from the arrays.
    k2 = loom.ElementwiseKernel("T x, T y", "T z", "z = x + y", "add_w")
    xi = random_array(rng, (5,), "int16", -100, 100)
    assert_matches(k2(on(device, xi), 3), xi + np.int16(3), device=device)
    # An int16 array feeds a float32 parameter (same_kind), converted on read.
    k3 = loom.ElementwiseKernel("float32 x", "float32 y", "y = x / 2", "half_it")
    assert_matches(k3(on(device, xi)), xi.astype(np.float32) / 2, device=device)


def test_outputs_given_strided_and_tuple(device, rng):
    skip_cpu(device)
    k = loom.ElementwiseKernel("T x", "T y, T z", "y = x + 1; z = x * i", "two", return_tuple=True)
    x = random_array(rng, (6, 5), "float64")
    xt = on(device, x).T  # strided input
    y = loom.empty((5, 6), dtype=loom.float64, device=device)
    z = loom.empty((5, 6), dtype=loom.float64, device=device)
    out = k(xt, y, z)
    assert isinstance(out, tuple) and len(out) == 2
    assert_matches(out[0], x.T + 1, device=device)
    assert_matches(out[1], x.T * np.arange(30).reshape(5, 6), device=device)


def test_raw_params_and_ind_size(device, rng):
    skip_cpu(device)
    k = loom.ElementwiseKernel("raw T x", "T y", "y = x[_ind.size() - 1 - i]", "reverse")
    x = random_array(rng, (7, 3), "int32")
    xs = on(device, x)[:, ::2]  # raw and strided
    y = loom.empty((7, 2), dtype=loom.int32, device=device)
    assert_matches(k(xs, y), x[:, ::2].reshape(-1)[::-1].reshape(7, 2), device=device)
    n = loom.ElementwiseKernel("raw T x", "raw T y", "y[i] = x[i] + x.size()", "rawadd")
    a = random_array(rng, (10,), "int64", -1000, 1000)
    assert_matches(n(on(device, a), size=10), a + 10, device=device)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_half_types(device, rng, dtype):
    skip_cpu(device)
    k = loom.ElementwiseKernel("T x", "T y", "y = x * x + 1", "sq1")
    x = random_array(rng, (33,), dtype, -4, 4)
    xf = x.astype(np.float32)
    assert_matches(k(on(device, x)), (xf * xf + 1).astype(x.dtype), device=device)


def test_empty_zero_d_and_auto_block(device, rng):
    skip_cpu(device)
    k = loom.ElementwiseKernel("T x", "T y", "y = -x", "neg")
    e = k(loom.empty((0, 3), dtype=loom.float32, device=device))
    assert e.shape == (0, 3)
    x0 = random_array(rng, (), "float32")
    assert_matches(k(on(device, x0)), -x0, device=device)
    big = random_array(rng, (100_003,), "float32")
    assert_matches(k(on(device, big), block="auto"), -big, device=device)
    assert_matches(k(on(device, big), block=128), -big, device=device)
    assert k(on(device, big), block=128) is not None
    nr = loom.ElementwiseKernel("T x", "T y", "y = -x", "neg_nr", no_return=True)
    assert nr(on(device, big)) is None


def test_device_mismatch(gpu, rng):
    k = loom.ElementwiseKernel("T x, T y", "T z", "z = x + y", "addm")
    x = random_array(rng, (4,), "float32")
    with pytest.raises(loom.DeviceMismatchError):
        k(loom.asarray(x, device=gpu), loom.asarray(x, device=loom.cpu()))


def test_cpu_launch_runs_on_the_emulator(rng):
    k = loom.ElementwiseKernel("T x", "T y", "y = x + 1", "inc_cpu")
    x = random_array(rng, (4,), "float32")
    np.testing.assert_array_equal(k(loom.asarray(x.copy(), device=loom.cpu())).numpy(), x + np.float32(1))
