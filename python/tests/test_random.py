"""loom.random: Philox known answers, the same bits on every device, the global generator's
reproducibility, keys, distribution statistics (fixed seeds, generous fixed thresholds on
~1e6 samples), randint ranges, permutations, arguments and errors."""
import hashlib
import math
import os
import subprocess
import sys

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import loom
import loom.random as lr
from conftest import compare

FLOATS = [loom.float16, loom.bfloat16, loom.float32, loom.float64]
INTS = [loom.bool_, loom.int8, loom.int16, loom.int32, loom.int64,
        loom.uint8, loom.uint16, loom.uint32, loom.uint64]
N = 1 << 20


def host(x):
    return np.asarray(x.to(loom.cpu()))


def bits(x):
    """The raw element bytes, for exact comparisons (NaN-safe, -0.0 != 0.0)."""
    a = host(x)
    return a.view(np.uint8) if a.ndim else a.reshape(1).view(np.uint8)


def normal_cdf(x):
    grid = np.linspace(-9.0, 9.0, 36001)
    table = np.array([0.5 * math.erfc(-g / math.sqrt(2.0)) for g in grid])
    return np.interp(x, grid, table)


def ks_statistic(samples, cdf):
    x = np.sort(np.asarray(samples, dtype=np.float64))
    n = x.size
    f = cdf(x)
    i = np.arange(1, n + 1)
    return max(np.max(i / n - f), np.max(f - (i - 1) / n))


# ---- Philox ------------------------------------------------------------------------------
@pytest.mark.parametrize("counter,key,expected", [
    ((0, 0, 0, 0), (0, 0), (0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8)),
    ((0xffffffff,) * 4, (0xffffffff,) * 2, (0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd)),
    ((0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344), (0xa4093822, 0x299f31d0),
     (0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1)),
])
def test_philox_known_answers(counter, key, expected):
    # Random123's kat_vectors for philox4x32 10.
    assert tuple(lr._philox4x32_10(counter, key)) == expected


def test_elements_come_from_documented_counters():
    k = lr.key(2**40 + 77)
    got = host(lr.uniform(k, (9,), device=loom.cpu()))
    for i in range(9):
        b = i // 4
        word = lr._philox4x32_10((b & 0xffffffff, b >> 32, 0, 0), (k.hi, k.lo))[i % 4]
        assert got[i] == np.float32((word >> 8) * 2.0**-24)
    # randint: 64 bits per element (two words), high half of bits * range
    r = host(lr.randint(k, (2,), 0, 1000, dtype=loom.int64, device=loom.cpu()))
    w = lr._philox4x32_10((0, 0, 0, 0), (k.hi, k.lo))
    for i in range(2):
        x = w[2 * i] | (w[2 * i + 1] << 32)
        assert r[i] == (x * 1000) >> 64


# ---- the same numbers on every device --------------------------------------------------------
@pytest.mark.parametrize("n", [1, 5, 4099, 300_001])
def test_same_key_same_bits_on_every_device(device, n):
    k = lr.fold_in(lr.key(11), n)
    cpu = loom.cpu()
    for dt in FLOATS:
        for f in (lambda d: lr.uniform(k, (n,), dtype=dt, device=d),
                  lambda d: lr.uniform(k, (n,), dtype=dt, minval=-2.5, maxval=7.0, device=d),
                  lambda d: lr.normal(k, (n,), dtype=dt, device=d)):
            got, want = f(device), f(cpu)
            assert got.device == device and got.dtype == dt
            np.testing.assert_array_equal(bits(got), bits(want))
    for dt in INTS:
        hi = 2 if dt == loom.bool_ else 100
        np.testing.assert_array_equal(host(lr.randint(k, (n,), 0, hi, dtype=dt, device=device)),
                                      host(lr.randint(k, (n,), 0, hi, dtype=dt, device=cpu)))
    for lo, hi in [(-2**40, 2**41), (-2**63, 2**63)]:
        np.testing.assert_array_equal(host(lr.randint(k, (n,), lo, hi, dtype=loom.int64, device=device)),
                                      host(lr.randint(k, (n,), lo, hi, dtype=loom.int64, device=cpu)))
    np.testing.assert_array_equal(host(lr.bernoulli(k, 0.25, (n,), device=device)),
                                  host(lr.bernoulli(k, 0.25, (n,), device=cpu)))
    np.testing.assert_array_equal(host(lr.permutation(k, n, device=device)), host(lr.permutation(k, n, device=cpu)))


def test_global_generator_same_on_every_device(device):
    lr.seed(1234)
    a = [lr.rand(1001, device=device), lr.randn(7, 3, dtype=loom.float32, device=device),
         lr.randint(-5, 5, size=99, device=device), lr.permutation(50, device=device)]
    lr.seed(1234)
    b = [lr.rand(1001, device=loom.cpu()), lr.randn(7, 3, dtype=loom.float32, device=loom.cpu()),
         lr.randint(-5, 5, size=99, device=loom.cpu()), lr.permutation(50, device=loom.cpu())]
    for x, y in zip(a, b):
        assert x.device == device
        np.testing.assert_array_equal(bits(x), bits(y))


@pytest.mark.parametrize("threads", ["1", "3"])
def test_cpu_results_independent_of_thread_count(threads):
    # Each element's counter is offset + its block index, whatever chunk a thread takes.
    code = ("import loom, loom.random as lr, numpy as np, hashlib;"
            "x = np.asarray(lr.normal(lr.key(77), (300_001,), dtype=loom.float64, device=loom.cpu()));"
            "print(hashlib.sha256(x.tobytes()).hexdigest())")
    env = dict(os.environ, LOOM_NUM_THREADS=threads, PYTHONPATH=os.pathsep.join(sys.path))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    x = host(lr.normal(lr.key(77), (300_001,), dtype=loom.float64, device=loom.cpu()))
    assert out.stdout.split()[0] == hashlib.sha256(x.tobytes()).hexdigest()


# ---- the global generator ------------------------------------------------------------------
def test_seed_reproducible_and_state_advances():
    lr.seed(7)
    a = host(lr.rand(10, 3))
    assert lr.get_state()[1] == 15  # 30 float64 draws, 2 per 128-bit block
    b = host(lr.normal(1.0, 2.0, size=5))
    lr.seed(7)
    np.testing.assert_array_equal(host(lr.rand(10, 3)), a)
    np.testing.assert_array_equal(host(lr.normal(1.0, 2.0, size=5)), b)
    lr.seed(8)
    assert not np.array_equal(host(lr.rand(10, 3)), a)
    # Right after seed(s), a draw is the keyed draw with key(s).
    lr.seed(7)
    np.testing.assert_array_equal(host(lr.rand(30)), host(lr.uniform(lr.key(7), (30,), dtype=loom.float64)))
    state = lr.get_state()
    c = host(lr.randint(0, 2**40, size=20))
    lr.set_state(state)
    np.testing.assert_array_equal(host(lr.randint(0, 2**40, size=20)), c)


def test_seed_none_and_default_differ():
    lr.seed(None)
    x = host(lr.rand(8))
    lr.seed(None)
    assert not np.array_equal(host(lr.rand(8)), x)


# ---- keys ------------------------------------------------------------------------------------
def test_wrap_key_data_refuses_all_but_uint32():
    # JAX refuses them too: float32 data would make a key of its values or bits, not the one meant.
    for data in (np.array([1.0, 2.0], dtype=np.float32), np.array([1, 2], dtype=np.int64), [1, 2]):
        with pytest.raises(TypeError, match=r"\[wrap_key_data\] key data must be uint32 .*not (float32|int64)"):
            lr.wrap_key_data(data)


def test_keys_split_fold_in():
    k = lr.key(0)
    assert k == lr.key(0) and k != lr.key(1) and hash(k) == hash(lr.key(0))
    assert (k.hi, k.lo) == (0, 0) and (lr.key(-1).hi, lr.key(-1).lo) == (0xffffffff, 0xffffffff)
    assert lr.PRNGKey(5) == lr.key(5)
    np.testing.assert_array_equal(lr.key_data(lr.key(2**33 + 3)), np.array([2, 3], dtype=np.uint32))
    assert lr.wrap_key_data(lr.key_data(lr.key(99))) == lr.key(99)
    assert lr.wrap_key_data(loom.asarray(lr.key_data(lr.key(99)))) == lr.key(99)
    k1, k2 = lr.split(k)
    assert len({(x.hi, x.lo) for x in (k, k1, k2)}) == 3
    assert lr.split(k, 5)[:2] == [k1, k2]
    assert lr.split(k, 0) == []
    assert lr.fold_in(k, 1) != lr.fold_in(k, 2) and lr.fold_in(k, 1) == lr.fold_in(k, 1)
    assert repr(lr.key(42)) == "Key(0x00000000, 0x0000002a)"


def test_split_keys_independent():
    k1, k2 = lr.split(lr.key(2024))
    a = host(lr.normal(k1, (200_000,), dtype=loom.float64))
    b = host(lr.normal(k2, (200_000,), dtype=loom.float64))
    parent = host(lr.normal(lr.key(2024), (200_000,), dtype=loom.float64))
    for x, y in [(a, b), (a, parent), (b, parent)]:
        assert abs(np.corrcoef(x, y)[0, 1]) < 0.015  # 6.7 sigma for independent streams
    np.testing.assert_array_equal(host(lr.normal(k1, (100,), dtype=loom.float64)), a[:100])


# ---- statistics (fixed keys: deterministic, thresholds far from typical values) -------------
@pytest.mark.parametrize("dt", [loom.float32, loom.float64])
def test_uniform_statistics(device, dt):
    x = host(lr.uniform(lr.key(31), (N,), dtype=dt, device=device)).astype(np.float64)
    assert x.min() >= 0.0 and x.max() < 1.0
    assert abs(x.mean() - 0.5) < 6 * math.sqrt(1 / 12 / N)
    assert abs(x.var() - 1 / 12) < 2e-3
    assert ks_statistic(x, lambda v: v) < 2.5 / math.sqrt(N)
    counts = np.bincount((x * 100).astype(np.int64), minlength=100)
    chi2 = np.sum((counts - N / 100) ** 2 / (N / 100))
    assert chi2 < 99 + 8 * math.sqrt(2 * 99)
    y = host(lr.uniform(lr.key(32), (N,), dtype=dt, minval=-3.0, maxval=5.0, device=device)).astype(np.float64)
    assert y.min() >= -3.0 and y.max() <= 5.0 and abs(y.mean() - 1.0) < 0.02


@pytest.mark.parametrize("dt,step", [(loom.float16, 2.0**-11), (loom.bfloat16, 2.0**-8)])
def test_uniform_half_precision_grid(dt, step):
    x = host(lr.uniform(lr.key(5), (N // 4,), dtype=dt)).astype(np.float64)
    assert x.min() >= 0 and x.max() < 1.0
    np.testing.assert_array_equal(np.floor(x / step), x / step)  # multiples of 2^-bits: exact, never 1.0
    assert len(np.unique(x)) == int(round(1 / step))
    assert abs(x.mean() - (0.5 - step / 2)) < 3e-3


@pytest.mark.parametrize("dt", [loom.float32, loom.float64])
def test_normal_statistics(device, dt):
    z = host(lr.normal(lr.key(41), (N,), dtype=dt, device=device)).astype(np.float64)
    assert np.all(np.isfinite(z))
    assert abs(z.mean()) < 6 / math.sqrt(N)
    assert abs(z.var() - 1.0) < 6 * math.sqrt(2 / N)
    assert abs(np.mean(z**3)) < 0.015 and abs(np.mean(z**4) - 3.0) < 0.05  # skew, kurtosis
    assert ks_statistic(z, normal_cdf) < 2.5 / math.sqrt(N)
    tail = np.mean(np.abs(z) > 3.0)
    assert abs(tail - 0.0026998) < 6 * math.sqrt(0.0027 / N)
    # Consecutive outputs (the two halves of a Box-Muller pair) are uncorrelated.
    assert abs(np.corrcoef(z[0::2], z[1::2])[0, 1]) < 0.01


@pytest.mark.parametrize("dt", [loom.float16, loom.bfloat16])
def test_normal_half_precision(dt):
    z = host(lr.normal(lr.key(43), (N // 4,), dtype=dt)).astype(np.float64)
    assert abs(z.mean()) < 0.01 and abs(z.var() - 1.0) < 0.03
    assert ks_statistic(z, normal_cdf) < 0.01  # rounding to 8-11 bits moves the CDF a little


def test_numpy_style_normal_and_uniform_moments(device):
    lr.seed(99)
    z = host(lr.normal(3.0, 0.5, size=(1000, 1000), device=device))
    assert z.shape == (1000, 1000) and z.dtype == np.float64
    assert abs(z.mean() - 3.0) < 0.003 and abs(z.std() - 0.5) < 0.003
    u = host(lr.uniform(-1.0, 1.0, size=N, device=device))
    assert u.min() >= -1.0 and u.max() < 1.0 and abs(u.mean()) < 0.005
    r = host(lr.randn(N, device=device))
    assert abs(r.mean()) < 0.006 and abs(r.var() - 1) < 0.01


def test_bernoulli_statistics(device):
    for p in (0.0, 0.3, 1.0):
        b = host(lr.bernoulli(lr.key(8), p, (N,), device=device))
        assert b.dtype == np.bool_
        assert abs(b.mean() - p) < 6 * math.sqrt(max(p * (1 - p), 1e-12) / N) + 1e-12


# ---- randint ------------------------------------------------------------------------------------
def test_randint_uniform_chi_square(device):
    x = host(lr.randint(lr.key(17), (N,), 0, 10, dtype=loom.int64, device=device))
    counts = np.bincount(x, minlength=10)
    assert len(counts) == 10
    chi2 = np.sum((counts - N / 10) ** 2 / (N / 10))
    assert chi2 < 9 + 8 * math.sqrt(18)
    lr.seed(17)
    y = host(lr.randint(-7, 6, size=N, device=device))
    assert y.min() == -7 and y.max() == 5
    counts = np.bincount(y + 7)
    assert np.sum((counts - N / 13) ** 2 / (N / 13)) < 12 + 8 * math.sqrt(24)


@pytest.mark.parametrize("dt", INTS)
def test_randint_dtype_ranges(device, dt):
    npdt = np.dtype(dt.name if dt != loom.bool_ else np.bool_)
    if dt == loom.bool_:
        lo, hi = 0, 2
    else:
        info = np.iinfo(npdt)
        lo, hi = int(info.min), int(info.max) + 1
    x = host(lr.randint(lr.key(3), (20000,), lo, hi, dtype=dt, device=device))
    assert x.dtype == npdt
    assert len(np.unique(x)) > (1 if dt == loom.bool_ else 250)
    lr.seed(3)
    y = host(lr.randint(lo, hi, size=(100, 3), dtype=dt, device=device))
    assert y.shape == (100, 3) and y.dtype == npdt
    if dt != loom.bool_:
        small = host(lr.randint(lr.key(4), (5000,), lo, lo + 3, dtype=dt, device=device)).astype(object)
        assert set(small) == {lo, lo + 1, lo + 2}


def test_randint_wide_ranges():
    # > 2^32 takes 128 random bits; exactly 2^64 takes the raw 64 bits.
    x = host(lr.randint(lr.key(9), (N,), 0, 3 * 2**40, dtype=loom.int64))
    assert x.min() >= 0 and x.max() < 3 * 2**40
    assert abs(x.mean() / (3 * 2**40) - 0.5) < 0.002
    full = host(lr.randint(lr.key(9), (N,), -2**63, 2**63, dtype=loom.int64))
    assert abs(np.mean(full < 0) - 0.5) < 0.003
    u = host(lr.randint(lr.key(9), (N,), 0, 2**64, dtype=loom.uint64))
    assert abs(np.mean(u >= 2**63) - 0.5) < 0.003 and abs(np.mean(u & 1) - 0.5) < 0.003


# ---- permutation ----------------------------------------------------------------------------------
def test_permutation_is_a_permutation(device):
    lr.seed(0)
    p = lr.permutation(1000, device=device)
    assert p.device == device and p.dtype == loom.int64
    hp = host(p)
    np.testing.assert_array_equal(np.sort(hp), np.arange(1000))
    assert not np.array_equal(hp, np.arange(1000))
    x = np.arange(30.0).reshape(10, 3)
    q = lr.permutation(loom.asarray(x, device=device))
    assert q.device == device and q.shape == (10, 3)
    hq = host(q)
    np.testing.assert_array_equal(np.sort(hq[:, 0]), x[:, 0])
    np.testing.assert_array_equal(hq[:, 1] - hq[:, 0], np.ones(10))  # rows move whole
    keyed = host(lr.permutation(lr.key(1), loom.asarray(x[::-1], device=device)))
    np.testing.assert_array_equal(np.sort(keyed[:, 2]), x[:, 2])
    assert lr.permutation(0, device=device).shape == (0,)
    assert lr.permutation(-3).shape == (0,)  # NumPy: arange(-3)


def test_permutation_positions_uniform():
    # Fisher-Yates with unbiased draws: element 0 lands in each of 8 slots equally often.
    counts = np.zeros(8)
    for i in range(4000):
        counts[int(np.argmax(host(lr.permutation(lr.fold_in(lr.key(6), i), 8)) == 0))] += 1
    assert np.sum((counts - 500) ** 2 / 500) < 7 + 8 * math.sqrt(14)


def test_shuffle_in_place(device):
    x = loom.asarray(np.arange(20), device=device)
    lr.seed(5)
    lr.shuffle(x)
    hx = host(x)
    np.testing.assert_array_equal(np.sort(hx), np.arange(20))
    assert not np.array_equal(hx, np.arange(20))


# ---- arguments --------------------------------------------------------------------------------
@pytest.mark.parametrize("shape", [(), (0,), (3, 4), (2, 0, 3), (1, 1, 5)])
def test_shapes_dtypes_devices(device, shape):
    k = lr.key(1)
    for dt in FLOATS:
        for x in (lr.uniform(k, shape, dtype=dt, device=device), lr.normal(k, shape, dtype=dt, device=device)):
            assert x.shape == shape and x.dtype == dt and x.device == device
    assert lr.uniform(k, shape, device=device).dtype == loom.float32  # JAX default
    assert lr.randint(k, shape, 0, 5, device=device).dtype == loom.int32
    assert lr.rand(*shape, device=device).dtype == loom.float64  # NumPy default
    assert lr.rand(*shape, dtype=np.float32, device=device).dtype == loom.float32
    assert lr.randn(*shape, device=device).shape == shape
    assert lr.randint(3, size=shape, device=device).dtype == loom.int64
    assert lr.normal(size=shape, device=device).shape == shape
    assert lr.random(shape, device=device).shape == lr.standard_normal(shape, device=device).shape == shape
    assert lr.rand(device=device).shape == () and lr.uniform(device=device).shape == ()


def test_default_device_and_int_shape():
    with loom.device(loom.cpu()):
        assert lr.uniform(lr.key(0), 5).device == loom.cpu()
        assert lr.rand(5).device == loom.cpu()
    assert lr.uniform(lr.key(0), 5).device == loom.default_device()


@settings(max_examples=25, deadline=None)
@given(shape=st.lists(st.integers(0, 6), max_size=4).map(tuple),
       dt_name=st.sampled_from(["float16", "bfloat16", "float32", "float64"]),
       seed=st.integers(0, 2**64 - 1), lo=st.floats(-1e3, 1e3), width=st.floats(1e-3, 1e3))
def test_keyed_uniform_properties(shape, dt_name, seed, lo, width):
    # Names, not dtype objects, in the strategy: hypothesis keeps examples alive past
    # interpreter shutdown, which nanobind reports as leaks.
    dt = getattr(loom, dt_name)
    k = lr.key(seed)
    x = np.asarray(lr.uniform(k, shape, dtype=dt, minval=lo, maxval=lo + width)).astype(np.float64)
    assert x.shape == shape
    if x.size:
        npdt = ml_dtypes.bfloat16 if dt == loom.bfloat16 else np.dtype(dt.name)
        # bounds as rounded into the dtype: the draw is low + u * (high - low) rounded once
        assert x.min() >= float(np.asarray(lo).astype(npdt)) - abs(lo) * 1e-2 - 1e-6
        assert x.max() <= float(np.asarray(lo + width).astype(npdt)) + abs(lo + width) * 1e-2 + 1e-6
    # A prefix of a draw is the draw of the prefix: element i depends on i only.
    flat = np.asarray(lr.uniform(k, (int(np.prod(shape)) + 3,), dtype=dt, minval=lo, maxval=lo + width))
    np.testing.assert_array_equal(x.reshape(-1), flat[:x.size].astype(np.float64))


# ---- errors (NumPy's exception types) ------------------------------------------------------------
def test_errors_match_numpy(device):
    with loom.device(device):
        compare(lambda xp: xp.random.randint(5, 5), device=device)
        compare(lambda xp: xp.random.randint(5, 2, size=3), device=device)
        compare(lambda xp: xp.random.randint(0, 300, dtype=xp.int8), device=device)
        compare(lambda xp: xp.random.randint(-1, 3, dtype=xp.uint8), device=device)
        compare(lambda xp: xp.random.randint(0, 3, dtype=xp.float32), device=device)
        compare(lambda xp: xp.random.normal(0.0, -1.0, size=3), device=device)
        compare(lambda xp: xp.random.uniform(0.0, math.inf, size=3), device=device)
        compare(lambda xp: xp.random.permutation(xp.asarray(3.0)), device=device)
        compare(lambda xp: xp.random.rand(2.0), device=device)
        compare(lambda xp: xp.random.seed(-1), device=device)


def test_errors_keyed(device):
    k = lr.key(0)
    with pytest.raises(ValueError):
        lr.randint(k, (3,), 4, 4, device=device)
    with pytest.raises(ValueError):
        lr.randint(k, (3,), 0, 2**31 + 1, dtype=loom.int32, device=device)
    with pytest.raises(TypeError):
        lr.uniform(k, (3,), dtype=loom.int32, device=device)
    with pytest.raises(TypeError):
        lr.normal(k, (3,), dtype=loom.bool_, device=device)
    with pytest.raises(TypeError):
        lr.rand(3, dtype="int64", device=device)
    with pytest.raises(TypeError):
        lr.randint(k, (3,), 0, 5, dtype=loom.float64, device=device)
    with pytest.raises(TypeError):
        lr.uniform(k, (3,), dtype="complex64")
    with pytest.raises(ValueError):
        lr.bernoulli(k, 1.5, (3,), device=device)
    with pytest.raises(ValueError):
        lr.uniform(k, (-1,), device=device)
    with pytest.raises(ValueError):
        lr.split(k, -1)
    # Array-valued parameters broadcast as NumPy's (test_random_distributions.py tests them).
    assert lr.normal(np.zeros(3), 1.0, device=device).shape == (3,)
