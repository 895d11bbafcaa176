"""bfloat16 in Python kernels (Numba's numba.cuda.bf16) on every device: the type, arithmetic
rounded once, conversions under each rounding mode, against exact references (Python's
fractions for the rounding, ml_dtypes for float32 -> bfloat16)."""
import fractions
import math

import ml_dtypes
import numpy as np
import pytest

import loom
from loom import cuda
from loom.cuda import bf16
from loom.cuda.bf16 import bfloat16

MODES = ("rn", "rz", "rd", "ru")


def _round(x, mode):
    """An exact rational rounded to an integer under `mode`."""
    if mode == "rn":
        return round(x)  # Fraction: half to even
    if mode == "rz":
        return math.trunc(x)
    return math.floor(x) if mode == "rd" else math.ceil(x)


def bf16_bits_ref(value, mode):
    """The bfloat16 bits of a finite number (int or float) under `mode`, from exact arithmetic."""
    x = fractions.Fraction(value)
    if x == 0:
        return 0x8000 if math.copysign(1.0, float(value)) < 0 else 0
    sign = 0x8000 if x < 0 else 0
    exp = max(math.floor(math.log2(abs(x))), -126)
    if fractions.Fraction(2) ** exp > abs(x):  # log2 rounded up at a power of two's edge
        exp -= 1
    quantum = fractions.Fraction(2) ** (exp - 7)
    n = _round(x / quantum, mode)
    r = abs(n * quantum)
    if r >= 2 ** 128:
        return sign | 0x7F80
    return sign | (int(np.array(float(r), np.float32).view(np.uint32)) >> 16)


@cuda.jit
def from_floats(f32, f64, out):
    i = cuda.grid(1)
    if i < f32.size:
        out[i, 0] = bf16.bfloat16_as_int16(bf16.float32_to_bfloat16_rn(f32[i]))
        out[i, 1] = bf16.bfloat16_as_int16(bf16.float32_to_bfloat16_rz(f32[i]))
        out[i, 2] = bf16.bfloat16_as_int16(bf16.float32_to_bfloat16_rd(f32[i]))
        out[i, 3] = bf16.bfloat16_as_int16(bf16.float32_to_bfloat16_ru(f32[i]))
        out[i, 4] = bf16.bfloat16_as_int16(bf16.float64_to_bfloat16(f64[i]))
        out[i, 5] = bf16.bfloat16_as_int16(bfloat16(f64[i]))


def test_float_to_bfloat16_each_rounding_mode(device, rng):
    n = 500
    f32 = (rng.standard_normal(n) * 10.0 ** rng.integers(-30, 30, n)).astype(np.float32)
    f64 = rng.standard_normal(n) * 10.0 ** rng.integers(-30, 30, n)
    # doubles just past a bfloat16 tie: rounding through float32 first would round them twice
    base = rng.standard_normal(50).astype(ml_dtypes.bfloat16).astype(np.float64)
    f64[:50] = base + np.abs(base) * 2.0 ** -9 * (1 + 2.0 ** -30)
    out = loom.zeros((n, 6), dtype=loom.int16, device=device)
    from_floats[(n + 127) // 128, 128](loom.asarray(f32, device=device), loom.asarray(f64, device=device), out)
    got = out.numpy().view(np.uint16)
    for j, mode in enumerate(MODES):
        want = [bf16_bits_ref(float(v), mode) for v in f32]
        np.testing.assert_array_equal(got[:, j], want, err_msg=mode)
    np.testing.assert_array_equal(got[:, 0], f32.astype(ml_dtypes.bfloat16).view(np.uint16))
    want64 = [bf16_bits_ref(float(v), "rn") for v in f64]
    np.testing.assert_array_equal(got[:, 4], want64)
    np.testing.assert_array_equal(got[:, 5], want64)


@cuda.jit
def from_ints(i64, u64, out):
    i = cuda.grid(1)
    if i < i64.size:
        out[i, 0] = bf16.bfloat16_as_int16(bf16.int64_to_bfloat16_rn(i64[i]))
        out[i, 1] = bf16.bfloat16_as_int16(bf16.int64_to_bfloat16_rz(i64[i]))
        out[i, 2] = bf16.bfloat16_as_int16(bf16.int64_to_bfloat16_rd(i64[i]))
        out[i, 3] = bf16.bfloat16_as_int16(bf16.int64_to_bfloat16_ru(i64[i]))
        out[i, 4] = bf16.bfloat16_as_int16(bf16.uint64_to_bfloat16_rn(u64[i]))
        out[i, 5] = bf16.bfloat16_as_int16(bf16.uint64_to_bfloat16_ru(u64[i]))


def test_int_to_bfloat16_each_rounding_mode(device, rng):
    n = 400
    i64 = rng.integers(-2**63, 2**63 - 1, n, dtype=np.int64) >> rng.integers(0, 60, n)
    u64 = rng.integers(0, 2**64 - 1, n, dtype=np.uint64, endpoint=True) >> rng.integers(0, 60, n).astype(np.uint64)
    i64[:4] = [0, -1, 2**63 - 1, -2**63]
    u64[:2] = [0, 2**64 - 1]
    out = loom.zeros((n, 6), dtype=loom.int16, device=device)
    from_ints[(n + 127) // 128, 128](loom.asarray(i64, device=device), loom.asarray(u64, device=device), out)
    got = out.numpy().view(np.uint16)
    for j, mode in enumerate(MODES):
        np.testing.assert_array_equal(got[:, j], [bf16_bits_ref(int(v), mode) for v in i64], err_msg=mode)
    np.testing.assert_array_equal(got[:, 4], [bf16_bits_ref(int(v), "rn") for v in u64])
    np.testing.assert_array_equal(got[:, 5], [bf16_bits_ref(int(v), "ru") for v in u64])


@cuda.jit
def to_ints(bits, s32, u16, s8):
    i = cuda.grid(1)
    if i < bits.size:
        b = bf16.int16_as_bfloat16(bits[i])
        s32[i, 0] = bf16.bfloat16_to_int32_rn(b)
        s32[i, 1] = bf16.bfloat16_to_int32_rz(b)
        s32[i, 2] = bf16.bfloat16_to_int32_rd(b)
        s32[i, 3] = bf16.bfloat16_to_int32_ru(b)
        u16[i] = bf16.bfloat16_to_uint16_rn(b)
        s8[i] = bf16.bfloat16_to_int8_rz(b)


def test_bfloat16_to_int_rounds_and_saturates(device, rng):
    n = 400
    vals = (rng.standard_normal(n) * 10.0 ** rng.integers(-1, 12, n)).astype(ml_dtypes.bfloat16)
    vals[:3] = [np.nan, np.inf, -np.inf]
    bits = vals.view(np.int16)
    s32 = loom.zeros((n, 4), dtype=loom.int32, device=device)
    u16 = loom.zeros(n, dtype=loom.uint16, device=device)
    s8 = loom.zeros(n, dtype=loom.int8, device=device)
    to_ints[(n + 127) // 128, 128](loom.asarray(bits, device=device), s32, u16, s8)
    f = vals.astype(np.float64)

    def sat(x, lo, hi):
        return np.where(np.isnan(x), 0, np.clip(np.nan_to_num(x, posinf=hi, neginf=lo), lo, hi)).astype(np.int64)
    for j, fn in enumerate((np.rint, np.trunc, np.floor, np.ceil)):
        np.testing.assert_array_equal(s32.numpy()[:, j], sat(fn(f), -2**31, 2**31 - 1))
    np.testing.assert_array_equal(u16.numpy(), sat(np.rint(f), 0, 2**16 - 1))
    np.testing.assert_array_equal(s8.numpy(), sat(np.trunc(f), -128, 127))


@cuda.jit
def arithmetic(a, b, c, out):
    i = cuda.grid(1)
    if i < a.size:
        x, y, z = bfloat16(a[i]), bfloat16(b[i]), bfloat16(c[i])
        out[i, 0] = bf16.bfloat16_to_float32(bf16.hadd(x, y))
        out[i, 1] = bf16.bfloat16_to_float32(bf16.hmul(x, y))
        out[i, 2] = bf16.bfloat16_to_float32(bf16.hdiv(x, y))
        out[i, 3] = bf16.bfloat16_to_float32(bf16.hfma(x, y, z))
        out[i, 4] = bf16.bfloat16_to_float32(bf16.hadd_sat(x, y))
        out[i, 5] = bf16.bfloat16_to_float32(bf16.hfma_relu(x, y, z))
        out[i, 6] = bf16.bfloat16_to_float32(bf16.hmax_nan(x, y))
        out[i, 7] = bf16.bfloat16_to_float32(x * y - z)  # operators: bfloat16 in, bfloat16 out
        out[i, 8] = bf16.hlt(x, y)
        out[i, 9] = bf16.hisinf(bf16.hdiv(x, bfloat16(0.0)))


def test_bfloat16_arithmetic_rounds_once(device, rng):
    n = 300
    a, b, c = (rng.standard_normal(n).astype(np.float32) for _ in range(3))
    a[0] = np.nan
    out = loom.zeros((n, 10), dtype=loom.float32, device=device)
    arithmetic[(n + 127) // 128, 128](*(loom.asarray(v, device=device) for v in (a, b, c)), out)
    x, y, z = (v.astype(ml_dtypes.bfloat16).astype(np.float32) for v in (a, b, c))

    def r(v):  # float32 -> bfloat16 (nearest even) -> float32
        return np.asarray(v, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    o = out.numpy()
    np.testing.assert_array_equal(o[:, 0], r(x + y))
    np.testing.assert_array_equal(o[:, 1], r(x * y))
    np.testing.assert_array_equal(o[:, 2], r(x / y))
    fma = (x.astype(np.float64) * y + z).astype(np.float32)  # exact product: float64 holds it
    np.testing.assert_array_equal(o[:, 3], r(fma))
    np.testing.assert_array_equal(o[:, 4], r(np.where(np.isnan(x + y), 0, np.clip(x + y, 0, 1))))  # NaN -> +0
    np.testing.assert_array_equal(o[:, 5], r(np.where(np.isnan(fma), fma, np.maximum(fma, 0))))
    np.testing.assert_array_equal(o[:, 6], r(np.where(np.isnan(x) | np.isnan(y), np.nan, np.maximum(x, y))))
    # x * y - z: a GPU may contract the operators into one bfloat16 fma (as CUDA's operators
    # allow; bf16.hmul_rn is the intrinsic that forbids it), the emulator rounds each
    split, fused = r(r(x * y) - z), r((x.astype(np.float64) * y - z).astype(np.float32))
    ok = (o[:, 7] == split) | (o[:, 7] == fused) | (np.isnan(o[:, 7]) & np.isnan(split))
    assert ok.all(), (o[~ok, 7], split[~ok], fused[~ok])
    np.testing.assert_array_equal(o[:, 8], (x < y).astype(np.float32))
    np.testing.assert_array_equal(o[1:, 9], np.sign(x[1:]) * (x[1:] != 0))


def test_bfloat16_literals_and_support_query():
    assert cuda.is_bfloat16_supported() == (loom.default_device().type != "cuda"
                                            or loom.default_device().compute_capability >= (8, 0))
    from loom.pykernel.types import bfloat16_bits
    for v in (3.14, -0.0, 1e-40, 3.5e38, float("inf"), 1 + 2 ** -8, 1 + 3 * 2 ** -8):
        assert bfloat16_bits(v) == bf16_bits_ref(v, "rn") if math.isfinite(v) else bfloat16_bits(v) == 0x7F80
    with pytest.raises(RuntimeError, match="only be called inside a kernel"):
        bf16.hadd(1.0, 2.0)


@pytest.mark.skipif(not loom.build_info()["cuda"], reason="loom built without CUDA (no NVRTC)")
@pytest.mark.parametrize("cc", [(7, 5), (9, 0)])
def test_bfloat16_kernels_compile_with_nvrtc(cc):
    # sm_75 has no bfloat16 instructions: cuda_bf16.h's operators emulate them there
    for k, sig in ((arithmetic, "void(float32[:], float32[:], float32[:], float32[:, :])"),
                   (from_ints, "void(int64[:], uint64[:], int16[:, :])"),
                   (to_ints, "void(int16[:], int32[:, :], uint16[:], int8[:])"),
                   (from_floats, "void(float32[:], float64[:], int16[:, :])")):
        ptx, _ = cuda.compile_ptx(k.py_func, sig, cc=cc)
        assert f".target sm_{cc[0]}{cc[1]}" in ptx
