"""The GPU's complex at-combines (loom/backend/cuda/kernels/loom_indexing.cuh) on the CPU
kernel emulator: complex64's compare-and-swap loop (loom_atomic_combine, many threads on few
elements) and complex128's ordered fold (loom_index_combine_runs over keys sorted here as the
GPU eval sorts them: stable, by target offset), against NumPy's ufunc.at on fresh random data
with many repeated indices. Runs without a GPU, so the kernels' logic is checked everywhere."""
import pathlib

import numpy as np
import pytest

import loom

ROOT = pathlib.Path(__file__).resolve().parents[2] / "loom"
HEADERS = [ROOT / "common" / "loom_cast.cuh", ROOT / "common" / "loom_math.cuh", ROOT / "common" / "loom_complex.cuh",
           ROOT / "backend" / "cuda" / "kernels" / "loom_indexing.cuh"]
OPS = {2: np.multiply, 3: np.minimum, 4: np.maximum}

pytestmark = pytest.mark.skipif(not all(h.exists() for h in HEADERS), reason="needs loom's source tree")

WRAPPER = r"""
// The combine loop of loom_index_combine, for a plain list of element indices.
template <int OP>
__global__ void test_cas_combine(loom_complex64* x, const long long* idx, const loom_complex64* v, long long n) {
  LOOM_GRID_STRIDE(o, n) loom_atomic_combine<loom_complex64, OP>(x + idx[o], v[o]);
}
"""

_module = None


def _kernels():
    global _module
    if _module is None:
        body = "\n".join(line for h in HEADERS for line in h.read_text().splitlines()
                         if not line.startswith('#include "'))
        names = [f"test_cas_combine<{op}>" for op in OPS] + \
            [f"loom_index_combine_runs<loom_complex128, {op}>" for op in OPS]
        mod = loom.RawModule(code="#ifndef __CUDACC_RTC__\n#define __CUDACC_RTC__ 1\n#endif\n" + body + WRAPPER,
                             name_expressions=names)
        _module = {n: mod.get_function(n) for n in names}
    return _module


def _data(rng, dtype, n_elems, n_vals):
    x = (rng.standard_normal(n_elems) + 1j * rng.standard_normal(n_elems)).astype(dtype)
    v = (np.exp(1j * rng.uniform(-np.pi, np.pi, n_vals)) * rng.uniform(0.97, 1.03, n_vals)).astype(dtype)
    ties = rng.random(n_vals) < 0.2  # equal real parts: the imaginary part decides
    v[ties] = v[ties].imag * 1j + np.round(v[ties].real, 1)
    idx = rng.integers(0, n_elems, n_vals)
    return x, v, idx


@pytest.mark.parametrize("op", sorted(OPS))
@pytest.mark.parametrize("grid", [1, 7])
def test_complex64_compare_and_swap(rng, op, grid):
    x, v, idx = _data(rng, np.complex64, 9, 3000)
    cpu = loom.cpu()
    xl = loom.array(x, device=cpu, copy=True)
    _kernels()[f"test_cas_combine<{op}>"]((grid,), (128,), (xl, loom.asarray(idx, device=cpu),
                                                             loom.asarray(v, device=cpu), np.int64(idx.size)))
    want = x.copy()
    OPS[op].at(want, idx, v)
    if op == 2:  # products of ~330 factors, in whatever order the threads won
        np.testing.assert_allclose(xl.numpy(), want, rtol=2e-6 * 330)
    else:
        np.testing.assert_array_equal(xl.numpy(), want)


@pytest.mark.parametrize("op", sorted(OPS))
@pytest.mark.parametrize("grid", [1, 5])
def test_complex128_ordered_runs(rng, op, grid):
    x, v, idx = _data(rng, np.complex128, 13, 2500)
    if op != 2:  # NaNs in either part, which must win in order
        v[rng.integers(0, v.size, 6)] = complex(np.nan, 1)
        v[rng.integers(0, v.size, 6)] = complex(2, np.nan)
    keys = (idx * 16).astype(np.uint64)  # byte offsets of the targets
    order = np.argsort(keys, kind="stable").astype(np.uint64)
    cpu = loom.cpu()
    xl = loom.array(x, device=cpu, copy=True)
    _kernels()[f"loom_index_combine_runs<loom_complex128, {op}>"](
        (grid,), (64,), (xl, loom.asarray(keys[order], device=cpu), loom.asarray(order, device=cpu),
                         loom.asarray(v, device=cpu), np.int64(v.size)))
    want = x.copy()
    OPS[op].at(want, idx, v)
    got = xl.numpy()
    # In order, as NumPy: products equal to the last bit, selections exactly (NaN where NumPy's).
    np.testing.assert_array_equal(np.isnan(got.real), np.isnan(want.real))
    np.testing.assert_array_equal(np.isnan(got.imag), np.isnan(want.imag))
    ok = ~(np.isnan(want.real) | np.isnan(want.imag))
    if op == 2:
        np.testing.assert_allclose(got[ok], want[ok], rtol=1e-13)
    else:
        np.testing.assert_array_equal(got[ok], want[ok])
