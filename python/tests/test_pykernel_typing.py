"""Typing rules of Python kernels, compared with what Numba documents and NumPy computes:
Python ints are int64 and floats float64, literals are weak (NumPy 2), `/` on integers is
true division, `//` and `%` round toward minus infinity, casts truncate."""
import math

import numpy as np
import pytest

import loom
from loom import cuda


@cuda.jit
def int_ops(a, b, out_f, out_i):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        y = b[i]
        out_f[i, 0] = x / y
        out_i[i, 0] = x // y
        out_i[i, 1] = x % y
        out_i[i, 2] = -x // 3
        out_i[i, 3] = -x % 3
        out_i[i, 4] = x ** 2
        out_i[i, 5] = (x << 2) | (y & 7)
        out_i[i, 6] = abs(-x) + min(x, y) - max(x, y, 3)
        out_f[i, 1] = x * 0.5
        out_f[i, 2] = float(x) / 4
        out_i[i, 7] = int(out_f[i, 0] * 10.7)
        out_i[i, 8] = True + True
        out_i[i, 9] = round(x / 4)


def test_integer_arithmetic_follows_python(device, rng):
    n = 500
    a = rng.integers(-1000, 1000, n).astype(np.int32)
    b = rng.integers(1, 50, n).astype(np.int32) * rng.choice([-1, 1], n).astype(np.int32)
    out_f = loom.zeros((n, 3), dtype=loom.float64, device=device)
    out_i = loom.zeros((n, 10), dtype=loom.int64, device=device)
    int_ops[4, 128](loom.asarray(a, device=device), loom.asarray(b, device=device), out_f, out_i)
    f, i = out_f.numpy(), out_i.numpy()
    a64, b64 = a.astype(np.int64), b.astype(np.int64)
    np.testing.assert_allclose(f[:, 0], a64 / b64, rtol=1e-15)
    np.testing.assert_array_equal(i[:, 0], a64 // b64)
    np.testing.assert_array_equal(i[:, 1], a64 % b64)
    np.testing.assert_array_equal(i[:, 2], -a64 // 3)
    np.testing.assert_array_equal(i[:, 3], -a64 % 3)
    np.testing.assert_array_equal(i[:, 4], a64 ** 2)
    np.testing.assert_array_equal(i[:, 5], (a64 << 2) | (b64 & 7))
    np.testing.assert_array_equal(i[:, 6], np.abs(a64) + np.minimum(a64, b64) - np.maximum(np.maximum(a64, b64), 3))
    np.testing.assert_allclose(f[:, 1], a64 * 0.5)
    np.testing.assert_allclose(f[:, 2], a64 / 4)
    np.testing.assert_array_equal(i[:, 7], np.trunc(a64 / b64 * 10.7).astype(np.int64))
    np.testing.assert_array_equal(i[:, 8], 2)
    np.testing.assert_array_equal(i[:, 9], np.round(a64 / 4).astype(np.int64))


@cuda.jit
def float32_stays_float32(x, out):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        out[i] = v * 0.1 + 1.0 / 3.0   # weak literals: computed in float32
        w = v * np.float64(0.1)          # a typed float64 promotes
        out[i + x.size] = w


def test_weak_literals_keep_float32(device, rng):
    x = rng.random(64, dtype=np.float32)
    out = loom.zeros(128, dtype=loom.float32, device=device)
    float32_stays_float32[1, 64](loom.asarray(x, device=device), out)
    f32 = x * np.float32(0.1) + np.float32(1.0 / 3.0)
    np.testing.assert_allclose(out.numpy()[:64], f32, rtol=2e-7)
    np.testing.assert_allclose(out.numpy()[64:], (x.astype(np.float64) * 0.1).astype(np.float32), rtol=1e-7)
    text = float32_stays_float32.inspect_types(file=open("/dev/null", "w"))
    assert "v = float32" in text and "w = float64" in text


@cuda.jit
def mixed(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        s = 0              # int64
        s += a[i]          # int32 -> int64
        t = s + b[i]       # int64 + float32 -> float64 (NumPy)
        out[i] = t


def test_variables_unify_like_numba(device, rng):
    a = rng.integers(-100, 100, 32).astype(np.int32)
    b = rng.random(32, dtype=np.float32)
    out = loom.zeros(32, dtype=loom.float64, device=device)
    mixed[1, 32](loom.asarray(a, device=device), loom.asarray(b, device=device), out)
    np.testing.assert_allclose(out.numpy(), a.astype(np.float64) + b.astype(np.float64), rtol=1e-15)
    text = mixed.inspect_types(file=open("/dev/null", "w"))
    assert "s = int64" in text and "t = float64" in text


@cuda.jit
def math_funcs(x, out):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        out[i, 0] = math.sin(v) + math.cos(v)
        out[i, 1] = math.exp(v) - math.log(v + 1)
        out[i, 2] = math.sqrt(v) * math.tanh(v)
        out[i, 3] = math.floor(v * 10) + math.ceil(v * 10)
        out[i, 4] = np.sin(v) ** 2 + np.cos(v) ** 2
        out[i, 5] = math.atan2(v, 0.5) + math.hypot(v, 2.0)
        out[i, 6] = math.pi * v + math.erf(v)
        out[i, 7] = 1.0 if math.isnan(v / 0.0 * 0.0) else 0.0
        out[i, 8] = np.float32(v) + np.int8(3)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_math_functions(device, rng, dtype):
    x = rng.uniform(0.1, 2.0, 100).astype(dtype)
    out = loom.zeros((100, 9), dtype=str(np.dtype(dtype)), device=device)
    math_funcs[1, 128](loom.asarray(x, device=device), out)
    rt = 1e-5 if dtype == np.float32 else 1e-12
    o = out.numpy()
    np.testing.assert_allclose(o[:, 0], np.sin(x) + np.cos(x), rtol=rt)
    np.testing.assert_allclose(o[:, 1], np.exp(x) - np.log(x + 1), rtol=rt)
    np.testing.assert_allclose(o[:, 2], np.sqrt(x) * np.tanh(x), rtol=rt)
    np.testing.assert_allclose(o[:, 3], np.floor(x * dtype(10)) + np.ceil(x * dtype(10)), rtol=rt)
    np.testing.assert_allclose(o[:, 4], 1, rtol=rt * 10)
    np.testing.assert_allclose(o[:, 5], np.arctan2(x, 0.5) + np.hypot(x, 2.0), rtol=rt)
    np.testing.assert_allclose(o[:, 6], np.pi * x + np.array([math.erf(v) for v in x.astype(np.float64)]), rtol=rt)
    np.testing.assert_allclose(o[:, 7], 1)
    np.testing.assert_array_equal(o[:, 8], (x.astype(np.float32) + np.float32(3)).astype(dtype))  # float32 + int8: float32


@cuda.jit
def casts(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i, 0] = int(x[i])
        out[i, 1] = np.int32(x[i])
        out[i, 2] = np.uint8(np.int64(x[i]) & 255)
        out[i, 3] = bool(x[i])
        out[i, 4] = np.float32(x[i] * 3)


def test_casts_truncate(device, rng):
    x = rng.uniform(-300, 300, 64)
    x[0] = 0.0
    out = loom.zeros((64, 5), dtype=loom.float64, device=device)
    casts[1, 64](loom.asarray(x, device=device), out)
    o = out.numpy()
    np.testing.assert_array_equal(o[:, 0], np.trunc(x))
    np.testing.assert_array_equal(o[:, 1], np.trunc(x))
    np.testing.assert_array_equal(o[:, 2], np.trunc(x).astype(np.int64) & 255)
    np.testing.assert_array_equal(o[:, 3], x != 0)
    np.testing.assert_array_equal(o[:, 4], (x * 3).astype(np.float32))


@cuda.jit(device=True)
def minmax_pair(a, b):
    if a < b:
        return a, b
    return b, a


@cuda.jit
def tuples(x, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        lo, hi = minmax_pair(x[i, 0], x[i, 1])
        t = (lo, hi)
        a, b = t
        a, b = b, a
        out[i, 0] = a
        out[i, 1] = b
        out[i, 2] = t[0] if t[1] > 0.5 else -t[-1]


def test_tuples_unpacking_and_swaps(device, rng):
    x = rng.random((50, 2))
    out = loom.zeros((50, 3), dtype=loom.float64, device=device)
    tuples[1, 64](loom.asarray(x, device=device), out)
    lo, hi = x.min(axis=1), x.max(axis=1)
    np.testing.assert_array_equal(out.numpy()[:, 0], hi)
    np.testing.assert_array_equal(out.numpy()[:, 1], lo)
    np.testing.assert_array_equal(out.numpy()[:, 2], np.where(hi > 0.5, lo, -hi))


@cuda.jit
def widened_parameter(out, n):
    n = n * 2.5  # an int64 parameter becomes a float64 variable
    out[0] = n


def test_a_reassigned_parameter_widens(device):
    out = loom.zeros(1, dtype=loom.float64, device=device)
    widened_parameter[1, 1](out, 3)
    assert out.numpy()[0] == 7.5


@cuda.jit(device=True)
def nested_pair(a, b):
    return (a, (b, a + b))


@cuda.jit
def nested_tuples(x, out):
    i = cuda.grid(1)
    if i < x.size:
        t = nested_pair(x[i], 2.0)
        u = (t[1], t[0])
        (p, q), r = u
        out[i] = p + 10 * q + 100 * r


def test_nested_tuples(device, rng):
    x = rng.random(20)
    out = loom.zeros(20, dtype=loom.float64, device=device)
    nested_tuples[1, 32](loom.asarray(x, device=device), out)
    np.testing.assert_allclose(out.numpy(), 2.0 + 10 * (x + 2.0) + 100 * x, rtol=1e-12)
