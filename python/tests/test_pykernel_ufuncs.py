"""NumPy and math functions inside Python kernels that are ops of loom's elementwise table
compute what the op computes (pykernel/ufuncs.py): a kernel applying np.<op> (or math.<op>)
to fresh random values and edge values (0, -0, inf, nan, huge, tiny) on cpu(), where the
CPU kernel emulator runs the generated source, equals loom.<op> of the same values bit for
bit, with the op's result dtype. The generated source compiles for a GPU too (NVRTC)."""
import math

import numpy as np
import pytest

import loom
from loom import cuda
from loom.pykernel import types as T
from loom.pykernel.compiler import translate_device

from conftest import random_array

TABLE = {name: (arity, loops) for name, arity, api, _, _, loops in loom._loom._elementwise_op_table()
         if api in ("ufunc", "alias")}
# Each NumPy ufunc that is an op, once (np.abs is np.absolute, np.mod np.remainder, ...).
_SEEN = {}
for _name in sorted(TABLE, key=lambda n: (n not in dir(np), n)):
    _f = getattr(np, _name, None)
    if isinstance(_f, np.ufunc) and _f.nin == TABLE[_name][0] and _f.nout == 1 and _f not in _SEEN.values():
        _SEEN[_f.__name__] = _f
NP_OPS = sorted(_SEEN)
DTYPES = ["float32", "float64", "int32"]


def edge_values(dtype):
    if dtype == "bool":
        return np.array([False, True])
    dt = np.dtype(dtype)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return np.array([0, 1, info.max, info.min, info.max // 3, -1 if dt.kind == "i" else 2], dt)
    fi = np.finfo(dt)
    vals = [0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1.0, -1.0, 0.5, -2.5, 3.5, fi.max, -fi.max, fi.tiny,
            -fi.tiny, fi.smallest_subnormal, 1e30 if dt.itemsize >= 4 else 6e4, 1e-30 if dt.itemsize >= 4 else 1e-7]
    return np.array(vals, dt)


def inputs(rng, name, dtype, arity):
    """Random values and every pair (arity 2) of edge values, as NumPy arrays."""
    e = edge_values(dtype)
    if np.dtype(dtype).kind in "iu" and name in ("power", "left_shift", "right_shift"):
        # loom refuses negative integer powers; wide shifts are covered by the edges below
        r = [random_array(rng, 64, dtype, 0, 40) for _ in range(arity)]
        e = np.array([0, 1, 2, 31, 63, 64], dtype)
    else:
        r = [random_array(rng, 256, dtype) for _ in range(arity)]
    if arity == 1:
        return [np.concatenate([r[0], e])]
    a, b = np.meshgrid(e, e)
    return [np.concatenate([r[0], a.ravel()]), np.concatenate([r[1], b.ravel()])]


def kernel_of(f, arity):
    if arity == 1:
        @cuda.jit
        def k1(out, x):
            i = cuda.grid(1)
            if i < out.size:
                out[i] = f(x[i])
        return k1

    @cuda.jit
    def k2(out, x, y):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = f(x[i], y[i])
    return k2


def result_type_in_kernel(f, argtypes):
    """The type the translator gives f(*args) for arguments of `argtypes`."""
    def one(x):
        return f(x)

    def two(x, y):
        return f(x, y)

    return translate_device(one if len(argtypes) == 1 else two, argtypes)[2]


def assert_same_bits(got, want):
    assert got.dtype == want.dtype
    if got.dtype.kind == "f":
        u = np.dtype(f"u{got.dtype.itemsize}")
        bad = got.view(u) != want.view(u)
        assert not bad.any(), f"differ at {np.flatnonzero(bad)[:8]}: {got[bad][:8]} != {want[bad][:8]}"
    else:
        np.testing.assert_array_equal(got, want)


def check(rng, f, name, dtype, ref=None):
    """f applied in a kernel over inputs of `dtype` equals loom.<name> (or `ref`) bit for bit."""
    arity, loops = TABLE[name]
    if dtype not in loops:
        pytest.skip(f"{name} does not take {dtype}")
    xs = inputs(rng, name, dtype, arity)
    dev = loom.cpu()
    args = [loom.asarray(x, device=dev) for x in xs]
    want = (ref or getattr(loom, name))(*args).numpy()
    assert want.dtype.name == loops[dtype][1]
    assert result_type_in_kernel(f, (T.Scalar(dtype),) * arity) == T.Scalar(want.dtype.name)
    out = loom.empty(want.shape, want.dtype, device=dev)
    kernel_of(f, arity)[(want.size + 127) // 128, 128](out, *args)
    assert_same_bits(out.numpy(), want)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", NP_OPS)
def test_numpy_function_is_the_loom_op(rng, name, dtype):
    check(rng, getattr(np, name), name, dtype)


# math functions that are the op of their name; float64 (Python's floats) and float32
# (kept float32, as Numba does). math.floor/ceil/trunc give int64: tested below.
MATH_OPS = ["sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
            "exp", "expm1", "exp2", "log", "log2", "log10", "log1p", "sqrt", "cbrt", "erf", "fabs",
            "atan2", "pow", "hypot", "copysign", "fmod", "isnan", "isinf", "isfinite"]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", [n for n in MATH_OPS if hasattr(math, n)])
def test_math_function_is_the_loom_op(rng, name, dtype):
    check(rng, getattr(math, name), name, dtype)


@pytest.mark.parametrize("name", ["floor", "ceil", "trunc"])
def test_math_rounding_gives_int64_of_the_op(rng, name):
    x = np.concatenate([random_array(rng, 64, np.float64), [0.0, -0.0, 0.5, -0.5, 2.5, -2.5, 1e15, -1e15]])
    assert result_type_in_kernel(getattr(math, name), (T.FLOAT64,)) == T.INT64
    k = kernel_of(getattr(math, name), 1)
    out = loom.empty(x.size, loom.int64, device=loom.cpu())
    k[1, 128](out, loom.asarray(x, device=loom.cpu()))
    np.testing.assert_array_equal(out.numpy(), getattr(loom, name)(loom.asarray(x)).numpy().astype(np.int64))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int16"])
def test_numpy_round_is_loom_round(rng, dtype):
    x = np.concatenate([random_array(rng, 64, dtype), edge_values(dtype)])
    if dtype.startswith("float"):
        x = np.concatenate([x, np.arange(-4, 4, 0.5, dtype=dtype)])  # halves go to even
    want = loom.round(loom.asarray(x, device=loom.cpu())).numpy()
    for f in (np.round, np.around):
        out = loom.empty(x.size, want.dtype, device=loom.cpu())
        kernel_of(f, 1)[1, 128](out, loom.asarray(x, device=loom.cpu()))
        assert_same_bits(out.numpy(), want)


@pytest.mark.parametrize("name,dtype", [("sin", "float16"), ("sin", "int8"), ("sqrt", "int16"), ("exp", "uint8"),
                                        ("hypot", "float16"), ("arctan2", "int16"), ("sign", "float16"),
                                        ("maximum", "float16"), ("floor_divide", "int8"), ("remainder", "float16"),
                                        ("logical_xor", "float16"), ("sqrt", "bool")])
def test_numpy_dtype_rules_of_narrow_types(rng, name, dtype):
    # NumPy's loops: int8 and bool compute in float16, int16 in float32, float16 in float16.
    check(rng, getattr(np, name), name, dtype)


def test_mixed_and_weak_arguments_promote_as_numpy():
    f32, f64, i16 = T.FLOAT32, T.FLOAT64, T.Scalar("int16")
    assert result_type_in_kernel(np.hypot, (f32, f64)) == f64
    assert result_type_in_kernel(np.hypot, (i16, f32)) == f32
    assert result_type_in_kernel(math.hypot, (i16, f32)) == f64  # math: integers are Python floats

    def weak(x):
        return np.hypot(x, 2.0) + np.arctan2(3, x)

    assert translate_device(weak, (f32,))[2] == f32  # NEP 50: the literals take x's type


def test_math_remainder_is_ieee_not_numpy(rng):
    x = np.concatenate([random_array(rng, 64, np.float64), [5.0, -5.0, 7.5, 6.5]])
    y = np.concatenate([random_array(rng, 64, np.float64), [3.0, 3.0, 2.0, 2.0]])
    out = loom.empty(x.size, loom.float64, device=loom.cpu())
    kernel_of(math.remainder, 2)[1, 128](out, loom.asarray(x, device=loom.cpu()), loom.asarray(y, device=loom.cpu()))
    np.testing.assert_array_equal(out.numpy(), [math.remainder(a, b) for a, b in zip(x, y)])
    assert not np.array_equal(out.numpy(), np.remainder(x, y))


@pytest.mark.skipif(not loom.build_info()["cuda"], reason="loom built without CUDA (no NVRTC)")
def test_source_compiles_for_a_gpu():
    @cuda.jit
    def many(out, x, y, h):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = (np.hypot(x[i], y[i]) + math.exp(x[i]) + np.remainder(x[i], y[i]) + np.sign(x[i])
                      + np.floor_divide(x[i], 3) + np.arctan2(y[i], 2.0) + np.maximum(x[i], y[i]) + math.floor(y[i])
                      + np.sin(h[i]) + np.logical_and(x[i], y[i]) + np.square(i) + np.gcd(i, 12))
            h[i] = np.hypot(h[i], h[i])

    dev = loom.cpu()
    x, y = loom.asarray(np.float32([1.5, -2.0]), device=dev), loom.asarray(np.float64([0.5, 3.0]), device=dev)
    h = loom.asarray(np.float16([0.25, 4.0]), device=dev)
    out = loom.empty(2, loom.float64, device=dev)
    many[1, 32](out, x, y, h)  # the emulator compiles and runs it
    (source,) = many.inspect_source().values()
    assert '#include "loom_math.cuh"' in source
    loom._loom._compile_for_testing(source, "loom_pk_many", arch=90)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_float_floor_division_and_modulo_operators_are_python_s(rng, dtype):
    # CPython's float divmod, which NumPy's floor_divide and remainder copy: 1 // 0.1 is 9.0
    # (floor(1 / 0.1) would be 10.0) and -2.0 % 1.0 is +0.0.
    @cuda.jit
    def divmod_kernel(q, r, x, y):
        i = cuda.grid(1)
        if i < q.size:
            q[i] = x[i] // y[i]
            r[i] = x[i] % y[i]

    x, y = inputs(rng, "remainder", dtype, 2)
    x, y = np.concatenate([x, np.array([1.0, -2.0, 7.0], dtype)]), np.concatenate([y, np.array([0.1, 1.0, -2.0], dtype)])
    dev = loom.cpu()
    lx, ly = loom.asarray(x, device=dev), loom.asarray(y, device=dev)
    q, r = loom.empty(x.size, dtype, device=dev), loom.empty(x.size, dtype, device=dev)
    divmod_kernel[(x.size + 127) // 128, 128](q, r, lx, ly)
    assert_same_bits(q.numpy(), loom.floor_divide(lx, ly).numpy())
    assert_same_bits(r.numpy(), loom.remainder(lx, ly).numpy())
    if dtype == "float64":
        ok = (y != 0) & np.isfinite(x) & np.isfinite(y)
        want = [divmod(float(a), float(b)) for a, b in zip(x[ok], y[ok])]
        assert_same_bits(q.numpy()[ok], np.array([w[0] for w in want]))
        assert_same_bits(r.numpy()[ok], np.array([w[1] for w in want]))
