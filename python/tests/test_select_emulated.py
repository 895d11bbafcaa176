"""select_ranks' GPU kernels (loom/backend/cuda/kernels/loom_select.cuh) on the CPU kernel
emulator, launched in the order the GPU eval uses (backend/cuda/sorting_select.cpp): init,
then per 8-bit digit a histogram and a one-block scan, finish, and for floats the chunk
counts and the resolve of +-0.0 and NaN ranks. Against NumPy's stable sort, bit for bit,
on fresh random data with ties, signed zeros, NaN payloads, several grids and up to 32
ranks. Runs without a GPU, so the kernels' logic is checked on every machine."""
import pathlib

import numpy as np
import pytest

import loom

ROOT = pathlib.Path(__file__).resolve().parents[2] / "loom"
HEADERS = [ROOT / "common" / "loom_cast.cuh", ROOT / "backend" / "cuda" / "kernels" / "loom_sorting.cuh",
           ROOT / "backend" / "cuda" / "kernels" / "loom_select.cuh"]
TYPES = {np.float32: "float", np.float64: "double", np.float16: "loom_f16", np.int8: "signed char",
         np.int64: "long long", np.uint8: "unsigned char", np.bool_: "bool", np.int32: "int"}
BITS = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
STATE_WORDS = 1032 // 8 + 1  # sizeof(loom_select_state), rounded up to 8-byte words

pytestmark = pytest.mark.skipif(not all(h.exists() for h in HEADERS), reason="needs loom's source tree")

_modules = {}


def _kernels(dtype):
    if dtype not in _modules:
        # The device branch of the headers (the emulator defines __global__ and friends);
        # the three files inlined, as NVRTC sees them through its include list.
        body = "\n".join(line for h in HEADERS for line in h.read_text().splitlines()
                         if not line.startswith('#include "'))
        t = TYPES[dtype]
        names = ["loom_select_init", "loom_select_scan"] + \
            [f"loom_select_{k}<{t}>" for k in ("hist", "finish", "chunk_counts", "resolve")]
        mod = loom.RawModule(code="#ifndef __CUDACC_RTC__\n#define __CUDACC_RTC__ 1\n#endif\n" + body,
                             name_expressions=names)
        _modules[dtype] = {n.split("<")[0][len("loom_select_"):]: mod.get_function(n) for n in names}
    return _modules[dtype]


def _select(x, ranks, grid):
    f = _kernels(x.dtype.type)
    cpu = loom.cpu()
    n, m = x.size, len(ranks)
    xb = loom.asarray(x.view(BITS[x.itemsize]), device=cpu)
    st = loom.zeros(STATE_WORDS, dtype="uint64", device=cpu)
    hist = loom.zeros(m * 256, dtype="uint64", device=cpu)
    rk = loom.asarray(np.asarray(ranks, np.int64), device=cpu)
    out = loom.zeros(m, dtype=np.dtype(BITS[x.itemsize]).name, device=cpu)
    f["init"]((1,), (256,), (rk, np.int32(m), np.int64(n), st, hist))
    for shift in range(8 * x.itemsize - 8, -1, -8):
        mask = 0 if shift + 8 >= 64 else (~0 << (shift + 8)) & (2**64 - 1)
        f["hist"]((grid,), (256,), (xb, np.int64(n), st, hist, np.uint64(mask), np.int32(shift)), shared_mem=m * 1024)
        f["scan"]((1,), (256,), (st, hist, np.int32(m), np.int32(shift)))
    f["finish"]((1,), (32,), (st, np.int32(m), out))
    if np.issubdtype(x.dtype, np.floating):
        chunk = 1024
        while chunk < n // chunk:
            chunk *= 2
        chunks = -(-n // chunk)
        counts = loom.zeros(2 * chunks, dtype="uint64", device=cpu)
        f["chunk_counts"]((chunks,), (256,), (xb, np.int64(n), st, np.int64(chunk), counts))
        f["resolve"]((m,), (1024,), (xb, np.int64(n), st, counts, np.int32(chunks), np.int64(chunk), out))
    return out.numpy().view(x.dtype)


def _data(rng, dtype, n, kind):
    if dtype == np.bool_:
        return rng.integers(0, 2, n).astype(bool)
    if kind == "ties":
        return rng.integers(0, 5, n).astype(dtype)
    if not np.issubdtype(dtype, np.floating):
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
    x = (rng.standard_normal(n) * 100).astype(dtype)
    if kind == "special":  # +-0.0, +-inf, NaNs of both signs and two payloads
        pick = rng.random(n) < 0.5
        x[pick] = np.array([0.0, -0.0, np.nan, -np.nan, np.inf, -np.inf], dtype)[rng.integers(0, 6, pick.sum())]
        bits = x.view(BITS[x.itemsize])
        nan = np.isnan(x)
        bits[nan] ^= rng.integers(0, 2, nan.sum()).astype(bits.dtype)
    return x


def _check(x, ranks, grid):
    got = _select(x, ranks, grid)
    want = np.sort(x, kind="stable")[np.clip(ranks, 0, x.size - 1)]
    u = BITS[x.itemsize]
    np.testing.assert_array_equal(got.view(u), want.view(u), err_msg=f"{x.dtype} n={x.size} grid={grid}")


@pytest.mark.parametrize("dtype", list(TYPES))
def test_select_kernels_match_the_stable_sort(rng, dtype):
    for n in (1, 2, 3, 17, 1000, 40000):
        for kind in ("spread", "ties", "special"):
            x = _data(rng, dtype, n, kind)
            ranks = list(rng.integers(0, n, 12)) + [0, n - 1, n // 2, (n - 1) // 2, -3, n + 5]  # clamped
            _check(x, ranks, grid=int(rng.integers(1, 40)))


def test_select_kernels_resolve_shared_keys_across_many_chunks(rng):
    # 2^22 elements: 2048 chunks, so the resolve scans its chunk counts in two tiles
    n = 1 << 22
    x = (rng.standard_normal(n) * 10).astype(np.float32)
    pick = rng.random(n) < 0.6
    x[pick] = np.array([0.0, -0.0, np.nan, -np.nan], np.float32)[rng.integers(0, 4, pick.sum())]
    ranks = list(rng.integers(0, n, 28)) + [0, n - 1, n // 2, int(n * 0.2)]
    for grid in (1, 300):
        _check(x, ranks, grid)


def test_select_kernels_take_32_ranks_of_few_values(rng):
    for dtype in (np.int64, np.float64):
        x = rng.integers(0, 5, 100000).astype(dtype)
        _check(x, list(rng.integers(0, x.size, 32)), grid=50)
