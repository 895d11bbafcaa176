"""Plain Python functions called from kernels (pykernel/translate.py, compiler.py): compiled as
device functions, as Numba compiles them for the GPU, on every device; a dtype, a function or a
module passed to one specialises it (one C function per object), as Numba's literal and
dispatcher arguments do; the translation key follows a helper's code; recursion and
reassigning such an argument stay errors naming the function."""
import textwrap

import numpy as np
import pytest

import loom
from loom import cuda
from loom.cuda import float64, int32, uint32
from conftest import skip_cpu_kernels


def scale_add(x, k):
    return x * k + 1.0


def fill_shared_then_apply(ary, idx, dtype, op, n):
    """Numba's test-suite pattern: a helper that takes the element type and an atomic op."""
    sm = cuda.shared.array(32, dtype)
    sm[idx] = ary[idx]
    cuda.syncthreads()
    op(sm, idx % n, dtype(1))
    cuda.syncthreads()
    ary[idx] = sm[idx]


@cuda.jit
def k_scale(out, x):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = scale_add(x[i], 2.5)


@cuda.jit
def k_atomic_u32(ary):
    fill_shared_then_apply(ary, cuda.threadIdx.x, uint32, cuda.atomic.add, 32)


@cuda.jit
def k_atomic_two_types(a, b):  # one helper, two specialisations in one kernel
    fill_shared_then_apply(a, cuda.threadIdx.x, int32, cuda.atomic.add, 4)
    fill_shared_then_apply(b, cuda.threadIdx.x, float64, cuda.atomic.max, 32)


def test_a_plain_helper_is_a_device_function(device, rng):
    skip_cpu_kernels(device)
    dev = loom.Device(device)
    x = rng.standard_normal(37)
    out = loom.zeros(37, device=dev)
    k_scale[2, 32](out, loom.asarray(x, device=dev))
    np.testing.assert_allclose(out.to(loom.cpu()).numpy(), x * 2.5 + 1.0, rtol=1e-13)  # a GPU fuses into an fma


def test_dtype_and_function_arguments_specialise_the_helper(device, rng):
    skip_cpu_kernels(device)
    dev = loom.Device(device)
    start = rng.integers(0, 1000, 32).astype(np.uint32)
    a = loom.array(start, device=dev)  # a copy: asarray would share start's memory on cpu()
    k_atomic_u32[1, 32](a)
    np.testing.assert_array_equal(a.to(loom.cpu()).numpy(), start + 1)

    ai = rng.integers(-50, 50, 32).astype(np.int32)
    bf = rng.standard_normal(32)
    a, b = loom.array(ai, device=dev), loom.array(bf, device=dev)
    k_atomic_two_types[1, 32](a, b)
    want_a = ai.copy()
    want_a[:4] += 8  # 32 threads add 1 to slot idx % 4
    np.testing.assert_array_equal(a.to(loom.cpu()).numpy(), want_a)
    np.testing.assert_array_equal(b.to(loom.cpu()).numpy(), np.maximum(bf, 1.0))
    (src,) = k_atomic_two_types.inspect_source().values()
    defined = [line for line in src.splitlines() if "loom_dev_fill_shared_then_apply" in line and "__device__" in line]
    assert len(defined) == 2, defined  # one C function per (dtype, op); their C parameters are ary, idx, n


def test_the_translation_follows_the_helpers_code(tmp_path, monkeypatch):
    """A changed helper is a new translation, not a stale cache entry (a fresh process)."""
    import subprocess
    import sys
    monkeypatch.setenv("LOOM_CACHE_DIR", str(tmp_path / "cache"))
    prog = textwrap.dedent("""
        import sys, numpy as np, loom
        from loom import cuda
        def helper(v):
            return v + K
        @cuda.jit
        def k(a):
            a[0] = helper(a[0])
        a = loom.zeros(1, device=loom.cpu())
        k[1, 1](a)
        print(float(a[0]))
    """)
    outs = []
    for k in (1, 2):
        path = tmp_path / "prog.py"
        path.write_text(prog.replace("v + K", f"v + {k}.0"))
        r = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stderr
        outs.append(r.stdout.strip())
    assert outs == ["1.0", "2.0"]


def window_sum(x, i, width):
    buf = cuda.local.array(width, float64)  # sized by the caller's literal, as in Numba
    for k in range(width):
        buf[k] = x[(i + k) % x.size]
    total = 0.0
    for k in range(width):
        total += buf[k]
    return total


@cuda.jit
def k_window(out, x):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = window_sum(x, i, 3) - window_sum(x, i, 2)


def test_a_literal_argument_sizes_a_local_array_in_the_helper(device, rng):
    skip_cpu_kernels(device)
    dev = loom.Device(device)
    x = rng.standard_normal(20)
    out = loom.zeros(20, device=dev)
    k_window[1, 32](out, loom.asarray(x, device=dev))
    np.testing.assert_allclose(out.to(loom.cpu()).numpy(), np.roll(x, -2), rtol=1e-12, atol=1e-12)


def tile_transpose(a, out, shape, dtype):
    tile = cuda.shared.array(shape, dtype)  # a constant tuple from the caller sizes it
    i, j = cuda.threadIdx.x, cuda.threadIdx.y
    tile[i, j] = a[i, j]
    cuda.syncthreads()
    out[j, i] = tile[i, j]


@cuda.jit
def k_tile(a, out):
    tile_transpose(a, out, (4, 8), np.float32)


def test_a_constant_tuple_argument_shapes_a_shared_array(device, rng):
    skip_cpu_kernels(device)
    dev = loom.Device(device)
    a = rng.standard_normal((4, 8)).astype(np.float32)
    out = loom.zeros((8, 4), dtype=loom.float32, device=dev)
    k_tile[1, (4, 8)](loom.asarray(a, device=dev), out)
    np.testing.assert_array_equal(out.to(loom.cpu()).numpy(), a.T)


def recursive(n):
    return n if n < 2 else recursive(n - 1)


@cuda.jit
def k_recursive(a):
    a[0] = recursive(5)


def reassigns(ary, dtype):
    dtype = 3
    ary[0] = dtype


@cuda.jit
def k_reassigns(a):
    reassigns(a, np.float32)


def test_recursion_and_reassigning_a_compile_time_argument_are_errors():
    a = loom.zeros(1, device=loom.cpu())
    with pytest.raises(cuda.UnsupportedError, match="recursion: 'recursive' calls itself"):
        k_recursive[1, 1](a)
    with pytest.raises(cuda.UnsupportedError, match="'dtype' holds .* passed by the caller; it cannot be reassigned"):
        k_reassigns[1, 1](a)


@cuda.jit
def k_atomic_tuple_index(a):
    i, j = cuda.threadIdx.x, cuda.threadIdx.y
    where = (i % 2, j)  # a tuple variable as the index of an atomic
    cuda.atomic.add(a, where, 1)


def test_an_atomic_takes_a_tuple_variable_as_its_index(device):
    skip_cpu_kernels(device)
    a = loom.zeros((2, 3), dtype=loom.int32, device=loom.Device(device))
    k_atomic_tuple_index[1, (4, 3)](a)
    np.testing.assert_array_equal(a.to(loom.cpu()).numpy(), np.full((2, 3), 2))


@cuda.jit
def k_round(out, x, nd):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = round(x[i], nd)


def reference_round(x, nd):
    """Numba's rule for round(float, ndigits) on a GPU, written with Python floats."""
    if np.isinf(x) or np.isnan(x):
        return x
    if nd >= 0:
        p1, p2 = (10.0 ** (nd - 22), 1e22) if nd > 22 else (10.0 ** nd, 1.0)
        y = (x * p1) * p2
        return x if np.isinf(y) else (np.rint(y) / p2) / p1
    p = 10.0 ** -nd
    return np.rint(x / p) * p


@pytest.mark.parametrize("nd", [0, 1, 3, -2, 30])
def test_round_with_ndigits_follows_numba(device, rng, nd):
    skip_cpu_kernels(device)
    dev = loom.Device(device)
    x = np.concatenate([rng.standard_normal(60) * 10.0 ** rng.integers(-3, 6, 60), [2.5, -0.125, 2.675, np.inf,
                                                                                  -np.inf, np.nan, 1e300]])
    with np.errstate(over="ignore"):
        want = np.array([reference_round(v, nd) for v in x])
    out = loom.zeros(x.size, device=dev)
    k_round[1, 128](out, loom.asarray(x, device=dev), nd)
    # A GPU's pow(10.0, n) may be an ulp off the host's; the rounding itself must agree.
    np.testing.assert_allclose(out.to(loom.cpu()).numpy(), want, rtol=1e-15, atol=0)
    out32 = loom.zeros(x.size, dtype=loom.float32, device=dev)  # float32 in, float32 out
    with np.errstate(over="ignore"):  # 1e300 is inf in float32
        x32 = x.astype(np.float32)
        want32 = np.array([reference_round(float(v), nd) for v in x32]).astype(np.float32)
    k_round[1, 128](out32, loom.asarray(x32, device=dev), nd)
    np.testing.assert_allclose(out32.to(loom.cpu()).numpy(), want32, rtol=2.5e-7, atol=0)


@pytest.mark.skipif(not loom.build_info()["cuda"], reason="loom built without CUDA (no NVRTC)")
def test_generated_source_compiles_with_nvrtc_without_a_gpu():
    from loom.pykernel import types as T
    from loom.pykernel.compiler import translate_kernel
    f64, i64 = T.Array("float64", 1, "C"), T.Array("int64", 1, "C")
    for k, types in [(k_round, (f64, f64, T.INT64)), (k_atomic_two_types, (T.Array("int32", 1, "C"), f64)),
                     (k_window, (f64, f64)), (k_tile, (T.Array("float32", 2, "C"),) * 2)]:
        src, _ = translate_kernel(k.py_func, types)
        loom.RawModule(src).compile(90)
