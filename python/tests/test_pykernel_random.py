"""cuda.random (pykernel/xoroshiro.py), Numba's xoroshiro128+: seeding against the published
algorithm written out literally (splitmix64, then 2**64-step jumps of 128 draws each), draws
in kernels on every device against the same functions run on the host, the distributions'
moments, and Numba's own states where Numba is installed."""
import warnings

import numpy as np
import pytest

import loom
from loom import cuda
from loom.cuda.random import (create_xoroshiro128p_states, init_xoroshiro128p_states, xoroshiro128p_next,
                              xoroshiro128p_normal_float32, xoroshiro128p_normal_float64,
                              xoroshiro128p_uniform_float32, xoroshiro128p_uniform_float64)
from conftest import skip_cpu_kernels

M = (1 << 64) - 1


def literal_states(n, seed, start):
    """The algorithm as published, with Python ints."""
    def nxt(s0, s1):
        s1 ^= s0
        return ((((s0 << 55) | (s0 >> 9)) & M) ^ s1 ^ ((s1 << 14) & M), ((s1 << 36) | (s1 >> 28)) & M)

    def jump(s):
        out = [0, 0]
        for word in (0xBEAC0467EBA5FACB, 0xD86B048B86AA9922):
            for b in range(64):
                if word >> b & 1:
                    out = [out[0] ^ s[0], out[1] ^ s[1]]
                s = nxt(*s)
        return tuple(out)

    z = (seed + 0x9E3779B97F4A7C15) & M
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
    z ^= z >> 31
    s = (z, z)
    for _ in range(start):
        s = jump(s)
    states = [s]
    for _ in range(n - 1):
        states.append(jump(states[-1]))
    return np.array(states, dtype=np.uint64).reshape(n, 2)


@pytest.mark.parametrize("n, seed, start", [(1, 0, 0), (9, 12345, 0), (5, 2**63 + 7, 3)])
def test_seeding_follows_the_published_algorithm(n, seed, start):
    got = create_xoroshiro128p_states(n, seed=seed, subsequence_start=start, device=loom.cpu())
    assert got.dtype == loom.uint64 and got.shape == (n, 2)
    np.testing.assert_array_equal(got.numpy(), literal_states(n, seed, start))
    host = np.zeros((n, 2), np.uint64)
    init_xoroshiro128p_states(host, seed, start)
    np.testing.assert_array_equal(host, literal_states(n, seed, start))


@cuda.jit
def _draw(states, u32, u64, n32, n64, raw):
    i = cuda.grid(1)
    if i < u32.size:
        u32[i] = xoroshiro128p_uniform_float32(states, i)
        u64[i] = xoroshiro128p_uniform_float64(states, i)
        n32[i] = xoroshiro128p_normal_float32(states, i)
        n64[i] = xoroshiro128p_normal_float64(states, i)
        raw[i] = xoroshiro128p_next(states, i)


def test_kernel_draws_equal_the_host_functions(device):
    skip_cpu_kernels(device)
    dev = loom.Device(device)
    n = 300
    states = create_xoroshiro128p_states(n, seed=2024, device=dev)
    host = states.to(loom.cpu()).numpy().copy()
    outs = [loom.zeros(n, dtype=t, device=dev) for t in (loom.float32, loom.float64, loom.float32, loom.float64,
                                                          loom.uint64)]
    _draw[(n + 127) // 128, 128](states, *outs)
    with warnings.catch_warnings():  # NumPy warns on the uint64 wrap-around the algorithm relies on
        warnings.simplefilter("ignore", RuntimeWarning)
        want = [[f(host, i) for i in range(n)] for f in (xoroshiro128p_uniform_float32, xoroshiro128p_uniform_float64,
                                                           xoroshiro128p_normal_float32, xoroshiro128p_normal_float64,
                                                           xoroshiro128p_next)]
    got = [o.to(loom.cpu()).numpy() for o in outs]
    np.testing.assert_array_equal(got[0], np.array(want[0], np.float32))
    np.testing.assert_array_equal(got[1], np.array(want[1]))
    np.testing.assert_allclose(got[2], np.array(want[2], np.float32), rtol=2e-6, atol=2e-6)  # libm's logf/cosf
    np.testing.assert_allclose(got[3], np.array(want[3]), rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(got[4], np.array(want[4], np.uint64))
    np.testing.assert_array_equal(states.to(loom.cpu()).numpy(), host)  # each generator advanced the same


def test_distributions(device):
    skip_cpu_kernels(device)
    dev = loom.Device(device)
    n = 1 << 14
    states = create_xoroshiro128p_states(n, seed=99, device=dev)
    outs = [loom.zeros(n, dtype=t, device=dev) for t in (loom.float32, loom.float64, loom.float32, loom.float64,
                                                          loom.uint64)]
    _draw[n // 256, 256](states, *outs)
    u, norm = outs[1].to(loom.cpu()).numpy(), outs[3].to(loom.cpu()).numpy()
    assert 0 <= u.min() and u.max() < 1 and abs(u.mean() - 0.5) < 0.01 and abs(u.var() - 1 / 12) < 0.005
    assert abs(norm.mean()) < 0.04 and abs(norm.std() - 1) < 0.03


def test_errors():
    with pytest.raises(ValueError, match=r"create_xoroshiro128p_states\] n must be >= 0"):
        create_xoroshiro128p_states(-1, seed=1)
    with pytest.raises(TypeError, match=r"uint64 of shape \(n, 2\)"):
        init_xoroshiro128p_states(np.zeros(4, np.uint64), 1)


def test_states_match_numbas_when_installed():
    random = pytest.importorskip("numba.cuda.random", reason="needs Numba's CUDA package")
    ref = np.empty(6, dtype=random.xoroshiro128p_dtype)
    random.init_xoroshiro128p_states_cpu(ref, 31337, 2)
    got = create_xoroshiro128p_states(6, seed=31337, subsequence_start=2, device=loom.cpu()).numpy()
    np.testing.assert_array_equal(got[:, 0], ref["s0"])
    np.testing.assert_array_equal(got[:, 1], ref["s1"])


@pytest.mark.skipif(not loom.build_info()["cuda"], reason="loom built without CUDA (no NVRTC)")
def test_generated_source_compiles_with_nvrtc_without_a_gpu():
    from loom.pykernel import types as T
    from loom.pykernel.compiler import translate_kernel
    a = lambda dt: T.Array(dt, 1, "C")  # noqa: E731
    src, _ = translate_kernel(_draw.py_func, (T.Array("uint64", 2, "C"), a("float32"), a("float64"), a("float32"),
                                              a("float64"), a("uint64")))
    loom.RawModule(src).compile(90)
