"""The kernel that fills the other triangle after a GPU's ?syrk/?herk
(loom/backend/cuda/kernels/loom_rank_k.cuh) on the CPU kernel emulator, in each mode, over a
batch of matrices whose upper triangle holds fresh random values (the lower one garbage, as
cuBLAS leaves it): symmetric, Hermitian, and Hermitian from a conjugated upper triangle."""
import pathlib

import numpy as np
import pytest

import loom

HEADER = pathlib.Path(__file__).resolve().parents[2] / "loom" / "backend" / "cuda" / "kernels" / "loom_rank_k.cuh"
pytestmark = pytest.mark.skipif(not HEADER.exists(), reason="needs loom's source tree")

_funcs = {}


def _mirror(t, parts, mode):
    name = f"loom_mirror_upper<{t}, {parts}, {mode}>"
    if name not in _funcs:
        mod = loom.RawModule(code=HEADER.read_text(), name_expressions=[name])
        _funcs[name] = mod.get_function(name)
    return _funcs[name]


CASES = [("float32", 0), ("float64", 0)] + [(d, m) for d in ("complex64", "complex128") for m in (0, 1, 2)]


@pytest.mark.parametrize("dtype,mode", CASES)  # real matrices have the symmetric mode only
@pytest.mark.parametrize("grid", [1, 3])
def test_mirror_modes(rng, dtype, mode, grid):
    cplx = dtype.startswith("complex")
    b, n = 3, 37
    want = rng.standard_normal((b, n, n)) + (1j * rng.standard_normal((b, n, n)) if cplx else 0)
    want = want.astype(dtype)
    if mode:  # Hermitian: the lower triangle the conjugate of the upper, the diagonal real
        want = np.triu(want, 1) + np.conj(np.swapaxes(np.triu(want, 1), 1, 2)) + np.eye(n) * want.real
    else:
        want = np.triu(want) + np.swapaxes(np.triu(want, 1), 1, 2)
    want = want.astype(dtype)
    c = want.copy()
    c[:, np.tril_indices(n, -1)[0], np.tril_indices(n, -1)[1]] = 12345  # what cuBLAS leaves
    if cplx and mode:
        c[:, np.arange(n), np.arange(n)] += 7j  # a diagonal that is made exactly real
    if mode == 2:  # the upper triangle holds the conjugate of the result
        iu = np.triu_indices(n, 1)
        c[:, iu[0], iu[1]] = np.conj(c[:, iu[0], iu[1]])
    part = "double" if dtype in ("float64", "complex128") else "float"
    parts = np.ascontiguousarray(c).view(np.float64 if part == "double" else np.float32)  # the kernel's T*
    x = loom.array(parts, device=loom.cpu(), copy=True)
    _mirror(part, 2 if cplx else 1, mode)((grid,), (128,), (x, np.int64(n), np.int64(b)))
    np.testing.assert_array_equal(x.numpy().view(dtype), want)
