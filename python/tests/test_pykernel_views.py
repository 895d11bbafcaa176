"""Array views inside kernels (translate_expr.view): a[i] of a 2-d array, a[1:, ::-2],
a[-1, 1:n], empty slices, views of views and of shared memory, read and written element by
element, against NumPy's basic indexing on fresh data, on every device."""
import numpy as np
import pytest

import loom
from loom import cuda
from conftest import skip_cpu_kernels


@cuda.jit
def k_views(out, a, n, m):
    row = a[1]
    s = a[1:, ::-2]
    t = a[-1, m:n]
    u = s[1:][::2, 1]      # a view of a view
    e = a[n:2]             # empty
    out[0] = row[2]
    out[1] = s[0, 0]
    out[2] = t[0]
    out[3] = s.shape[1]
    out[4] = len(t)
    out[5] = u[0]
    out[6] = e.shape[0]
    out[7] = s[s.shape[0] - 1, s.shape[1] - 1]
    row[0] = -1.0          # writes through a view reach the array


def test_views_match_numpy(device, rng):
    skip_cpu_kernels(device)
    dev = loom.Device(device)
    for _ in range(3):
        a = rng.standard_normal((5, 7))
        n, m = int(rng.integers(5, 8)), int(rng.integers(-7, -2))  # t = a[-1, m:n] is never empty
        d = loom.array(a, device=dev)
        out = loom.zeros(8, device=dev)
        k_views[1, 1](out, d, n, m)
        s, t = a[1:, ::-2], a[-1, m:n]
        want = [a[1][2], s[0, 0], t[0], s.shape[1], len(t), s[1:][::2, 1][0],
                a[n:2].shape[0], s[-1, -1]]
        np.testing.assert_array_equal(out.to(loom.cpu()).numpy(), want)
        a[1, 0] = -1.0
        np.testing.assert_array_equal(d.to(loom.cpu()).numpy(), a)


@cuda.jit
def k_shared_view(out):
    sm = cuda.shared.array((4, 8), np.float64)
    i = cuda.threadIdx.x
    sm[i // 8, i % 8] = i
    cuda.syncthreads()
    if i == 0:
        col = sm[:, 3]
        for j in range(col.shape[0]):
            out[j] = col[j]


def test_view_of_shared_memory(device):
    skip_cpu_kernels(device)
    out = loom.zeros(4, device=loom.Device(device))
    k_shared_view[1, 32](out)
    np.testing.assert_array_equal(out.to(loom.cpu()).numpy(), np.arange(32.0).reshape(4, 8)[:, 3])


def test_slice_misuse_names_the_problem():
    @cuda.jit
    def zero_step(out, a):
        out[0] = a[::0][0]

    with pytest.raises(loom.TypingError, match=r"\[zero_step\] a slice step must be a nonzero integer"):
        zero_step[1, 1](loom.zeros(1, device=loom.cpu()), loom.zeros(3, device=loom.cpu()))
