"""Array views inside kernels (translate_expr.view): a[i] of a 2-d array, a[1:, ::-2],
a[-1, 1:n], empty slices, views of views and of shared memory, read and written element by
element, against NumPy's basic indexing on fresh data, on every device."""
import numpy as np
import pytest

import loom
from loom import cuda
from conftest import needs_nvrtc, skip_cpu_kernels


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


@cuda.jit
def k_parts(z, out):
    i = cuda.grid(1)
    if i < z.shape[0]:
        cuda.atomic.add(z.real, i, 1.0)
        cuda.atomic.add(z.imag, i, -2.0)
        out[i] = z.imag[i] * 10 + z.real[i]  # this thread's own element, updated above


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_real_and_imag_of_a_complex_array_are_views(device, rng, dtype):
    """Numba's a.real / a.imag in a kernel: float views that atomics and reads reach."""
    z = (rng.standard_normal(33) + 1j * rng.standard_normal(33)).astype(dtype)
    d = loom.array(z, device=device)  # a copy: cpu() asarray may share z's memory
    out = loom.zeros(33, dtype=z.real.dtype, device=device)
    k_parts[1, 64](d, out)
    w = z + (1 - 2j)
    np.testing.assert_allclose(d.numpy(), w, rtol=1e-6)
    np.testing.assert_allclose(out.numpy(), w.imag * 10 + w.real, rtol=1e-5)


@cuda.jit
def k_reinterpret(b, start, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = b[start + 4 * i:start + 4 * i + 8].view(np.int32)[1]


def test_view_reads_the_same_bytes_as_another_dtype(device, rng):
    b = rng.integers(0, 256, 200).astype(np.uint8)
    start = 4 * int(rng.integers(0, 3))  # int32 reads must be aligned on a GPU
    out = loom.zeros(40, dtype=loom.int32, device=device)
    k_reinterpret[1, 64](loom.asarray(b, device=device), start, out)
    want = [b[start + 4 * i + 4:start + 4 * i + 8].view(np.int32)[0] for i in range(40)]
    np.testing.assert_array_equal(out.numpy(), want)


@cuda.jit
def k_reshape(a, shape, out):
    y = a.reshape(shape)
    for i in range(y.shape[0]):
        for j in range(y.shape[1]):
            for k in range(y.shape[2]):
                out[i, j, k] = y[i, j, k]
    w = a.reshape(-1)
    out[0, 0, 0] += w[w.shape[0] - 1] * 0  # a 1-d view of the same data


@pytest.mark.parametrize("shape", [(2, 3, 4), (4, -1, 2), (-1, 1, 3), (1, 24, 1)])
def test_reshape_of_a_c_contiguous_array(device, rng, shape):
    a = rng.standard_normal((4, 6))
    want = a.reshape(shape)
    out = loom.zeros(want.shape, device=device)
    k_reshape[1, 1](loom.asarray(a, device=device), shape, out)
    np.testing.assert_array_equal(out.numpy(), want)


def test_reshape_of_an_array_of_unknown_strides_is_refused():
    @cuda.jit
    def f(a, out):
        s = a[::2].reshape((2, 2))
        out[0] = s[0, 0]

    with pytest.raises(loom.UnsupportedError, match=r"reshape\(\) in a kernel takes a C-contiguous array"):
        f[1, 1](loom.zeros(8, device=loom.cpu()), loom.zeros(1, device=loom.cpu()))


def test_real_of_a_real_array_is_refused():
    @cuda.jit
    def g(a):
        a.imag[0] = 1.0

    with pytest.raises(loom.UnsupportedError, match="only complex arrays have float parts"):
        g[1, 1](loom.zeros(2, device=loom.cpu()))


@needs_nvrtc
def test_views_compile_with_nvrtc():
    """NVRTC (no GPU needed) takes the CUDA C of real/imag, view() and reshape()."""
    cuda.compile_ptx(k_parts.py_func, "void(complex128[::1], float64[::1])")
    cuda.compile_ptx(k_reinterpret.py_func, "void(uint8[::1], int64, int32[::1])")
    cuda.compile_ptx(k_reshape.py_func, "void(float64[:, ::1], UniTuple(int64, 3), float64[:, :, ::1])")


FROZEN_0D = np.array(2.5)


def test_zero_dimensional_arrays(device, rng):
    """0-d arrays as arguments, captured device arrays and frozen NumPy globals: a[()] is the
    one element, size 1, ndim 0; reductions see that one element."""
    v = float(rng.standard_normal())
    captured = loom.asarray(np.array(v * 3, dtype=np.float32), device=device)

    @cuda.jit
    def k(out, x):
        out[()] = x[()] * 2.0 + captured[()] + FROZEN_0D[()] + x.size * 10 + x.ndim * 100
        out[()] += np.sum(x) * 1000 + FROZEN_0D.max() * 10000

    out = loom.zeros((), device=device)
    x = loom.asarray(np.array(v), device=device)
    k[1, 1](out, x)
    want = v * 2 + np.float32(v * 3) + 2.5 + 10 + v * 1000 + 25000
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-6)


def test_cpointer_parameters_and_carray_farray(device, rng):
    """Numba's CPointer kernel parameters (an address passed as an int: a.gpu_data.device_pointer,
    int(a.device_ctypes_pointer.value)) indexed as C pointers, and carray/farray views over them."""
    from loom.cuda import types

    @cuda.jit(types.void(types.CPointer(types.float32), types.CPointer(types.float32), types.int64, types.int64))
    def k(p, q, m, n):
        c = cuda.carray(p, (m, n))
        f = cuda.farray(q, (m, n), dtype=np.float32)
        i = cuda.grid(1)
        if i < m * n:
            p[i] += 1.0  # the pointer itself
            r, s = i // n, i % n
            f[r, s] = c[r, s] * 10.0  # this thread's own element of c, updated above

    m, n = 3, 5
    x = rng.standard_normal(m * n).astype(np.float32)
    dp = loom.array(x, device=device)
    dq = loom.zeros(m * n, dtype=loom.float32, device=device)
    with device:  # an address carries no device: the launch runs on the default device
        k[1, 32](dp.gpu_data.device_pointer, int(dq.device_ctypes_pointer.value), m, n)
    np.testing.assert_allclose(dp.numpy(), x + 1, rtol=1e-6)
    want = ((x + 1).reshape(m, n) * 10).ravel(order="F")  # farray: column-major
    np.testing.assert_allclose(dq.numpy(), want, rtol=1e-6)


def test_a_cpointer_takes_an_int_and_carray_its_dtype():
    from loom.cuda import types

    @cuda.jit(types.void(types.CPointer(types.int32)))
    def g(p):
        p[0] = 1

    with pytest.raises(loom.TypingError, match="No matching definition"):
        g[1, 1](1.5)

    def h(p):
        a = cuda.carray(p, 4, dtype=np.float64)
        a[0] = 1.0

    with pytest.raises(loom.TypingError, match=r"carray\(\): the dtype float64 differs from the pointer's \(int32\)"):
        cuda.jit(types.void(types.CPointer(types.int32)))(h)


@needs_nvrtc
def test_cpointer_kernels_compile_with_nvrtc():
    def k(p, n):
        a = cuda.carray(p, (n, 2))
        b = cuda.farray(p, (2, n))
        p[0] = a[0, 1] + b[1, 0]

    ptx, _ = cuda.compile_ptx(k, "void(CPointer(float64), int64)")
    assert ".entry" in ptx


def test_a_misaligned_view_is_an_error_in_debug_mode():
    @cuda.jit(debug=True, opt=False)
    def k(b, start, out):
        out[0] = b[start:start + 4].view(np.int32)[0]

    b = loom.asarray(np.arange(16, dtype=np.uint8), device=loom.cpu())
    out = loom.zeros(1, dtype=loom.int32, device=loom.cpu())
    k[1, 1](b, 4, out)
    assert out.numpy()[0] == np.arange(4, 8, dtype=np.uint8).view(np.int32)[0]
    with pytest.raises(IndexError, match="not aligned for the new dtype"):
        k[1, 1](b, 1, out)
