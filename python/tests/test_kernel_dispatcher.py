"""loom._loom._KernelDispatcher, the launch fast path of Python kernels: signature keys of
every argument kind, the specialization registry, launches in every configuration form on
cpu() (the CPU kernel emulator) and each GPU, the miss callback, errors, and collection of a
dispatcher in a reference cycle with its on_miss."""
import enum
import gc
import re
import threading
import time
import weakref

import ml_dtypes
import numpy as np
import pytest

import loom
from loom._loom import _KernelDispatcher

from conftest import DTYPES, random_array

SOURCE = r"""
extern "C" __global__ void axpy(float* out, const float* x, const float* y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}
// out[r, c] = x[r, c] * 2 for an (rows, cols) C-contiguous array, on a 2-D grid.
extern "C" __global__ void twice2d(double* out, const double* x, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) out[r * cols + c] = 2 * x[r * cols + c];
}
// Reverses each block's piece of x through dynamic shared memory.
extern "C" __global__ void reverse_blocks(int* out, const int* x) {
  extern __shared__ int buf[];
  int t = threadIdx.x, base = blockIdx.x * blockDim.x;
  buf[t] = x[base + t];
  __syncthreads();
  out[base + t] = buf[blockDim.x - 1 - t];
}
extern "C" __global__ void nothing3(float* a, float* b, float* c) {}
"""

_MODULE = None


def kernels():
    global _MODULE
    if _MODULE is None:
        _MODULE = loom.RawModule(SOURCE)
    return _MODULE


def no_miss(launcher, args):
    raise AssertionError(f"unexpected miss for {args!r}")


class Recorder:
    """An on_miss that records its calls and returns `ret`."""

    def __init__(self, ret="missed"):
        self.calls, self.ret = [], ret

    def __call__(self, launcher, args):
        self.calls.append((launcher, args))
        return self.ret


# ---- signatures -------------------------------------------------------------------------

@pytest.mark.parametrize("dt,npdt", DTYPES, ids=[d.name for d, _ in DTYPES])
def test_array_keys_of_every_dtype(dt, npdt):
    d = _KernelDispatcher("f", no_miss)
    a = loom.asarray(np.zeros((4, 6), npdt), device=loom.cpu())
    v = loom.asarray(np.zeros(5, npdt), device=loom.cpu())
    name = dt.name
    assert d.signature(a) == f"{name}[2C]"
    assert d.signature(a.T) == f"{name}[2A]"
    assert d.signature(a[:, ::2]) == f"{name}[2A]"
    assert d.signature(a[1:]) == f"{name}[2C]"  # still C-contiguous
    assert d.signature(v, v[::2]) == f"{name}[1C],{name}[1A]"
    assert d.signature(loom.asarray(np.zeros((), npdt), device=loom.cpu())) == f"{name}[0C]"
    assert d.signature(loom.asarray(np.zeros((1, 2, 3), npdt), device=loom.cpu())) == f"{name}[3C]"


@pytest.mark.parametrize("dt,npdt", DTYPES, ids=[d.name for d, _ in DTYPES])
def test_numpy_scalar_keys_of_every_dtype(dt, npdt):
    d = _KernelDispatcher("f", no_miss)
    assert d.signature(npdt.type(1)) == dt.name


class Color(enum.IntEnum):
    RED = 1


class MyFloat(float):
    pass


def test_python_scalar_and_other_numpy_scalar_keys():
    d = _KernelDispatcher("f", no_miss)
    assert d.signature() == ""
    assert d.signature(True, False) == "bool,bool"
    assert d.signature(3, -2**63, 2**70) == "int64,int64,int64"  # the launch says when it overflows
    assert d.signature(1.5) == "float64"
    assert d.signature(np.bool_(True), ml_dtypes.bfloat16(1)) == "bool,bfloat16"
    assert d.signature(np.longlong(3), np.ulonglong(4), np.intc(5)) == "int64,uint64,int32"
    assert d.signature(Color.RED, MyFloat(2.0)) == "int64,float64"  # subclasses pass as Python numbers
    a = loom.asarray(np.zeros(3, np.float32), device=loom.cpu())
    assert d.signature(a, 2, 0.5, np.float32(2)) == "float32[1C],int64,float64,float32"
    # complex values: a Python complex is complex128, NumPy's keep their precision
    assert d.signature(1j, np.complex64(1), np.complex128(2)) == "complex128,complex64,complex128"


class FakeCAI:
    __cuda_array_interface__ = {"shape": (1,), "typestr": "<f4", "data": (0, False), "version": 3}


@pytest.mark.parametrize("arg", [
    np.zeros(3, np.float32), np.zeros(()), np.clongdouble(1), np.longdouble(1),
    np.datetime64("2024-01-01"), None, "s", [1, 2], (1,), FakeCAI(), object(),
], ids=lambda a: type(a).__name__)
def test_key_is_none_for_other_kinds(arg):
    d = _KernelDispatcher("f", no_miss)
    assert d.signature(arg) is None
    assert d.signature(1, arg, 2.0) is None


# ---- the registry -------------------------------------------------------------------------

def test_add_get_keys_clear():
    k1, k2 = kernels().get_function("axpy"), kernels().get_function("nothing3")
    d = _KernelDispatcher("myfunc", no_miss)
    assert d.name == "myfunc"
    assert d.keys() == [] and len(d) == 0 and d.get("x") is None
    d.add("float32[1C],int64", k1)
    d.add("bool", k2)
    assert d.keys() == ["float32[1C],int64", "bool"]
    assert d.get("bool") is k2 and d.get("float32[1C],int64") is k1
    d.add("float32[1C],int64", k2)  # replaces, keeps its place
    assert d.keys() == ["float32[1C],int64", "bool"] and d.get("float32[1C],int64") is k2
    assert "myfunc" in repr(d) and "2" in repr(d)
    d.clear()
    assert d.keys() == [] and d.get("bool") is None


def test_add_takes_only_raw_kernels():
    d = _KernelDispatcher("myfunc", no_miss)
    with pytest.raises(TypeError, match=re.escape("[myfunc] add() takes a loom.RawKernel, not function")):
        d.add("x", no_miss)


def test_on_miss_must_be_callable():
    with pytest.raises(TypeError, match="on_miss must be callable"):
        _KernelDispatcher("f", 3)


# ---- launches -----------------------------------------------------------------------------

def axpy_dispatcher(device):
    d = _KernelDispatcher("axpy", no_miss)
    d.add("float32[1C],float32[1C],float32[1C],float64,int64", kernels().get_function("axpy"))
    return d


@pytest.mark.parametrize("form", ["ints", "tuples", "numpy_ints", "stream0", "stream_none", "stream",
                                  "stream_shared", "none_shared"])
def test_launch_forms_match_numpy(device, rng, form):
    n, block = 1000, 128
    grid = (n + block - 1) // block
    x, y = random_array(rng, n, np.float32), random_array(rng, n, np.float32)
    lx, ly = loom.asarray(x, device=device), loom.asarray(y, device=device)
    out = loom.zeros(n, dtype=loom.float32, device=device)
    s = loom.Stream(device)
    config = {"ints": (grid, block), "tuples": ((grid,), (block, 1, 1)), "numpy_ints": (np.int64(grid), np.int32(block)),
              "stream0": (grid, block, 0), "stream_none": (grid, block, None), "stream": (grid, block, s),
              "stream_shared": (grid, block, s, 0), "none_shared": ((grid, 1), (block,), None, 64)}[form]
    d = axpy_dispatcher(device)
    assert d[config](out, lx, ly, 2.5, n) is None
    s.synchronize()
    np.testing.assert_allclose(out.numpy(), np.float32(2.5) * x + y, rtol=1e-5, atol=1e-4)  # a GPU contracts a * x + y into an FMA


def test_2d_grid_and_block(device, rng):
    rows, cols = 37, 53
    x = random_array(rng, (rows, cols), np.float64)
    out = loom.zeros((rows, cols), dtype=loom.float64, device=device)
    d = _KernelDispatcher("twice2d", no_miss)
    d.add("float64[2C],float64[2C],int64,int64", kernels().get_function("twice2d"))
    d[(4, 3), (16, 16)](out, loom.asarray(x, device=device), rows, cols)
    np.testing.assert_array_equal(out.numpy(), 2 * x)


def test_dynamic_shared_memory(device, rng):
    block, blocks = 64, 5
    x = random_array(rng, block * blocks, np.int32)
    out = loom.zeros(x.size, dtype=loom.int32, device=device)
    d = _KernelDispatcher("reverse_blocks", no_miss)
    d.add("int32[1C],int32[1C]", kernels().get_function("reverse_blocks"))
    d[blocks, block, 0, block * 4](out, loom.asarray(x, device=device))
    np.testing.assert_array_equal(out.numpy(), x.reshape(blocks, block)[:, ::-1].ravel())


def test_launcher_attributes_and_cache(device):
    d = axpy_dispatcher(device)
    s = loom.Stream(device)
    l = d[4, (8, 2)]
    assert (l.griddim, l.blockdim, l.stream, l.sharedmem) == (4, (8, 2), 0, 0)  # Numba's defaults
    assert l.dispatcher is d
    assert d[4, (8, 2)] is l  # the last configuration's launcher is reused
    l2 = d[(2, 2), 8, s, 128]
    assert (l2.griddim, l2.blockdim, l2.stream, l2.sharedmem) == ((2, 2), 8, s, 128)
    assert l2 is not l and d[(2, 2), 8, s, 128] is l2
    assert d[4, (8, 2)] is not l  # only the last one is kept
    assert d[4, 8, None].stream is None
    d[4, 8]
    with pytest.raises(TypeError, match="griddim"):
        d[4.0, 8]  # equal to the cached (4, 8), but not an int
    with pytest.raises(TypeError, match="blockdim"):
        d[4, (8.0,)]


def test_miss_callback_gets_launcher_and_args(device, rng):
    rec = Recorder(ret=("any", "value"))
    d = _KernelDispatcher("axpy", rec)
    n = 100
    x = loom.asarray(random_array(rng, n, np.float32), device=device)
    host = np.zeros(n, np.float32)
    launcher = d[1, 128]
    # Unregistered signature, NumPy array, and no arguments: all go to on_miss.
    assert launcher(x, x, x, 2.0, n) == ("any", "value")
    assert d[1, 128](host, x, x, 2.0, n) == ("any", "value")
    assert launcher() == ("any", "value")
    assert [c[0] for c in rec.calls] == [launcher] * 3
    assert rec.calls[0][1] == (x, x, x, 2.0, n) and type(rec.calls[0][1]) is tuple
    assert rec.calls[1][1][0] is host and rec.calls[2][1] == ()
    # A registered signature with a NumPy argument still misses: the Python side copies it.
    d.add(d.signature(x, x, x, 2.0, n), kernels().get_function("axpy"))
    assert launcher(host, x, x, 2.0, n) == ("any", "value")
    assert launcher(x, x, x, 2.0, n) is None and len(rec.calls) == 4


def test_compile_on_miss_then_launch_through_the_launcher(device, rng):
    """The Python side's pattern: on_miss compiles, adds, and calls the launcher again."""
    compiled = []

    def on_miss(launcher, args):
        key = launcher.dispatcher.signature(*args)
        compiled.append(key)
        launcher.dispatcher.add(key, kernels().get_function("axpy"))
        return launcher(*args)

    d = _KernelDispatcher("axpy", on_miss)
    n = 300
    x, y = random_array(rng, n, np.float32), random_array(rng, n, np.float32)
    lx, ly = loom.asarray(x, device=device), loom.asarray(y, device=device)
    out = loom.zeros(n, dtype=loom.float32, device=device)
    for a in (1.0, -3.0, 0.5):
        assert d[3, 128](out, lx, ly, a, n) is None
        np.testing.assert_allclose(out.numpy(), np.float32(a) * x + y, rtol=1e-5, atol=1e-4)  # a GPU contracts a * x + y into an FMA
    assert compiled == ["float32[1C],float32[1C],float32[1C],float64,int64"]


def test_launch_errors_of_the_kernel_propagate(device):
    d = _KernelDispatcher("axpy", no_miss)
    d.add("int32[1C],int32[1C],int32[1C],float64,int64", kernels().get_function("axpy"))  # a wrong registration
    a = loom.zeros(8, dtype=loom.int32, device=device)
    with pytest.raises(TypeError, match="axpy"):
        d[1, 8](a, a, a, 1.0, 8)
    d.add("float32[1C],float32[1C],float32[1C],float64,int64", kernels().get_function("axpy"))
    f = loom.zeros(8, dtype=loom.float32, device=device)
    with pytest.raises(OverflowError):
        d[1, 8](f, f, f, 1.0, 2**62)  # does not fit the int parameter
    with pytest.raises(TypeError, match=re.escape("[axpy] kernel[griddim, blockdim](*args) takes no keyword arguments")):
        d[1, 8](f, f, f, 1.0, n=8)


@pytest.mark.parametrize("config,error,message", [
    ((4,), TypeError, "use kernel[griddim, blockdim] or kernel[griddim, blockdim, stream, sharedmem]"),
    (4, TypeError, "use kernel[griddim, blockdim]"),
    ((1, 2, 3, 4, 5), TypeError, "use kernel[griddim, blockdim]"),
    ((4.0, 8), TypeError, "griddim must be a sequence of integers, got [4.0]: it must be an int or a tuple of up to 3 ints"),
    (("auto", 8), TypeError, "griddim must be a sequence of integers, got ['auto']: it must be an int or a tuple"),
    ((4, 8.5), TypeError, "blockdim must be a sequence of integers, got [8.5]"),
    ((4, "big"), ValueError, 'blockdim must be a shape or "auto"'),
    ((-1, 8), ValueError, "griddim dimension -1 is out of range"),
    ((2**32, 8), ValueError, f"griddim dimension {2**32} is out of range"),
    ((4, (8, -2)), ValueError, "blockdim dimension -2 is out of range"),
    (((), 8), ValueError, "griddim must be a sequence of 1, 2 or 3 integers, got [] (1 to 3 dimensions, not 0)"),
    ((4, (1, 1, 1, 1)), ValueError, "blockdim must be a sequence of 1, 2 or 3 integers, got [1, 1, 1, 1]"),
    ((4, 8, "s"), TypeError, "stream must be a loom.Stream, None or 0"),
    ((4, 8, 1), TypeError, "stream must be a loom.Stream, None or 0"),
    ((4, 8, None, -1), ValueError, "sharedmem must be >= 0"),
    ((4, 8, None, 1.5), TypeError, "sharedmem must be an int"),
    ((4, 8, None, 2**70), ValueError, "sharedmem is out of range"),
])
def test_configuration_errors(config, error, message):
    d = _KernelDispatcher("my_kernel", no_miss)
    with pytest.raises(error, match=re.escape("[my_kernel] " + message)):
        d[config]


def test_raw_kernel_keeps_its_messages_through_the_shared_parsing():
    k = kernels().get_function("nothing3")
    with pytest.raises(TypeError, match=re.escape("[RawKernel] grid must be a sequence of integers, got [1.5]: it "
                                                  "must be an int or a tuple of up to 3 ints")):
        k[1.5, 1]
    with pytest.raises(ValueError, match=re.escape("[RawKernel] block dimension -1 is out of range")):
        k[1, -1]
    with pytest.raises(TypeError, match=re.escape("[RawKernel] stream must be a loom.Stream, None or 0")):
        k[1, 1, "s"]
    with pytest.raises(TypeError, match=re.escape("[RawKernel] shared_mem must be an int")):
        k[1, 1, 0, 1.5]  # was a RuntimeError (std::bad_cast)
    with pytest.raises(ValueError, match=re.escape("[RawKernel] shared_mem must be >= 0")):
        k(1, 1, (), shared_mem=-1)


# ---- threads and garbage collection -------------------------------------------------------

def test_launches_from_several_threads(device, rng):
    d = axpy_dispatcher(device)
    n, errors = 256, []

    def work(seed):
        try:
            r = np.random.default_rng(seed)
            x, y = random_array(r, n, np.float32), random_array(r, n, np.float32)
            lx, ly = loom.asarray(x, device=device), loom.asarray(y, device=device)
            out = loom.zeros(n, dtype=loom.float32, device=device)
            for i in range(30):
                d[2, 128](out, lx, ly, float(i), n)
                d.add(f"other{seed}-{i}", kernels().get_function("nothing3"))  # the map changes meanwhile
                np.testing.assert_allclose(out.numpy(), np.float32(i) * x + y, rtol=1e-5, atol=1e-4)  # a GPU contracts a * x + y into an FMA
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(int(rng.integers(1 << 30)),)) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


class Owner:
    """What the Python side does: the dispatcher's on_miss is a bound method of its owner."""

    def __init__(self):
        self.dispatcher = _KernelDispatcher("owned", self.on_miss)
        self.dispatcher.add("bool", kernels().get_function("nothing3"))
        self.launcher = self.dispatcher[1, 1]  # launcher -> dispatcher -> on_miss -> owner

    def on_miss(self, launcher, args):
        return None


def test_dispatcher_in_a_cycle_with_its_on_miss_is_collected():
    gc.collect()
    o = Owner()
    d = o.dispatcher
    assert o.on_miss.__self__ is o
    referents = gc.get_referents(d)  # tp_traverse reports what it holds
    assert d.get("bool") in referents and d[1, 1] in referents
    assert any(getattr(r, "__self__", None) is o for r in referents)
    wo, wd = weakref.ref(o), weakref.ref(d)
    del o, d, referents
    gc.collect()
    assert wo() is None and wd() is None


def test_launcher_outliving_its_dispatcher_keeps_it_alive(device):
    launcher = axpy_dispatcher(device)[1, 8]
    gc.collect()
    a = loom.zeros(8, dtype=loom.float32, device=device)
    launcher(a, a, a, 1.0, 8)
    np.testing.assert_array_equal(a.numpy(), np.zeros(8, np.float32))


# ---- measurement (printed, not asserted) --------------------------------------------------

def test_print_launch_overhead():
    """Per-launch microseconds on cpu(): RawKernel k[g, b](x, y, z) vs the dispatcher
    holding the same kernel, and their launchers alone; run with -s to see them."""
    k = kernels().get_function("nothing3")
    x, y, z = (loom.zeros(4, dtype=loom.float32, device=loom.cpu()) for _ in range(3))
    d = _KernelDispatcher("nothing3", no_miss)
    d.add(d.signature(x, y, z), k)
    lk, ld = k[1, 1], d[1, 1]
    forms = {"RawKernel k[1, 1](x, y, z)": lambda: k[1, 1](x, y, z),
             "dispatcher d[1, 1](x, y, z)": lambda: d[1, 1](x, y, z),
             "RawKernel launcher(x, y, z)": lambda: lk(x, y, z),
             "dispatcher launcher(x, y, z)": lambda: ld(x, y, z)}
    best = dict.fromkeys(forms, float("inf"))
    calls = 3000
    for _ in range(7):  # interleaved, best of 7: the machine is shared
        for name, f in forms.items():
            t0 = time.perf_counter()
            for _ in range(calls):
                f()
            best[name] = min(best[name], (time.perf_counter() - t0) / calls * 1e6)
    print()
    for name, us in best.items():
        print(f"cpu() launch {name}: {us:.3f} us")
    names = list(forms)
    print(f"dispatcher - RawKernel: {best[names[1]] - best[names[0]]:+.3f} us with [g, b], "
          f"{best[names[3]] - best[names[2]]:+.3f} us launcher alone")
