"""The smoke test of an installed loom (test_packaging.py copies it out of the checkout and
runs it with the Python of a fresh venv): `python smoke.py cuda|cpu`, the kind of build
expected. Each result is compared with NumPy's on fresh random data; exit status 0 when all
match. Prints what it checked."""
import os
import sys

import numpy as np

import loom

expect_cuda = sys.argv[1] == "cuda"
here = os.path.realpath(os.path.dirname(loom.__file__))
assert here.startswith(os.path.realpath(sys.prefix) + os.sep), f"loom imported from {here}, not from the venv"
info = loom.build_info()
print(f"loom {loom.__version__} from {here}")
print(f"cuda: {info['cuda']}, blas: {info['blas']}, gpus: {loom.num_gpus()}")
assert info["cuda"] == expect_cuda, info

rng = np.random.default_rng()


def check(device):
    a = rng.standard_normal((37, 19))
    b = rng.standard_normal((19, 23)).astype(np.float32)
    x, y = loom.asarray(a, device=device), loom.asarray(b, device=device)
    np.testing.assert_allclose(loom.asnumpy(loom.exp(x * 0.5) + 1.5), np.exp(a * 0.5) + 1.5, rtol=1e-12)
    np.testing.assert_allclose(loom.asnumpy(loom.sum(x, axis=0)), a.sum(axis=0), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(loom.asnumpy(x.astype(loom.float32) @ y), a.astype(np.float32) @ b, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(loom.asnumpy(loom.fft.fft(x)), np.fft.fft(a), rtol=1e-10, atol=1e-10)
    m = rng.standard_normal((6, 6)) + 6 * np.eye(6)
    r = rng.standard_normal(6)
    np.testing.assert_allclose(loom.asnumpy(loom.linalg.solve(loom.asarray(m, device=device), loom.asarray(r, device=device))),
                               np.linalg.solve(m, r), rtol=1e-10)
    # A CUDA C kernel: NVRTC on a GPU, the host compiler under the emulator on cpu(); both
    # compile loom's embedded headers.
    twice = loom.ElementwiseKernel("float32 v", "float32 w", "w = v * 2", "loom_smoke_twice")
    np.testing.assert_array_equal(loom.asnumpy(twice(y)), b * 2)
    print(f"{device}: ok")


check(loom.cpu())
if loom.num_gpus() > 0:
    check(loom.gpu(0))
else:
    print("no GPU")
