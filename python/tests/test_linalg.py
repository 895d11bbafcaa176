"""matmul dot vdot inner outer tensordot einsum, @ and @=, and the matmul precision switch,
compared with NumPy on every device.

Float inputs are positive (no cancellation), so a relative tolerance bounds the error of
any summation order; it grows with sqrt(k). float16/bfloat16 references are computed in
float64 and rounded once, as loom accumulates in float32 (NumPy's own half loops do not).
"""
import math

import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import loom
from conftest import DTYPE_NAMES, NP_DTYPES, RTOL, compare, random_array

FLOATS = ("float16", "bfloat16", "float32", "float64")
HALF_RTOL = {"float16": 2e-3, "bfloat16": 2e-2}


def rand(rng, shape, dtype):
    if np.dtype(NP_DTYPES[dtype]).kind == "f" or dtype == "bfloat16":
        return random_array(rng, shape, NP_DTYPES[dtype], low=0.5, high=1.5)
    return random_array(rng, shape, NP_DTYPES[dtype])


def rtol_for(dtype, k):
    if dtype in HALF_RTOL:
        return HALF_RTOL[dtype]
    return RTOL[dtype] * 4 * max(1.0, math.sqrt(k)) if dtype in RTOL else None


def exact_half(fn):
    """fn for compare(): NumPy's half-precision result computed in float64, rounded once."""
    def run(xp, *args):
        if xp is np and any(getattr(a, "dtype", None) in (np.float16, ml_dtypes.bfloat16) for a in args):
            dt = next(a.dtype for a in args if hasattr(a, "dtype"))
            return np.asarray(fn(xp, *[a.astype(np.float64) if hasattr(a, "astype") else a for a in args])).astype(dt)
        return fn(xp, *args)
    return run


MATMUL_SHAPES = [
    ((3,), (3,)),
    ((3,), (3, 4)),
    ((2, 3), (3,)),
    ((2, 3), (3, 4)),
    ((1, 1), (1, 1)),
    ((5, 2, 3), (3, 4)),          # broadcast right operand: folded into one GEMM
    ((2, 3), (5, 3, 4)),
    ((5, 1, 2, 3), (1, 4, 3, 2)),  # batch dims that do not merge
    ((2, 1, 3, 4), (6, 4, 2)),
    ((4,), (2, 4, 3)),
    ((2, 3, 4), (4,)),
    ((0, 3), (3, 4)),
    ((2, 0), (0, 4)),             # k = 0: zeros
    ((3, 2, 0), (0,)),
    ((2, 3), (3, 0)),
    ((4, 0, 2, 3), (3, 5)),
]


@pytest.mark.parametrize("sa,sb", MATMUL_SHAPES, ids=str)
def test_matmul_shapes(device, rng, sa, sb):
    a, b = rand(rng, sa, "float64"), rand(rng, sb, "float64")
    compare(lambda xp, x, y: xp.matmul(x, y), a, b, device=device, rtol=1e-12)
    compare(lambda xp, x, y: x @ y, a, b, device=device, rtol=1e-12)


@pytest.mark.parametrize("dtype", DTYPE_NAMES)
def test_matmul_dtypes(device, rng, dtype):
    for sa, sb in [((7, 33), (33, 9)), ((3, 4, 65), (65, 5)), ((2, 5, 8), (2, 8, 3)), ((6,), (6,))]:
        a, b = rand(rng, sa, dtype), rand(rng, sb, dtype)
        compare(exact_half(lambda xp, x, y: xp.matmul(x, y)), a, b, device=device, rtol=rtol_for(dtype, sa[-1]))


@pytest.mark.parametrize("dtype", ["int8", "int64", "uint8", "uint64", "bool"])
def test_matmul_integer_wraparound_and_bool(device, rng, dtype):
    # Full-range integers overflow: both sides wrap around modulo 2^bits.
    a, b = rand(rng, (17, 40), dtype), rand(rng, (40, 19), dtype)
    compare(lambda xp, x, y: x @ y, a, b, device=device)


@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16", "int32", "bool"])
def test_matmul_transposed_operands(device, rng, dtype):
    # .T of contiguous matrices is a column-major layout passed without a copy.
    a, b = rand(rng, (40, 30), dtype), rand(rng, (20, 40), dtype)
    tol = rtol_for(dtype, 40)
    compare(exact_half(lambda xp, x, y: x.T @ y.T), a, b, device=device, rtol=tol)
    compare(exact_half(lambda xp, x, y: x.T @ x), a, b, device=device, rtol=tol)
    compare(exact_half(lambda xp, x, y: y @ y.T), a, b, device=device, rtol=tol)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
def test_gram_products_are_symmetric_rank_k_updates(device, rng, dtype):
    """x @ x.T and x.T @ x over one buffer run as syrk on a CPU (half the multiply-adds, the
    other triangle mirrored; csyrk/zsyrk for complex x, whose x @ x.T is symmetric too):
    NumPy's values, exactly symmetric, batched and on offset views; products that merely
    share memory stay general."""
    if dtype.startswith("complex"):
        x = (rng.uniform(0.5, 1.5, (3, 70, 45)) + 1j * rng.uniform(-1, 1, (3, 70, 45))).astype(dtype)
        tol = {"complex64": 1e-5, "complex128": 1e-13}[dtype] * 4 * math.sqrt(70)
    else:
        x = rand(rng, (3, 70, 45), dtype)
        tol = rtol_for(dtype, 70)
    xl = loom.asarray(x, device=device)
    for got, want in ((xl @ loom.swapaxes(xl, 1, 2), x @ np.swapaxes(x, 1, 2)),
                      (loom.swapaxes(xl, 1, 2) @ xl, np.swapaxes(x, 1, 2) @ x),
                      (xl[1, 2:] @ xl[1, 2:].T, x[1, 2:] @ x[1, 2:].T),
                      (xl[0, :, 3:9].T @ xl[0, :, 3:9], x[0, :, 3:9].T @ x[0, :, 3:9])):
        g = got.numpy()
        np.testing.assert_allclose(g, want, rtol=tol, atol=tol * np.abs(want).max())
        if device == loom.cpu() or not dtype.startswith("complex"):  # cuBLAS's cgemm may sum
            np.testing.assert_array_equal(g, np.swapaxes(g, -1, -2))  # the two triangles apart
    sq = xl[0, :45]  # 45 x 45 over the same memory as its transpose's, not transposed
    np.testing.assert_allclose((sq @ sq).numpy(), x[0, :45] @ x[0, :45], rtol=tol, atol=tol * 45)


def test_matmul_strided_views(device, rng):
    # Views with steps and negative strides (zero-copy imports on cpu(); copies on a GPU).
    base = rand(rng, (12, 10), "float32")
    a, b = base[::2, 1:9], base[::-1, ::3][2:10]
    assert a.shape == (6, 8) and b.shape == (8, 4)
    compare(lambda xp, x, y: x @ y, a, b, device=device, rtol=rtol_for("float32", 8))
    compare(lambda xp, x, y: x @ y.T, base[:, :5], base[1:3, :5], device=device, rtol=rtol_for("float32", 5))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_matmul_nan_inf(device):
    a = np.array([[1.0, np.nan], [np.inf, 1.0], [0.0, 2.0]], np.float32)
    b = np.array([[0.0, 1.0], [1.0, 2.0]], np.float32)
    compare(lambda xp, x, y: x @ y, a, b, device=device)


def test_matmul_large_k_float32(device, rng):
    a, b = rand(rng, (33, 2000), "float32"), rand(rng, (2000, 17), "float32")
    compare(lambda xp, x, y: x @ y, a, b, device=device, rtol=rtol_for("float32", 2000))


@pytest.mark.parametrize("sa,sb", [((), (3,)), ((3,), ()), ((2, 3), (4, 5)), ((3,), (4,)),
                                   ((2, 2, 3), (3, 3, 2)), ((2, 3), (2,))], ids=str)
def test_matmul_errors(device, rng, sa, sb):
    a, b = rand(rng, sa, "float32"), rand(rng, sb, "float32")
    compare(lambda xp, x, y: xp.matmul(x, y), a, b, device=device)


@pytest.mark.gpu
def test_device_mismatch(gpu):
    a = loom.ones((2, 3), dtype=loom.float32, device=loom.cpu())
    b = loom.ones((3, 2), dtype=loom.float32, device=gpu)
    for fn in (loom.matmul, loom.dot, loom.vdot, loom.inner, loom.outer, loom.tensordot):
        with pytest.raises(loom.DeviceMismatchError):
            fn(a, b.T if fn in (loom.vdot, loom.inner) else b)
    with pytest.raises(loom.DeviceMismatchError):
        a @ b
    with pytest.raises(loom.DeviceMismatchError):
        loom.einsum("ij,jk", a, b)


def test_result_device_and_numpy_operand(device, rng):
    a = rand(rng, (3, 4), "float32")
    x = loom.asarray(a, device=device)
    for r in (x @ a.T, a.T @ x, loom.matmul(x, a.T), x.dot(a.T)):
        assert r.device == device and r.shape in ((3, 3), (4, 4))


def test_imatmul(device, rng):
    a, b = rand(rng, (3, 3), "float32"), rand(rng, (3, 3), "float32")

    def inplace(xp, x, y):
        x = x.copy()
        x @= y
        return x
    compare(inplace, a, b, device=device, rtol=1e-5)
    compare(inplace, a, rand(rng, (3, 2), "float32"), device=device)  # shape would change: ValueError
    compare(inplace, rand(rng, (3, 3), "int32"), b, device=device, raises=TypeError)  # float into int
    compare(inplace, a, rand(rng, (3, 3), "int16"), device=device, rtol=1e-5)


# ---- dot vdot inner outer tensordot ----------------------------------------------------

DOT_SHAPES = [((), ()), ((), (3, 2)), ((4,), ()), ((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 2)),
              ((2, 3), (3, 4)), ((2, 3, 4), (4,)), ((4,), (2, 4, 3)), ((2, 3, 4), (5, 4, 2)),
              ((2, 3), (2, 3, 5)), ((2, 0), (0, 3)), ((2, 3), (4, 5)), ((2, 3, 4), (3, 5, 2))]


@pytest.mark.parametrize("sa,sb", DOT_SHAPES, ids=str)
def test_dot(device, rng, sa, sb):
    a, b = rand(rng, sa, "float64"), rand(rng, sb, "float64")
    compare(lambda xp, x, y: xp.dot(x, y), a, b, device=device, rtol=1e-12)
    if sa and sb and sa[-1] == sb[0 if len(sb) == 1 else -2]:
        compare(lambda xp, x, y: x.dot(y), a, b, device=device, rtol=1e-12)


@pytest.mark.parametrize("dtype", ["int16", "uint32", "bool", "float16", "bfloat16", "float32"])
def test_dot_nd_dtypes(device, rng, dtype):
    a, b = rand(rng, (2, 3, 5), dtype), rand(rng, (4, 5, 2), dtype)
    compare(exact_half(lambda xp, x, y: xp.dot(x, y)), a, b, device=device, rtol=rtol_for(dtype, 5))


@pytest.mark.parametrize("sa,sb", [((3,), (3,)), ((2, 3), (3, 2)), ((2, 3, 2), (4, 3)), ((5,), (4,)), ((0,), (0,))], ids=str)
def test_vdot(device, rng, sa, sb):
    a, b = rand(rng, sa, "float32"), rand(rng, sb, "float32")
    compare(lambda xp, x, y: xp.vdot(x, y), a, b, device=device, rtol=1e-5)


@pytest.mark.parametrize("sa,sb", [((), (2, 3)), ((3,), (3,)), ((2, 3), (4, 3)), ((2, 2, 3), (3,)),
                                   ((2, 3), (2, 4)), ((0, 3), (2, 3))], ids=str)
def test_inner(device, rng, sa, sb):
    a, b = rand(rng, sa, "int32"), rand(rng, sb, "int32")
    compare(lambda xp, x, y: xp.inner(x, y), a, b, device=device)


@pytest.mark.parametrize("dtype", ["float32", "int8", "bool", "float16"])
def test_outer(device, rng, dtype):
    for sa, sb in [((3,), (4,)), ((2, 3), (2,)), ((), (3,)), ((0,), (3,))]:
        a, b = rand(rng, sa, dtype), rand(rng, sb, dtype)
        compare(lambda xp, x, y: xp.outer(x, y), a, b, device=device, rtol=rtol_for(dtype, 1))


@pytest.mark.parametrize("sa,sb,axes", [
    ((3, 4, 5), (4, 5, 2), 2), ((3, 4), (4, 5), 1), ((3, 4), (5, 6), 0), ((2, 3), (3, 2), -1),
    ((3, 4, 5), (5, 3, 2), ([0, 2], [1, 0])), ((3, 4, 5), (4, 2), (1, 0)), ((3, 4), (4, 3), ((0, 1), (1, 0))),
    ((2, 3), (2, 3), 3), ((2, 3), (2, 3), 1), ((2, 3), (3, 2), ([0, 1], [0])), ((2, 3), (3, 2), ([5], [0])),
    ((2, 3), (3, 2), ([0, 0], [0, 1])),
], ids=str)
def test_tensordot(device, rng, sa, sb, axes):
    a, b = rand(rng, sa, "float64"), rand(rng, sb, "float64")
    compare(lambda xp, x, y: xp.tensordot(x, y, axes), a, b, device=device, rtol=1e-12)


# ---- einsum ------------------------------------------------------------------------------

EINSUM_CASES = [
    ("ij,jk->ik", [(3, 4), (4, 5)]),       # matrix product
    ("ij,jk", [(3, 4), (4, 5)]),           # implicit output
    ("ii", [(4, 4)]),                      # trace
    ("ii->i", [(4, 4)]),                   # diagonal
    ("ij->ji", [(3, 4)]),                  # transpose
    ("ba", [(3, 4)]),                      # implicit: alphabetical order transposes
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("i,j->ij", [(3,), (4,)]),             # outer
    ("ij->", [(3, 4)]),                    # sum over all
    ("ij->i", [(3, 4)]),
    ("i,i", [(5,), (5,)]),
    ("i,i->i", [(5,), (5,)]),
    ("iij->j", [(3, 3, 4)]),
    ("iji->j", [(3, 4, 3)]),
    ("...ij,...jk->...ik", [(2, 3, 4), (4, 5)]),
    ("...ij,...jk", [(2, 1, 3, 4), (5, 4, 2)]),
    ("i...->...", [(3, 2, 4)]),
    ("...i,...i->...", [(2, 1, 3), (4, 3)]),
    ("ij,ij->ij", [(2, 3), (1, 3)]),      # size-1 broadcast of a labelled dim
    ("ij,ij->i", [(2, 3), (1, 3)]),
    ("ijk,jil->kl", [(2, 3, 4), (3, 2, 5)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]),
    ("ij,jk,kl", [(2, 3), (3, 4), (4, 2)]),
    ("Ab,bC", [(2, 3), (3, 4)]),          # upper case sorts first
    ("abc,cba->", [(2, 3, 4), (4, 3, 2)]),
    ("i,jk->", [(2,), (3, 4)]),
    ("ij,j->i", [(0, 3), (3,)]),
    ("ij,jk->ik", [(2, 0), (0, 3)]),
    ("", [()]),
    (",->", [(), ()]),
    ("i j , j k -> i k", [(3, 4), (4, 5)]),
]


@pytest.mark.parametrize("subscripts,shapes", EINSUM_CASES, ids=[c[0] + str(c[1]) for c in EINSUM_CASES])
def test_einsum(device, rng, subscripts, shapes):
    ops = [rand(rng, s, "float64") for s in shapes]
    compare(lambda xp, *xs: xp.einsum(subscripts, *xs), *ops, device=device, rtol=1e-12)


@pytest.mark.parametrize("dtype", ["int8", "uint16", "bool", "float32", "bfloat16"])
def test_einsum_dtypes(device, rng, dtype):
    for subscripts, shapes in [("ij,jk->ik", [(3, 5), (5, 2)]), ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
                               ("ii->", [(4, 4)]), ("i,j->ij", [(3,), (2,)])]:
        ops = [rand(rng, s, dtype) for s in shapes]
        compare(exact_half(lambda xp, *xs: xp.einsum(subscripts, *xs)), *ops, device=device,
                rtol=rtol_for(dtype, 5))


def test_einsum_mixed_dtypes(device, rng):
    # nonnegative terms: a float32 sum of terms of either sign may cancel to far below its
    # terms, where the summation order (not the dtype rule under test) decides the last digits
    a = rng.integers(0, 1000, (3, 4)).astype(np.int16)
    b = rng.uniform(0, 10, (4, 2)).astype(np.float32)
    compare(lambda xp, x, y: xp.einsum("ij,jk", x, y), a, b, device=device, rtol=1e-5)


def test_einsum_transposed_operands(device, rng):
    a, b = rand(rng, (4, 3), "float64"), rand(rng, (5, 4), "float64")
    compare(lambda xp, x, y: xp.einsum("ij,jk->ki", x.T, y.T), a, b, device=device, rtol=1e-12)


@pytest.mark.parametrize("subscripts,shapes", [
    ("ij,jk", [(2, 3), (2, 4)]), ("ij", [(2, 3, 4)]), ("ijk", [(2, 3)]), ("ij->k", [(2, 3)]),
    ("ij->ii", [(2, 3)]), ("ii", [(2, 3)]), ("ij,jk", [(2, 3)]), ("ij", [(2, 3), (3, 2)]),
    ("i1", [(2, 3)]), ("...i->i", [(2, 3)]), ("i..j", [(2, 3)]), ("i->", [()]),
], ids=str)
def test_einsum_errors(device, rng, subscripts, shapes):
    ops = [rand(rng, s, "float32") for s in shapes]
    compare(lambda xp, *xs: xp.einsum(subscripts, *xs), *ops, device=device)


# ---- precision ---------------------------------------------------------------------------

def test_matmul_precision_switch():
    assert loom.get_matmul_precision() == "float32"
    try:
        loom.set_matmul_precision("tf32")
        assert loom.get_matmul_precision() == "tf32"
        loom.set_matmul_precision("highest")
        assert loom.get_matmul_precision() == "float32"
        loom.set_matmul_precision("high")
        assert loom.get_matmul_precision() == "tf32"
        with pytest.raises(ValueError):
            loom.set_matmul_precision("bogus")
    finally:
        loom.set_matmul_precision("float32")


def test_tf32_tolerance(device, rng):
    # TF32 keeps 10 mantissa bits of each input; with positive inputs the relative error of
    # the sums stays within ~2e-3 even if the conversion truncates.
    a, b = rand(rng, (64, 256), "float32"), rand(rng, (256, 48), "float32")
    try:
        loom.set_matmul_precision("tf32")
        compare(lambda xp, x, y: x @ y, a, b, device=device, rtol=5e-3)
    finally:
        loom.set_matmul_precision("float32")
    compare(lambda xp, x, y: x @ y, a, b, device=device, rtol=rtol_for("float32", 256))


# ---- properties --------------------------------------------------------------------------

@st.composite
def batch_pair(draw):
    full = draw(st.lists(st.integers(0, 3), min_size=0, max_size=3))
    shapes = []
    for _ in range(2):
        nd = draw(st.integers(0, len(full)))
        dims = full[len(full) - nd:]
        shapes.append(tuple(d if draw(st.booleans()) else 1 for d in dims))
    m, k, n = draw(st.integers(0, 5)), draw(st.integers(0, 5)), draw(st.integers(0, 5))
    left_1d, right_1d = draw(st.booleans()), draw(st.booleans())
    sa = (k,) if left_1d and not shapes[0] else shapes[0] + (m, k)
    sb = (k,) if right_1d and not shapes[1] else shapes[1] + (k, n)
    return sa, sb, draw(st.booleans()), draw(st.booleans())


# `device` does not change between examples, so sharing the fixture is safe.
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=batch_pair(), dtype=st.sampled_from(["float64", "int32", "bool", "float32"]),
       seed=st.integers(0, 2**32 - 1))
def test_matmul_batch_broadcasting_property(device, case, dtype, seed):
    sa, sb, ta, tb = case
    rng = np.random.default_rng(seed)
    # Optionally build an operand as the transpose of a contiguous array (column-major).
    def make(shape, t):
        if t and len(shape) >= 2:
            return np.swapaxes(rand(rng, shape[:-2] + (shape[-1], shape[-2]), dtype), -1, -2)
        return rand(rng, shape, dtype)
    a, b = make(sa, ta), make(sb, tb)
    k = sa[-1]
    compare(lambda xp, x, y: xp.matmul(x, y), a, b, device=device, rtol=rtol_for(dtype, k))


def test_build_info_names_the_cpu_blas():
    assert loom.build_info()["blas"] in ("scipy_openblas", "openblas", "blas", "none")
