"""Python kernels (@cuda.jit) on every device against NumPy: indexing, grids, arguments,
local/shared/constant arrays, device functions, closures and globals, control flow."""
import math
import os

import numpy as np
import pytest

import loom
from loom import cuda

TPB = 16
SCALE = 2.5
TABLE = np.array([3.0, 1.0, 4.0, 1.0, 5.0], dtype=np.float32)


@cuda.jit
def add_kernel(x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] + y[i]


def test_add_kernel_loom_arrays(device, rng):
    n = int(rng.integers(1, 5000))
    x, y = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    dx, dy = loom.asarray(x, device=device), loom.asarray(y, device=device)
    out = loom.empty_like(dx)
    add_kernel[(n + 127) // 128, 128](dx, dy, out)
    np.testing.assert_allclose(out.numpy(), x + y, rtol=1e-6)


def test_add_kernel_numpy_arrays_are_copied_back(rng):
    x, y = rng.random(1000), rng.random(1000)
    out = np.zeros_like(x)
    add_kernel[8, 128](x, y, out)
    np.testing.assert_allclose(out, x + y)


def test_to_device_device_array_like_copy_to_host(rng):
    x, y = rng.random(3000, dtype=np.float32), rng.random(3000, dtype=np.float32)
    dx, dy = cuda.to_device(x), cuda.to_device(y)
    dout = cuda.device_array_like(dx)
    add_kernel[24, 128](dx, dy, dout)
    cuda.synchronize()
    np.testing.assert_allclose(dout.copy_to_host(), x + y, rtol=1e-6)
    host = np.empty_like(x)
    dout.copy_to_host(host)
    np.testing.assert_allclose(host, x + y, rtol=1e-6)
    assert cuda.device_array((3, 4)).dtype == loom.float64
    assert cuda.is_available() == (loom.num_gpus() > 0)


@cuda.jit
def index_3d(a, out):
    i, j, k = cuda.grid(3)
    if i < a.shape[0] and j < a.shape[1] and k < a.shape[2]:
        out[i, j, k] = a[i, j, k] * 2 + a[-1, -1, -1] - a[i, -1 - j, k]


@pytest.mark.parametrize("order", ["C", "transposed", "sliced"])
def test_indexing_3d_and_layouts(device, rng, order):
    base = rng.random((6, 10, 7))
    a = loom.asarray(base, device=device)
    if order == "transposed":
        a, base = a.transpose((2, 1, 0)), base.transpose((2, 1, 0))
    elif order == "sliced":
        a, base = a[::2, 1:, ::3], base[::2, 1:, ::3]
    out = loom.zeros(base.shape, dtype=loom.float64, device=device)
    index_3d[(2, 4, 2), (4, 4, 4)](a, out)
    want = base * 2 + base[-1, -1, -1] - base[:, ::-1, :]
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-12)


@cuda.jit
def grid_stride(x, out):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, x.shape[0], stride):
        out[i] = x[i] * SCALE


def test_grid_stride_loop_and_global_constant(device, rng):
    x = rng.random(10007).astype(np.float32)
    out = loom.zeros(x.shape, dtype=loom.float32, device=device)
    grid_stride[7, 64](loom.asarray(x, device=device), out)
    np.testing.assert_allclose(out.numpy(), x * np.float32(SCALE), rtol=1e-6)


@cuda.jit
def matmul_2d(A, B, C):
    i, j = cuda.grid(2)
    if i < C.shape[0] and j < C.shape[1]:
        tmp = 0.
        for k in range(A.shape[1]):
            tmp += A[i, k] * B[k, j]
        C[i, j] = tmp


@cuda.jit
def fast_matmul(A, B, C):
    sA = cuda.shared.array(shape=(TPB, TPB), dtype=np.float32)
    sB = cuda.shared.array(shape=(TPB, TPB), dtype=np.float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    bpg = cuda.gridDim.x
    tmp = np.float32(0.)
    for i in range(bpg):
        sA[ty, tx] = 0
        sB[ty, tx] = 0
        if y < A.shape[0] and (tx + i * TPB) < A.shape[1]:
            sA[ty, tx] = A[y, tx + i * TPB]
        if x < B.shape[1] and (ty + i * TPB) < B.shape[0]:
            sB[ty, tx] = B[ty + i * TPB, x]
        cuda.syncthreads()
        for j in range(TPB):
            tmp += sA[ty, j] * sB[j, tx]
        cuda.syncthreads()
    if y < C.shape[0] and x < C.shape[1]:
        C[y, x] = tmp


@pytest.mark.parametrize("kernel", ["naive", "shared"])
def test_matmul(device, rng, kernel):
    n = 40
    A, B = rng.random((n, n), dtype=np.float32), rng.random((n, n), dtype=np.float32)
    C = loom.zeros((n, n), dtype=loom.float32, device=device)
    blocks = (n + TPB - 1) // TPB
    k = matmul_2d if kernel == "naive" else fast_matmul
    k[(blocks, blocks), (TPB, TPB)](loom.asarray(A, device=device), loom.asarray(B, device=device), C)
    np.testing.assert_allclose(C.numpy(), A @ B, rtol=1e-5)


@cuda.jit(device=True)
def square(v):
    return v * v


@cuda.jit(device=True)
def sum_of_squares(a, b):
    return square(a) + square(b)


@cuda.jit(device=True)
def divmod_dev(a, b):
    return a // b, a % b


@cuda.jit
def device_calls(x, y, out, q, r):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = sum_of_squares(x[i], y[i])
        q[i], r[i] = divmod_dev(np.int32(i) - 50, 7)


def test_device_functions_call_device_functions(device, rng):
    n = 300
    x, y = rng.random(n), rng.random(n)
    out = loom.zeros(n, dtype=loom.float64, device=device)
    q = loom.zeros(n, dtype=loom.int32, device=device)
    r = loom.zeros(n, dtype=loom.int32, device=device)
    device_calls[3, 128](loom.asarray(x, device=device), loom.asarray(y, device=device), out, q, r)
    np.testing.assert_allclose(out.numpy(), x * x + y * y, rtol=1e-12)
    idx = np.arange(n) - 50
    np.testing.assert_array_equal(q.numpy(), idx // 7)
    np.testing.assert_array_equal(r.numpy(), idx % 7)


def make_scaler(factor, offset):
    @cuda.jit
    def scaler(x, out):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = x[i] * factor + offset + TABLE[i % 5]
    return scaler


def test_closures_and_global_arrays_are_constants(device, rng):
    x = rng.random(100)
    out = loom.zeros(100, dtype=loom.float64, device=device)
    make_scaler(3, 0.5)[1, 128](loom.asarray(x, device=device), out)
    np.testing.assert_allclose(out.numpy(), x * 3 + 0.5 + TABLE[np.arange(100) % 5], rtol=1e-12)
    make_scaler(-1.5, 2)[1, 128](loom.asarray(x, device=device), out)
    np.testing.assert_allclose(out.numpy(), x * -1.5 + 2 + TABLE[np.arange(100) % 5], rtol=1e-12)


@cuda.jit
def local_and_control(x, out):
    i = cuda.grid(1)
    if i >= x.size:
        return
    buf = cuda.local.array(8, np.float64)
    for k in range(8):
        buf[k] = x[i] + k
    total = 0.0
    k = 0
    while True:
        if k >= 8:
            break
        if k % 2 == 1:
            k += 1
            continue
        total += buf[k]
        k += 1
    if total > 20:
        label = 2
    elif total > 10:
        label = 1
    else:
        label = 0
    out[i] = total + (100 if label == 2 else -100) + label


def test_local_arrays_loops_and_branches(device, rng):
    x = rng.random(200) * 5
    out = loom.zeros(200, dtype=loom.float64, device=device)
    local_and_control[2, 128](loom.asarray(x, device=device), out)
    total = 4 * x + (0 + 2 + 4 + 6)
    label = np.where(total > 20, 2, np.where(total > 10, 1, 0))
    np.testing.assert_allclose(out.numpy(), total + np.where(label == 2, 100, -100) + label, rtol=1e-12)


@cuda.jit
def dynamic_shared_reverse(x, out):
    buf = cuda.shared.array(0, dtype=np.float32)
    t = cuda.threadIdx.x
    n = cuda.blockDim.x
    base = cuda.blockIdx.x * n
    buf[t] = x[base + t]
    cuda.syncthreads()
    out[base + t] = buf[n - 1 - t]


def test_dynamic_shared_memory(device, rng):
    x = rng.random(4 * 64).astype(np.float32)
    out = loom.zeros(x.size, dtype=loom.float32, device=device)
    dynamic_shared_reverse[4, 64, 0, 64 * 4](loom.asarray(x, device=device), out)
    np.testing.assert_array_equal(out.numpy(), x.reshape(4, 64)[:, ::-1].reshape(-1))


@cuda.jit
def shapes_and_scalars(a, n, f, b, out):
    out[0] = a.shape[0]
    out[1] = a.shape[1]
    out[2] = a.size
    out[3] = a.ndim
    out[4] = n * 2
    out[5] = f / 2
    out[6] = 1 if b else 0
    out[7] = len(a)
    s = a.strides
    out[8] = s[1]


def test_shape_size_ndim_and_scalar_arguments(device):
    a = loom.zeros((3, 5), dtype=loom.float32, device=device)
    out = loom.zeros(9, dtype=loom.float64, device=device)
    shapes_and_scalars[1, 1](a, 21, 3.0, True, out)
    np.testing.assert_array_equal(out.numpy(), [3, 5, 15, 2, 42, 1.5, 1, 3, 4])
    shapes_and_scalars[1, 1](a, np.int32(4), np.float32(5.0), False, out)
    np.testing.assert_array_equal(out.numpy(), [3, 5, 15, 2, 8, 2.5, 0, 3, 4])
    assert len(shapes_and_scalars.signatures) == 2


@cuda.jit("void(float32[:], float32[:], float32[:])")
def eager_add(x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] + y[i]


def test_eager_signature_and_specialize(device, rng):
    x, y = rng.random(50, dtype=np.float32), rng.random(50, dtype=np.float32)
    out = loom.zeros(50, dtype=loom.float32, device=device)
    eager_add[1, 64](loom.asarray(x, device=device), loom.asarray(y, device=device), out)
    np.testing.assert_allclose(out.numpy(), x + y, rtol=1e-6)
    with pytest.raises(loom.TypingError, match="no compiled signature"):
        eager_add[1, 64](loom.zeros(50, dtype=loom.float64, device=device), out, out)
    dx = loom.asarray(x.astype(np.float64), device=device)
    spec = add_kernel.specialize(dx, dx, dx)
    o = loom.zeros(50, dtype=loom.float64, device=device)
    spec[1, 64](dx, dx, o)
    np.testing.assert_allclose(o.numpy(), 2 * x.astype(np.float64))
    with pytest.raises(loom.TypingError):
        spec[1, 64](out, out, out)
    # Numba's type objects name the types too; the same types give the same kernel
    assert add_kernel.specialize(cuda.float64[::1], cuda.float64[::1], cuda.float64[::1]) is spec
    assert add_kernel.specialize(cuda.float32[:], cuda.float32[:], cuda.float32[:]) is not spec
    with pytest.raises(RuntimeError, match="Dispatcher already specialized"):
        spec.specialize(dx, dx, dx)
    with pytest.raises(RuntimeError, match="Dispatcher already specialized"):
        eager_add.specialize(cuda.float32[::1], cuda.float32[::1], cuda.float32[::1])


def test_inspect_types_and_source(device):
    a = loom.zeros(4, dtype=loom.float32, device=device)
    add_kernel[1, 4](a, a, a)
    text = add_kernel.inspect_types(file=open("/dev/null", "w"))
    assert "i = int64" in text and "x = array(float32, 1d, C)" in text
    src = add_kernel.inspect_source()
    assert any("extern \"C\" __global__ void loom_pk_add_kernel" in s for s in src.values())


def test_overload_type_annotation_has_numba_types(device):
    """Numba's overloads[...]._type_annotation.typemap: each variable as a Numba type object."""
    @cuda.jit
    def add_one(x, y, out):  # a kernel of this test alone: other tests add overloads to add_kernel
        i = cuda.grid(1)
        if i < out.size:
            out[i] = x[i] + y[i]

    a = loom.zeros(4, dtype=loom.float32, device=device)
    add_one[1, 4](a, a, a)
    assert len(add_one.overloads) == 1
    tm = next(iter(add_one.overloads.values()))._type_annotation.typemap
    assert tm["i"] == cuda.int64 and tm["x"] == cuda.float32[::1] and tm["x"].dtype == cuda.float32


def test_a_local_assigned_one_integer_once_is_a_constant_shape(device, rng):
    """`N = 100` assigned once is a literal to Numba's typing: a shared array's shape."""
    @cuda.jit("void(int32[::1])")
    def fill(ary):
        N = 100
        sm = cuda.shared.array(N, cuda.int32)
        i = cuda.grid(1)
        sm[i] = i * 3
        cuda.syncthreads()
        ary[i] = sm[N - 1 - i]

    out = loom.zeros(100, dtype=loom.int32, device=device)
    fill[1, 100](out)
    np.testing.assert_array_equal(out.numpy(), 3 * np.arange(99, -1, -1))

    def twice(ary):
        n = 4
        n = 8
        sm = cuda.shared.array(n, cuda.int32)
        ary[0] = sm[0]

    with pytest.raises(loom.TypingError, match=r"found for signature:\n \n >>> array\(shape=int64, dtype=class\(int32\)\)"):
        cuda.jit("void(int32[::1])")(twice)


def test_launch_configuration_forms(device, rng):
    x = rng.random(256, dtype=np.float32)
    dx = loom.asarray(x, device=device)
    out = loom.zeros(256, dtype=loom.float32, device=device)
    s = loom.Stream(device=device)
    add_kernel[(2,), (128,), s, 0](dx, dx, out)
    s.synchronize()
    np.testing.assert_allclose(out.numpy(), 2 * x)
    add_kernel[2, 128, 0](dx, dx, out)
    np.testing.assert_allclose(out.numpy(), 2 * x)
    with pytest.raises(ValueError, match="launch configuration was not specified"):
        add_kernel(dx, dx, out)


@cuda.jit
def half_and_bool(x, mask, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] * 2 + 1 if mask[i] else x[i]


def test_float16_and_bool_arrays(device, rng):
    x = rng.uniform(-4, 4, 100).astype(np.float16)
    mask = rng.random(100) < 0.5
    out = loom.zeros(100, dtype=loom.float16, device=device)
    half_and_bool[1, 128](loom.asarray(x, device=device), loom.asarray(mask, device=device), out)
    want = np.where(mask, x * np.float16(2) + np.float16(1), x)
    np.testing.assert_allclose(out.numpy().astype(np.float32), want.astype(np.float32), rtol=1e-3)


@pytest.mark.skipif(not loom.build_info()["cuda"], reason="loom built without CUDA (no NVRTC)")
def test_generated_source_compiles_with_nvrtc_without_a_gpu():
    """The GPU path's compiler runs here too: NVRTC compiles every kernel of this file for sm_90."""
    from loom.pykernel import types as T
    from loom.pykernel.compiler import translate_kernel
    a1, a2, a3 = (T.Array("float32", n, "C") for n in (1, 2, 3))
    cases = [(add_kernel, (a1, a1, a1)), (fast_matmul, (a2, a2, a2)), (index_3d, (T.Array("float64", 3, "A"),) * 2),
             (local_and_control, (T.Array("float64", 1, "C"),) * 2), (dynamic_shared_reverse, (a1, a1)),
             (device_calls, (T.Array("float64", 1, "C"),) * 3 + (T.Array("int32", 1, "C"),) * 2),
             (half_and_bool, (T.Array("float16", 1, "C"), T.Array("bool", 1, "C"), T.Array("float16", 1, "C")))]
    for k, types in cases:
        src, _ = translate_kernel(k.py_func, types)
        loom.RawModule(src).compile(90)


@cuda.jit("float32(float32, int32)", device=True)
def scale_declared(v, k):
    return v * k / 3


@cuda.jit
def uses_declared(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = scale_declared(x[i], 7.9)  # 7.9 converts to int32 7, as Numba's declared signature does


def test_device_function_with_a_declared_signature(device, rng):
    x = rng.random(40)
    out = loom.zeros(40, dtype=loom.float64, device=device)
    uses_declared[1, 64](loom.asarray(x, device=device), out)
    want = (x.astype(np.float32) * np.float32(7) / np.float32(3)).astype(np.float32)
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-6)


def test_block_auto_tunes_the_block(device, rng):
    """block="auto" (loom's autotuning, as for RawKernel): the grid is the number of threads."""
    n = 5000
    x = rng.random(n, dtype=np.float32)
    dx = loom.asarray(x, device=device)
    out = loom.zeros(n, dtype=loom.float32, device=device)
    add_kernel[n, "auto"](dx, dx, out)
    np.testing.assert_allclose(out.numpy(), 2 * x)


def test_generated_source_is_a_raw_module_program(device, rng):
    """inspect_source() is a normal RawModule program: saved, it runs without the translator
    (as from C++: loom::RawModule and Kernel::launch with Array arguments)."""
    x = rng.random(100, dtype=np.float32)
    dx = loom.asarray(x, device=device)
    out = loom.zeros(100, dtype=loom.float32, device=device)
    add_kernel[1, 128](dx, dx, out)
    source = add_kernel.inspect_source("float32[1C],float32[1C],float32[1C]")
    k = loom.RawModule(source).get_function("loom_pk_add_kernel")
    out2 = loom.zeros(100, dtype=loom.float32, device=device)
    k((1,), (128,), (dx, dx, out2))
    np.testing.assert_array_equal(out2.numpy(), out.numpy())


def test_a_compile_error_of_generated_code_names_the_python_line(monkeypatch):
    """A C++ compile error would be a bug of loom's translator; its message still names the
    Python file and line (through #line) and says so."""
    import inspect
    from loom.pykernel import compiler, dispatcher

    real = compiler.translate_kernel

    def broken(*args, **kw):
        src, name = real(*args, **kw)
        head = src.index('extern "C"')
        line = src.index("\n#line", head)
        end = src.index("\n", line + 1)
        return src[:end + 1] + "  this_is_not_cpp;\n" + src[end + 1:], name

    monkeypatch.setattr(dispatcher, "translate_kernel", broken)

    @cuda.jit
    def victim(a):
        a[0] = 1.0

    with pytest.raises(loom.CompileError) as info:
        with loom.cpu():
            victim[1, 1](loom.zeros(1, dtype=loom.float32, device=loom.cpu()))
    text = str(info.value)
    first_body_line = inspect.getsourcelines(victim.py_func)[1] + 2
    assert "a bug of loom's translator" in text
    assert f"{os.path.basename(__file__)}:{first_body_line}" in text or \
        f"{os.path.basename(__file__)}({first_body_line})" in text, text


@cuda.jit
def _forall_square(x, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] * x[i]


@pytest.mark.parametrize("n, tpb", [(1, 0), (257, 0), (1000, 64), (3, 1)])
def test_forall_covers_every_task(device, rng, n, tpb):
    x = rng.standard_normal(n)
    out = loom.zeros(n, device=device)
    _forall_square.forall(n, tpb=tpb)(loom.asarray(x, device=device), out)
    np.testing.assert_array_equal(out.to(loom.cpu()).numpy(), x * x)


def test_forall_of_no_tasks_launches_nothing_and_negative_is_refused():
    out = loom.zeros(3)
    _forall_square.forall(0)(out, out)  # no launch: a zero grid would raise
    with pytest.raises(ValueError, match=r"\[_forall_square\] forall takes a task count >= 0, got -1"):
        _forall_square.forall(-1)
