"""Random argument lists thrown at typed kernels on every device: each launch either gives
what NumPy's rules say (Python scalars weak, NumPy scalars cast same_kind, array dtypes
matching pointer element types) or raises TypeError/ValueError/OverflowError naming the
kernel; never a wrong answer, never a crash. The model below is the documented behaviour
(README, "Kernel arguments"), so a launch that succeeds where it predicts an error fails too."""
import ctypes
import warnings

import numpy as np
import pytest

import loom

N = 8

SOURCE = r"""
extern "C" __global__ void fill_f(float* y, float a, int n) { int i = threadIdx.x; if (i < n) y[i] = a; }
extern "C" __global__ void fill_d(double* y, double a, int n) { int i = threadIdx.x; if (i < n) y[i] = a; }
extern "C" __global__ void fill_i(int* y, int a, int n) { int i = threadIdx.x; if (i < n) y[i] = a; }
extern "C" __global__ void fill_ll(long long* y, long long a, int n) { int i = threadIdx.x; if (i < n) y[i] = a; }
extern "C" __global__ void fill_b(int* y, bool b, int n) { int i = threadIdx.x; if (i < n) y[i] = b ? 7 : 3; }
extern "C" __global__ void copy_f(float* y, const float* __restrict__ x, int n) {
  int i = threadIdx.x; if (i < n) y[i] = x[i];
}
extern "C" __global__ void copy_u8(unsigned char* y, const unsigned char* x, int nbytes) {
  for (int i = threadIdx.x; i < nbytes; i += blockDim.x) y[i] = x[i];
}
"""

# name -> the C type of each parameter: ("ptr", element dtype or None for any) or ("val", dtype).
KERNELS = {
    "fill_f": [("ptr", np.float32), ("val", np.float32), ("val", np.int32)],
    "fill_d": [("ptr", np.float64), ("val", np.float64), ("val", np.int32)],
    "fill_i": [("ptr", np.int32), ("val", np.int32), ("val", np.int32)],
    "fill_ll": [("ptr", np.int64), ("val", np.int64), ("val", np.int32)],
    "fill_b": [("ptr", np.int32), ("val", np.bool_), ("val", np.int32)],
    "copy_f": [("ptr", np.float32), ("ptr", np.float32), ("val", np.int32)],
    "copy_u8": [("ptr", None), ("ptr", None), ("val", np.int32)],
}

ARRAY_DTYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
                np.float16, np.float32, np.float64]
SCALAR_DTYPES = ARRAY_DTYPES + [np.complex64, np.complex128]
PY_INTS = [0, 1, -1, 7, 255, 300, -129, 2**31 - 1, 2**31, 2**32, -(2**31) - 1, 2**63 - 1, 2**63, 2**64 - 1, 2**64, -(2**70)]
PY_FLOATS = [0.0, 0.5, -2.25, 1e10, 1e300, float("inf"), 3.0]


class Arg:
    """One generated argument: its Python object and what the model needs to know."""

    def __init__(self, kind, obj, dtype=None, host=None, value=None):
        self.kind, self.obj, self.dtype, self.host, self.value = kind, obj, dtype, host, value

    def __repr__(self):
        return f"Arg({self.kind}, {self.dtype}, {self.value!r})"


def array_arg(rng, dev, dtype, kind=None):
    host = (rng.standard_normal(N) * 50).astype(dtype)
    kind = kind or rng.choice(["loom"] * 4 + ["in", "out", "inout", "numpy"])
    wrap = {"loom": lambda h: loom.asarray(h, device=dev), "in": loom.In, "out": loom.Out,
            "inout": loom.InOut, "numpy": lambda h: h}[kind]
    return Arg("array:" + kind, wrap(host), np.dtype(dtype), host)


def scalar_arg(rng):
    r = rng.integers(6)
    if r == 0:
        return Arg("pyint", v := int(rng.choice(PY_INTS)), value=v)
    if r == 1:
        return Arg("pyfloat", v := float(rng.choice(PY_FLOATS)), value=v)
    if r == 2:
        return Arg("pybool", v := bool(rng.integers(2)), value=v)
    if r == 3:
        return Arg("pycomplex", complex(1, 2))
    dt = np.dtype(SCALAR_DTYPES[rng.integers(len(SCALAR_DTYPES))])
    raw = rng.choice(PY_INTS[:10]) if dt.kind in "iub" else rng.choice(PY_FLOATS[:5])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        v = np.array(raw).astype(dt)[()]
    return Arg("npscalar", v, dtype=dt, value=v)


def junk_arg(rng, dev):
    r = rng.integers(5)
    if r == 0:
        return Arg("junk", None)
    if r == 1:
        return Arg("junk", "a string")
    if r == 2:
        return Arg("junk", [1.0, 2.0])
    if r == 3:
        return Arg("junk", ctypes.c_void_p(0))  # a raw address (NULL): only random for non-pointers
    return Arg("alloc", loom.driver.mem_alloc(N * 8, device=dev))


def fits(v, dt):
    info = np.iinfo(dt)
    return info.min <= v <= info.max


def expect_value(arg, dt):
    """(error type or None, converted value) for a scalar argument of a parameter of dtype `dt`."""
    dt = np.dtype(dt)
    if arg.kind == "pybool":
        return None, np.array(arg.value).astype(dt)[()]
    if arg.kind == "pyint":
        if beyond_64_bits(arg):
            return OverflowError, None
        if dt.kind == "b":
            return TypeError, None
        if dt.kind in "iu":
            return (None, dt.type(arg.value)) if fits(arg.value, dt) else (OverflowError, None)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return None, dt.type(arg.value)
    if arg.kind == "pyfloat":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return (None, dt.type(arg.value)) if dt.kind == "f" else (TypeError, None)
    if arg.kind == "npscalar":
        if arg.dtype.kind == "c" or not np.can_cast(arg.dtype, dt, "same_kind"):
            return TypeError, None
        if dt.kind in "iu" and not fits(int(arg.value), dt):
            return OverflowError, None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return None, np.array(arg.value).astype(dt)[()]
    return TypeError, None  # arrays, allocations, complex, junk


def beyond_64_bits(arg):
    """A Python int no 64-bit type holds: OverflowError whatever the parameter."""
    return arg.kind == "pyint" and not -(2**63) <= arg.value < 2**64


def expect_pointer(arg, element):
    if arg.kind == "alloc":
        return None
    if beyond_64_bits(arg):
        return OverflowError
    if not arg.kind.startswith("array:") or arg.kind == "array:numpy":
        return TypeError
    return None if element is None or arg.dtype == np.dtype(element) else TypeError


def make_case(rng, dev, name):
    """A mostly right argument list with one or two slots replaced at random; the last
    parameter (the element or byte count) is always right: a wrong one runs out of bounds."""
    params = KERNELS[name]
    args = []
    for kind, dt in params[:-1]:
        if kind == "ptr":
            args.append(array_arg(rng, dev, dt or ARRAY_DTYPES[rng.integers(len(ARRAY_DTYPES))]))
        else:
            args.append(scalar_arg(rng))
    for _ in range(rng.integers(0, 3)):
        i = int(rng.integers(len(params) - 1))
        r = rng.integers(4)
        if r == 0:
            args[i] = array_arg(rng, dev, ARRAY_DTYPES[rng.integers(len(ARRAY_DTYPES))])
        elif r == 1:
            args[i] = scalar_arg(rng)
        elif r == 2:
            junk = junk_arg(rng, dev)
            if not (params[i][0] == "ptr" and isinstance(junk.obj, ctypes.c_void_p)):  # NULL would be written
                args[i] = junk
    count = N
    if name == "copy_u8":  # bytes: the smallest buffer passed
        count = min([a.host.nbytes for a in args if a.host is not None] + [N * 8])
    args.append(Arg("pyint", count, value=count))
    if rng.integers(20) == 0:
        args = args[:-1] if rng.integers(2) else args + [Arg("pyint", 1, value=1)]
    return args


def predict(name, args):
    """The errors a launch may raise (any one of them: arguments are checked in more than
    one pass), or an empty tuple when it must succeed."""
    params = KERNELS[name]
    if len(args) != len(params):
        return (TypeError,) + ((OverflowError,) if any(beyond_64_bits(a) for a in args) else ())
    errors = {expect_pointer(a, dt) if kind == "ptr" else expect_value(a, dt)[0] for (kind, dt), a in zip(params, args)}
    return tuple(e for e in errors if e)


def result_of(name, args):
    """The output after a successful launch, and what NumPy says it should be (None: not observable)."""
    out = args[0]
    if out.kind not in ("array:loom", "array:out", "array:inout"):
        return None, None
    got = out.obj.numpy() if out.kind == "array:loom" else out.obj.array
    if name == "copy_f":
        return got, args[1].host
    if name == "copy_u8":
        nbytes = args[2].value
        if args[1].host is None:
            return None, None
        return got.view(np.uint8)[:nbytes], args[1].host.view(np.uint8)[:nbytes]
    if name == "fill_b":
        return got, np.full(N, 7 if expect_value(args[1], np.bool_)[1] else 3, np.int32)
    return got, np.full(N, expect_value(args[1], KERNELS[name][1][1])[1], got.dtype)


@pytest.mark.parametrize("seed", range(4))
def test_random_arguments_match_numpy_or_raise(device, seed):
    rng = np.random.default_rng(1000 + seed)
    mod = loom.RawModule(SOURCE)
    kernels = {n: mod.get_function(n) for n in KERNELS}
    for case in range(80):
        name = list(KERNELS)[rng.integers(len(KERNELS))]
        args = make_case(rng, device, name)
        errors = predict(name, args)
        where = f"seed {seed} case {case}: {name}{tuple(args)}"
        try:
            kernels[name]((1,), (N,), tuple(a.obj for a in args))
        except (TypeError, ValueError, OverflowError) as e:
            assert name in str(e), f"{where}: the message does not name the kernel: {e}"
            assert errors, f"{where}: raised {type(e).__name__} ({e}) where NumPy's rules convert"
            assert isinstance(e, errors), f"{where}: raised {type(e).__name__} ({e}), expected {errors}"
            continue
        assert not errors, f"{where}: accepted, expected {errors}"
        got, want = result_of(name, args)
        if want is not None:
            np.testing.assert_array_equal(got, want, err_msg=where)


def test_the_fuzz_reaches_every_outcome():
    """The generator is not degenerate: successes, each error type and arrays of each kind occur."""
    rng = np.random.default_rng(0)
    seen = set()
    for _ in range(400):
        name = list(KERNELS)[rng.integers(len(KERNELS))]
        args = make_case(rng, loom.cpu(), name)
        seen.update(predict(name, args) or (None,))
        seen.update(a.kind for a in args)
    assert {None, TypeError, OverflowError} <= seen
    assert {"array:loom", "array:in", "array:out", "npscalar", "pyint", "pyfloat", "junk", "alloc"} <= seen
