"""Numba's type objects in loom.cuda (pykernel/numba_types.py): signatures built from them
(`void(float32[:, ::1], int32)`, a tuple of argument types, a list of signatures) compile the
kernels they describe on every device and refuse arguments that do not fit; scalar types
convert values outside kernels and cast inside them; typeof and from_dtype as Numba's."""
import numpy as np
import pytest

import loom
from loom import cuda
from loom.cuda import float32, float64, int32, int64, types, void
from conftest import skip_cpu_kernels


def test_types_print_as_loom_signature_text():
    assert str(float32[:, ::1]) == "float32[:, ::1]"
    assert str(float64[::1, :]) == "float64[::1, :]" and float64[::1, :].layout == "F"
    assert str(int32[:]) == "int32[:]" and int32[:].layout == "A" and int32[::1].layout == "C"
    assert str(void(float32[:], int32)) == "void(float32[:], int32)"
    assert types.Array(float32, 2, "C") == float32[:, ::1] and hash(types.Array(float32, 2, "C")) == hash(float32[:, ::1])
    assert types.signature(float32, float32, int32) == float32(float32, int32)
    assert types.intp is types.int64 and types.f4 is float32 and types.boolean.name == "bool"
    with pytest.raises(TypeError, match="'::1' goes on the last axis"):
        float32[:, ::1, :]
    with pytest.raises(TypeError, match="':' or '::1'"):
        float32[1:2]


def test_scalar_types_convert_values_as_numpy_does():
    assert type(float32(1.5)) is np.float32 and float32(1.5) == np.float32(1.5)
    assert int32(7) == 7 and type(int32(7)) is np.int32
    assert np.dtype(float32) == np.float32


def test_typeof_and_from_dtype(rng):
    assert types.typeof(np.zeros((2, 3), np.float32)) == float32[:, ::1]
    assert types.typeof(np.zeros((2, 3)).T) == float64[::1, :]
    assert types.typeof(loom.zeros((4, 6))[:, ::2]) == float64[:, :]
    assert types.typeof(3) is int64 and types.typeof(2.5) is float64 and types.typeof(True) is types.boolean
    assert types.from_dtype(np.dtype("int32")) is int32 and types.from_dtype(loom.float32) is float32
    rec = types.from_dtype(np.dtype([("a", np.int32)]))  # a structured dtype: its record type
    assert isinstance(rec, types.Record) and rec == types.from_dtype(np.dtype([("a", np.int32)]))
    with pytest.raises(TypeError, match="no kernel type"):
        types.from_dtype(np.dtype("datetime64[s]"))


@cuda.jit(void(float32[:, ::1], int32))
def _fill(a, n):
    i, j = cuda.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        a[i, j] = float32(i * n + j) * float32(0.5)


@cuda.jit(float32(float32, float32), device=True)
def _add(x, y):
    return x + y


@cuda.jit((float32[::1], float32[::1], float32[::1]))  # argument types alone: returns void
def _add_arrays(x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = _add(x[i], y[i]) + types.float64(1)


def test_kernels_compile_from_type_object_signatures(device, rng):
    skip_cpu_kernels(device)
    dev = loom.Device(device)
    a = loom.zeros((5, 7), dtype=loom.float32, device=dev)
    _fill[(1, 1), (8, 8)](a, 10)
    i, j = np.indices((5, 7))
    np.testing.assert_array_equal(a.to(loom.cpu()).numpy(), ((i * 10 + j) * 0.5).astype(np.float32))
    x, y = (rng.standard_normal(33).astype(np.float32) for _ in range(2))
    out = loom.zeros(33, dtype=loom.float32, device=dev)
    _add_arrays[2, 32](loom.asarray(x, device=dev), loom.asarray(y, device=dev), out)
    np.testing.assert_allclose(out.to(loom.cpu()).numpy(), x + y + 1, rtol=1e-6)


def test_a_declared_signature_refuses_arguments_that_do_not_fit():
    with pytest.raises(cuda.TypingError, match=r"no compiled signature takes \(array\(float64, 2d, C\), int64\); "
                                                r"it has \(array\(float32, 2d, C\), int32\)"):
        _fill[(1, 1), (8, 8)](loom.zeros((5, 7), dtype=loom.float64), 10)


def test_vectorize_takes_type_object_signatures(device, rng):
    skip_cpu_kernels(device)
    dev = loom.Device(device)
    mul = loom.vectorize([float32(float32, float32), float64(float64, float64)], target="cuda")(_mul)
    x = rng.standard_normal(10).astype(np.float32)
    got = mul(loom.asarray(x, device=dev), loom.asarray(x, device=dev))
    assert got.dtype == loom.float32
    np.testing.assert_allclose(got.to(loom.cpu()).numpy(), x * x, rtol=1e-6)


def _mul(a, b):
    return a * b


def test_types_module_imports_by_name():
    import loom.cuda.types as by_path
    assert by_path is types and cuda.float32 is float32 and cuda.void is void


@cuda.jit
def _scaled_sin(x, n):
    i = cuda.grid(1)
    if i < n:
        x[i] = 3.14 * x[i] * x[i]


def test_overloads_and_resource_queries_as_numba(device):
    skip_cpu_kernels(device)
    dev = loom.Device(device)
    kernel = cuda.jit(_scaled_sin.py_func)
    kernel[1, 10](loom.zeros(10, dtype=loom.float32, device=dev), 10)
    kernel[1, 10](loom.zeros(10, dtype=loom.float64, device=dev), 10)
    f32, f64 = void(float32[::1], int64), void(float64[::1], int64)
    assert set(kernel.overloads) == {f32.args, f64.args}
    regs = kernel.get_regs_per_thread()
    assert set(regs) == {f32.args, f64.args} and regs[f32.args] == kernel.get_regs_per_thread(f32)
    assert all(isinstance(v, int) for v in regs.values())
    if dev != loom.cpu():  # the emulator has no registers; a GPU kernel has some
        assert regs[f32.args] > 0
    assert kernel.overloads[f64.args].max_threads_per_block == kernel.get_max_threads_per_block(f64) >= 256
    assert isinstance(kernel.get_local_mem_per_thread(f32), int) and isinstance(kernel.get_shared_mem_per_block(f32), int)
    assert isinstance(_fill.get_regs_per_thread(), int) and _fill.specialized  # one declared signature: an int
    with pytest.raises(KeyError, match="no compiled signature"):
        kernel.get_regs_per_thread(void(int32[::1], int64))
