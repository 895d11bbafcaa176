"""loom.ReductionKernel (CuPy's semantics) compared with NumPy; codegen and NVRTC compile
without a GPU, launches on the GPU and on the CPU (the kernel emulator)."""
import numpy as np
import pytest

import loom
from conftest import assert_matches, random_array
from conftest import skip_cpu_kernels as skip_cpu


def on(device, a):
    return loom.asarray(a, device=device)


def sumsq():
    return loom.ReductionKernel("T x", "T y", "x * x", "a + b", "y = a", "0", "sumsq")


def test_attributes_and_errors(rng):
    k = loom.ReductionKernel("T x, T w", "float32 y", "x * w", "a + b", "y = a", "0", "wdot")
    assert (k.name, k.in_params, k.out_params) == ("wdot", ("T x", "T w"), ("float32 y",))
    assert "CuPy" in loom.ReductionKernel.__doc__
    x = on(loom.cpu(), random_array(rng, (3, 4), "float32"))
    with pytest.raises(TypeError, match=r"^\[ReductionKernel wdot\] takes 2 inputs"):
        k._source(x)
    with pytest.raises(TypeError, match="loom.asarray"):
        k._source(x, np.ones(4, np.float32))
    with pytest.raises(np.exceptions.AxisError):
        k._source(x, x, axis=2)
    with pytest.raises(ValueError, match="repeated"):
        k._source(x, x, axis=(1, -1))
    with pytest.raises(ValueError, match="identity"):
        nid = loom.ReductionKernel("T x", "T y", "x", "max(a, b)", "y = a", None, "mx")
        nid._source(on(loom.cpu(), np.zeros((0,), np.float32)))
    with pytest.raises(ValueError, match="raw"):
        loom.ReductionKernel("raw T x", "T y", "x", "a + b", "y = a", "0", "r")


@pytest.mark.skipif(not loom.build_info()["cuda"], reason="loom built without CUDA (no NVRTC)")
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 2), -1])
def test_codegen_compiles(rng, axis):
    x = on(loom.cpu(), random_array(rng, (3, 4, 5), "float16"))
    k = loom.ReductionKernel("T x", "float32 y", "x", "a + b", "y = a", "0", "h_sum")
    src = k._source(x, axis=axis)
    assert "loom_user_types.cuh" in src and "typedef float _type_reduce;" in src
    k._compile(x, axis=axis)
    nid = loom.ReductionKernel("T x, T y", "T z", "x * y", "a + b", "z = a", None, "dot_nid")
    assert "bool ok;" in nid._source(x, x, axis=axis)
    nid._compile(x, x, axis=axis)


@pytest.mark.parametrize("shape,axis", [((1000,), None), ((3, 70000), 1), ((70000, 3), 0), ((4, 5, 6), (0, 2)),
                                        ((257, 33), None), ((5, 4), ()), ((2, 3, 4), -1)])
def test_sum_of_squares(device, rng, shape, axis):
    skip_cpu(device)
    x = random_array(rng, shape, "float64")
    want = np.sum(x * x, axis=axis)
    assert_matches(sumsq()(on(device, x), axis=axis), want, device=device, rtol=1e-10)


def test_full_reduction_large_and_keepdims(device, rng):
    skip_cpu(device)
    x = random_array(rng, (3_000_001,), "float32", -1, 1)
    got = sumsq()(on(device, x), keepdims=True)
    assert_matches(got, np.sum(x.astype(np.float64) ** 2, keepdims=True).astype(np.float32), device=device, rtol=1e-4)
    xt = random_array(rng, (300, 200), "float32", -1, 1)
    got = sumsq()(on(device, xt).T, axis=1, keepdims=True)  # strided rows
    assert_matches(got, np.sum(xt.T.astype(np.float64) ** 2, axis=1, keepdims=True), dtype=np.float32,
                   device=device, rtol=1e-5)


def test_l2_norm_post_map(device, rng):
    skip_cpu(device)
    k = loom.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")
    x = random_array(rng, (40, 50), "float32")
    assert_matches(k(on(device, x), axis=1), np.sqrt(np.sum(x.astype(np.float64) ** 2, axis=1)), dtype=np.float32,
                   device=device, rtol=1e-5)


def test_max_with_identity_and_without(device, rng):
    skip_cpu(device)
    x = random_array(rng, (64, 129), "float32")
    k = loom.ReductionKernel("T x", "T y", "x", "max(a, b)", "y = a", "-3.0e38f", "kmax")
    assert_matches(k(on(device, x), axis=0), x.max(axis=0), device=device, exact=True)
    n = loom.ReductionKernel("T x", "T y", "x", "min(a, b)", "y = a", None, "kmin")
    assert_matches(n(on(device, x)), x.min(), device=device, exact=True)
    assert_matches(n(on(device, x), axis=1), x.min(axis=1), device=device, exact=True)


def test_dot_product_two_inputs(device, rng):
    skip_cpu(device)
    k = loom.ReductionKernel("T x, T y", "T z", "x * y", "a + b", "z = a", "0", "kdot")
    a = random_array(rng, (7, 300), "float64")
    b = random_array(rng, (300,), "float64")  # broadcast
    assert_matches(k(on(device, a), on(device, b), axis=1), a @ b, device=device, rtol=1e-10)
    assert_matches(k(on(device, a[0]), on(device, b)), a[0] @ b, device=device, rtol=1e-10)


def test_integer_sums_and_out(device, rng):
    skip_cpu(device)
    k = loom.ReductionKernel("T x", "int64 y", "x", "a + b", "y = a", "0", "isum", reduce_type="int64")
    x = random_array(rng, (50, 60), "int8")
    assert_matches(k(on(device, x), axis=0), x.astype(np.int64).sum(axis=0), device=device)
    out = loom.empty((50,), dtype=loom.int64, device=device)
    got = k(on(device, x), axis=1, out=out)
    assert_matches(out, x.astype(np.int64).sum(axis=1), device=device)
    assert_matches(got, x.astype(np.int64).sum(axis=1), device=device)
    e = k(loom.empty((0, 4), dtype=loom.int8, device=device), axis=0)  # empty: identity
    assert_matches(e, np.zeros(4, np.int64), device=device)


def test_reduce_type_as_a_c_type_name(device, rng):
    # CuPy's reduce_type may be a C type name: 'int' is int32, 'unsigned long long' uint64.
    skip_cpu(device)
    x = random_array(rng, (40,), "int32", -1000, 1000)  # a C int accumulator must not overflow
    for rt in ("int", "long long", "double"):
        k = loom.ReductionKernel("T x", "int64 y", "x", "a + b", "y = a", "0", "csum_" + rt.replace(" ", "_"),
                                 reduce_type=rt)
        assert_matches(k(on(device, x)), np.asarray(x.astype(np.int64).sum()), device=device)


def test_float16_inputs(device, rng):
    skip_cpu(device)
    k = loom.ReductionKernel("T x", "float32 y", "x", "a + b", "y = a", "0", "hsum")
    x = random_array(rng, (8, 1000), "float16", 0, 1)  # positive: no cancellation, so order-free tolerances hold
    assert_matches(k(on(device, x), axis=1), x.astype(np.float32).sum(axis=1), device=device, rtol=1e-4)
    h = loom.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "hsum16", reduce_type="float32")
    assert_matches(h(on(device, x), axis=1), x.astype(np.float32).sum(axis=1).astype(np.float16), device=device)


def test_cpu_launch_runs_on_the_emulator(rng):
    x = random_array(rng, (4,), "float64")
    np.testing.assert_allclose(float(sumsq()(loom.asarray(x.copy(), device=loom.cpu()))), float((x * x).sum()),
                               rtol=1e-12)
