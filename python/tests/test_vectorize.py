"""loom.vectorize and loom.guvectorize against NumPy: signatures chosen by input dtypes,
broadcasting, out=, NumPy in -> NumPy out, loom in -> loom out on the input's device."""
import math

import numpy as np
import pytest

import loom


@loom.vectorize(["float32(float32)", "float64(float64)"], target="cuda")
def cos2_sin2(x):
    return math.cos(x) ** 2 + math.sin(x) ** 2


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_vectorize_numpy_in_numpy_out(rng, dtype):
    x = rng.random(1000).astype(dtype)
    r = cos2_sin2(x)
    assert isinstance(r, np.ndarray) and r.dtype == dtype
    np.testing.assert_allclose(r, 1, rtol=1e-6)


def test_vectorize_loom_in_loom_out(device, rng):
    x = loom.asarray(rng.random((30, 40)).astype(np.float32), device=device)
    r = cos2_sin2(x)
    assert isinstance(r, loom.ndarray) and r.device == device and r.dtype == loom.float32
    np.testing.assert_allclose(r.numpy(), 1, rtol=1e-6)


@pytest.mark.parametrize("target", ["cpu", "parallel", "cuda"])
def test_vectorize_broadcast_out_and_signature_choice(rng, target):
    @loom.vectorize(["int64(int64, int64)", "float64(float64, float64)"], target=target)
    def axpb(a, b):
        return a * 3 + b // 2

    a, b = rng.integers(-50, 50, (4, 1)), rng.integers(-50, 50, (1, 5))
    r = axpb(a, b)
    assert r.dtype == np.int64
    np.testing.assert_array_equal(r, a * 3 + b // 2)
    af, bf = rng.random((4, 1)), rng.random(5)
    np.testing.assert_allclose(axpb(af, bf), af * 3 + bf // 2)
    out = np.zeros((4, 5))
    assert axpb(af, bf, out=out) is out
    np.testing.assert_allclose(out, af * 3 + bf // 2)
    np.testing.assert_array_equal(axpb(np.int32(7), 4), 23)
    with pytest.raises(loom.TypingError, match="no signature"):
        axpb(np.array([1 + 2j]), np.array([1.0]))


def test_vectorize_without_signatures_specialises_per_dtype(rng):
    @loom.vectorize
    def f(a, b):
        return a * b + 1

    np.testing.assert_array_equal(f(np.arange(5), 3), np.arange(5) * 3 + 1)
    x = rng.random(5).astype(np.float32)
    r = f(x, np.float32(2))
    assert r.dtype == np.float32
    np.testing.assert_allclose(r, x * 2 + 1, rtol=1e-6)


# NumPy's loop choice: the first signature the inputs cast to safely, so float32 comes first.
@loom.guvectorize(["void(float32[:,:], float32[:], float32[:])", "void(float64[:,:], float64[:], float64[:])"],
                  "(m,n),(n)->(m)", target="cuda")
def matvec(A, x, out):
    for i in range(A.shape[0]):
        acc = 0.0
        for j in range(A.shape[1]):
            acc += A[i, j] * x[j]
        out[i] = acc


def test_guvectorize_matvec_broadcast(rng):
    A = rng.random((6, 3, 4))
    x = rng.random(4)
    r = matvec(A, x)
    np.testing.assert_allclose(r, np.einsum("bmn,n->bm", A, x), rtol=1e-12)
    r32 = matvec(A.astype(np.float32), x.astype(np.float32))
    assert r32.dtype == np.float32


def test_guvectorize_loom_arrays(device, rng):
    A = rng.random((5, 3, 4))
    x = rng.random((5, 4))
    r = matvec(loom.asarray(A, device=device), loom.asarray(x, device=device))
    assert isinstance(r, loom.ndarray) and r.device == device
    np.testing.assert_allclose(r.numpy(), np.einsum("bmn,bn->bm", A, x), rtol=1e-12)


def test_guvectorize_scalar_core_and_errors(rng):
    @loom.guvectorize(["void(float64[:], float64, float64[:])"], "(n),()->(n)")
    def shift(a, s, out):
        for i in range(a.shape[0]):
            out[i] = a[i] + s

    a = rng.random((3, 5))
    s = np.array([1.0, 2.0, 3.0])
    np.testing.assert_allclose(shift(a, s), a + s[:, None])
    np.testing.assert_allclose(shift(a[0], 2.5), a[0] + 2.5)  # no loop dimension at all
    out = np.zeros((3, 5))
    shift(a, s, out)
    np.testing.assert_allclose(out, a + s[:, None])
    with pytest.raises(ValueError, match="output 0 has shape"):
        shift(a, s, np.zeros((3, 4)))
    with pytest.raises(ValueError, match="core dimension 'n'"):
        matvec(rng.random((3, 4)), rng.random(5))
    with pytest.raises(ValueError, match="cannot read the layout"):
        loom.guvectorize(["void(float64[:])"], "(n)->")(lambda a: None)


def test_stream_keyword_as_numba(device, rng):
    """Numba's stream= on a vectorized call, its reduce and a gufunc call: the work runs there."""
    @loom.vectorize(["float64(float64, float64)"], target="cuda")
    def add(a, b):
        return a + b

    @loom.guvectorize(["void(float64[:], float64[:])"], "(n)->()", target="cuda")
    def total(x, out):
        s = 0.0
        for v in x:
            s += v
        out[0] = s

    with device:
        s = loom.Stream()
    x = rng.random((6, 50))
    d = loom.asarray(x, device=device)
    r = add(d, d, stream=s)
    s.synchronize()
    np.testing.assert_allclose(r.numpy(), 2 * x)
    np.testing.assert_allclose(add.reduce(d, stream=s).numpy(), x.sum(axis=0))
    np.testing.assert_allclose(total(d, stream=s).numpy(), x.sum(axis=1))
    with pytest.raises(TypeError, match="stream= takes a loom.Stream"):
        add(d, d, stream="fast")


def test_guvectorize_refuses_a_return_type():
    with pytest.raises(loom.TypingError, match="cannot return values: the signature specifies int32 return type"):
        @loom.guvectorize(["int32(int32[:], int32[:])"], "(m)->(m)", target="cuda")
        def f(x, y):
            pass


def test_ufunc_decorator_options_as_numba():
    with pytest.raises(TypeError, match="^The following target options are not supported: 'what1', 'ever2'$"):
        loom.guvectorize(["void(float32[:], float32[:])"], "(x)->(x)", target="cuda", what1=True, ever2=False)
    with pytest.raises(TypeError, match="^nopython flag must be True$"):
        loom.vectorize(["float64(float64)"], target="cuda", nopython=False)
    for catch in (KeyError, TypeError):  # Numba's vectorize raises KeyError
        with pytest.raises(catch, match=r"^\[vectorize\] Unrecognized options: 'nonexistent'"):
            loom.vectorize(["float64(float64)"], target="cuda", nonexistent=2)
    with pytest.warns(RuntimeWarning, match="nopython kwarg for cuda target is redundant"):
        loom.vectorize(["float64(float64)"], target="cuda", nopython=True)


def test_gufunc_casts_host_inputs_down_to_its_only_signature(device, rng):
    """Numba's rule when no signature takes the inputs safely: one whose types cast safely to
    the inputs' is chosen and host inputs are cast down (a Python int, np.int64 for int32);
    a device array is not cast down (TypeError)."""
    @loom.guvectorize(["void(int32, int32[:], int32[:])"], "(),(t)->(t)", target="cuda")
    def scale(a, b, out):
        for i in range(b.size):
            out[i] = a * b[i]

    b = rng.integers(-100, 100, 10).astype(np.int32)
    a = int(rng.integers(-5, 5))
    with device:
        np.testing.assert_array_equal(scale(np.int64(a), b), a * b)
        np.testing.assert_array_equal(scale(a, b), a * b)
        with pytest.raises(TypeError, match="does not support .astype()"):
            scale(loom.asarray(np.int64(a), device=device), b)


def test_gufunc_loop_dimensions_follow_numbas_rule(device, rng):
    """The largest inputs' loop dimensions win, the first of equals, and an input with one
    loop item ((1,) or ()) is pinned: "(n),()->(n)" with a 1-element array as the scalar."""
    @loom.guvectorize(["void(int32[:], int32[:], int32[:])"], "(n),()->(n)", target="cuda")
    def add(x, y, res):
        for i in range(x.shape[0]):
            res[i] = x[i] + y[0]

    a = rng.integers(-9, 9, 4).astype(np.int32)
    b = rng.integers(-9, 9, 1).astype(np.int32)
    res = np.zeros(4, dtype=np.int32)
    with device:
        add(a, b, out=res)
        np.testing.assert_array_equal(res, a + b[0])
        a2 = rng.integers(-9, 9, (2, 4)).astype(np.int32)
        b2 = rng.integers(-9, 9, 2).astype(np.int32)
        np.testing.assert_array_equal(add(a2, b2), a2 + b2[:, None])
