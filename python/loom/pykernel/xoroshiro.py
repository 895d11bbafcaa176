"""Numba's cuda.random (`loom.cuda.random`): the xoroshiro128+ generator, with the numbers
Numba gives for the same seed (the algorithm is public: Blackman and Vigna's xoroshiro128+
with rotations 55 and 36 and shift 14, states seeded by splitmix64, generator i jumped 2**64
steps past generator i - 1).

    states = cuda.random.create_xoroshiro128p_states(n, seed=1)
    @cuda.jit
    def k(states, out):
        i = cuda.grid(1)
        out[i] = xoroshiro128p_uniform_float32(states, i)

The draw functions are plain Python functions, which kernels compile as device functions
(and which run on NumPy arrays on the host too). A state array is a uint64 array of shape
(n, 2), each row (s0, s1): Numba's record dtype of the same two fields, which loom arrays do
not have. Seeding runs on the host: the jump is linear over GF(2), so generator i is the
seed's state times the i-th power of the jump's 128x128 bit matrix, computed for all
generators at once by doubling.
"""
import math

import numpy as np

from .. import _loom

__all__ = ["create_xoroshiro128p_states", "init_xoroshiro128p_states", "xoroshiro128p_next",
           "xoroshiro128p_jump", "xoroshiro128p_uniform_float32", "xoroshiro128p_uniform_float64",
           "xoroshiro128p_normal_float32", "xoroshiro128p_normal_float64"]

_MASK = (1 << 64) - 1
_JUMP = (0xBEAC0467EBA5FACB, 0xD86B048B86AA9922)
TWO_PI_FLOAT32 = np.float32(2 * math.pi)
TWO_PI_FLOAT64 = np.float64(2 * math.pi)


# ---------------------------------------------------------------- inside kernels
def _rotl(x, k):
    return (x << k) | (x >> (64 - k))


def xoroshiro128p_next(states, index):
    """The next uint64 of generator `index`, advancing it."""
    s0 = states[index, 0]
    s1 = states[index, 1]
    result = s0 + s1
    s1 ^= s0
    states[index, 0] = _rotl(s0, 55) ^ s1 ^ (s1 << 14)
    states[index, 1] = _rotl(s1, 36)
    return result


def xoroshiro128p_uniform_float64(states, index):
    """A float64 in [0, 1): the top 53 bits of the next uint64."""
    return (xoroshiro128p_next(states, index) >> 11) * (1.0 / 9007199254740992.0)


def xoroshiro128p_uniform_float32(states, index):
    """The float64 draw rounded to float32 (Numba's rule: 1.0 is possible)."""
    return np.float32(xoroshiro128p_uniform_float64(states, index))


def xoroshiro128p_normal_float32(states, index):
    """A standard normal float32 by Box-Muller from two float32 uniforms (two draws)."""
    u1 = xoroshiro128p_uniform_float32(states, index)
    u2 = xoroshiro128p_uniform_float32(states, index)
    return math.sqrt(np.float32(-2.0) * math.log(u1)) * math.cos(TWO_PI_FLOAT32 * u2)


def xoroshiro128p_normal_float64(states, index):
    """A standard normal float64 by Box-Muller from two float32 uniforms, as Numba's."""
    u1 = np.float64(xoroshiro128p_uniform_float32(states, index))
    u2 = np.float64(xoroshiro128p_uniform_float32(states, index))
    return math.sqrt(-2.0 * math.log(u1)) * math.cos(TWO_PI_FLOAT64 * u2)


def xoroshiro128p_jump(states, index):
    """Advances generator `index` by 2**64 draws."""
    s0 = np.uint64(0)
    s1 = np.uint64(0)
    for i in range(2):
        for b in range(64):
            if (_JUMP[i] >> b) & 1:
                s0 ^= states[index, 0]
                s1 ^= states[index, 1]
            xoroshiro128p_next(states, index)
    states[index, 0] = s0
    states[index, 1] = s1


# ---------------------------------------------------------------- seeding, on the host
def _splitmix64(seed):
    z = (int(seed) + 0x9E3779B97F4A7C15) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def _next_int(s0, s1):
    s1 ^= s0
    return (((s0 << 55) | (s0 >> 9)) & _MASK) ^ s1 ^ ((s1 << 14) & _MASK), ((s1 << 36) | (s1 >> 28)) & _MASK


def _jump_int(s0, s1):
    j0 = j1 = 0
    for word in _JUMP:
        for b in range(64):
            if (word >> b) & 1:
                j0 ^= s0
                j1 ^= s1
            s0, s1 = _next_int(s0, s1)
    return j0, j1


def _bits(s0, s1):
    return np.array([(s0 >> b) & 1 for b in range(64)] + [(s1 >> b) & 1 for b in range(64)], np.uint8)


# The jump as a 128x128 bit matrix: column j is the jump of the state with only bit j set.
_jump_matrix = None


def _jump_columns():
    global _jump_matrix
    if _jump_matrix is None:
        cols = [_bits(*_jump_int(1 << j, 0)) for j in range(64)] + [_bits(*_jump_int(0, 1 << j)) for j in range(64)]
        _jump_matrix = np.stack(cols, axis=1)
    return _jump_matrix


def _gf2(a, b):
    """a @ b over GF(2), for 0/1 uint8 matrices (exact in float32: sums stay below 2**24)."""
    return (a.astype(np.float32) @ b.astype(np.float32)).astype(np.int64).astype(np.uint8) & 1


def _power(m, k):
    result = np.eye(128, dtype=np.uint8)
    while k:
        if k & 1:
            result = _gf2(m, result)
        m, k = _gf2(m, m), k >> 1
    return result


def _host_states(n, seed, subsequence_start):
    z = _splitmix64(seed)
    jump = _jump_columns()
    first = _gf2(_power(jump, int(subsequence_start)), _bits(z, z)[:, None])[:, 0]
    bits = np.empty((n, 128), np.uint8)
    if n:
        bits[0] = first
    have, step = 1, jump
    while have < n:  # rows [have, 2 have) are rows [0, have) jumped `have` times more
        m = min(have, n - have)
        for lo in range(0, m, 1 << 16):
            hi = min(m, lo + (1 << 16))
            bits[have + lo:have + hi] = _gf2(bits[lo:hi], step.T)
        step, have = _gf2(step, step), have + m
    words = np.packbits(bits.reshape(n, 2, 64), axis=2, bitorder="little")
    return words.view(np.uint64).reshape(n, 2)


def init_xoroshiro128p_states(states, seed, subsequence_start=0, stream=0):
    """Seeds `states` (an (n, 2) uint64 array, loom or NumPy) for len(states) generators."""
    if tuple(states.shape[1:]) != (2,) or np.dtype(str(states.dtype)) != np.uint64:
        raise TypeError(f"[init_xoroshiro128p_states] a state array is uint64 of shape (n, 2), got {states.dtype} "
                        f"{tuple(states.shape)}")
    host = _host_states(states.shape[0], seed, subsequence_start)
    if isinstance(states, np.ndarray):
        states[...] = host
    else:
        states[...] = _loom.asarray(host, device=states.device)


def create_xoroshiro128p_states(n, seed, subsequence_start=0, stream=0, device=None):
    """A state array for `n` generators on the current device (cpu() without a GPU), generator
    i starting 2**64 * (subsequence_start + i) draws into the sequence of `seed`."""
    if n < 0:
        raise ValueError(f"[create_xoroshiro128p_states] n must be >= 0, got {n}")
    dev = device if device is not None else _loom.default_device()
    return _loom.asarray(_host_states(int(n), seed, subsequence_start), device=dev)
