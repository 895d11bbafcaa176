"""Issue 19, "errors that are not clear" and "devices that are not there": hostile arguments
give typed errors naming the op and the argument (never C++ internals, SystemError or a
crash), comparisons with out-of-range Python ints follow NumPy 2, fill values follow
np.array(v, dtype), DLPack capsules are validated, and an absent GPU fails at first use."""
import ctypes
import operator
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import loom

INTERNALS = re.compile(r"std::|vector|_M_|nanobind|no constructor|bad_cast|max_size")


def run_child(code):
    """Runs `code` in a fresh interpreter (former crashes must not take pytest down)."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120)


def raises_clearly(fn, exc, *fragments):
    with pytest.raises(exc) as e:
        fn()
    msg = str(e.value)
    assert not INTERNALS.search(msg), msg
    for f in fragments:
        assert f in msg, msg
    return msg


A = loom.arange(6.0).reshape((2, 3))

# ---- messages that leaked C++ internals --------------------------------------------------


@pytest.mark.parametrize(
    "fn, exc, fragments",
    [
        (lambda: A.sum(axis=[[1, [2]]]), TypeError, ["[sum]", "axis"]),
        (lambda: A.sum(axis=(2**63,)), loom.AxisError, ["[sum]", "9223372036854775808"]),
        (lambda: loom.amax(A, axis=[[0]]), TypeError, ["[amax]", "axis"]),
        (lambda: loom.transpose(A, axes=[[0]]), TypeError, ["[transpose]", "axis"]),
        (lambda: loom.sort(A, stable="yes"), TypeError, ["[sort]", "stable"]),
        (lambda: loom.asarray(A, copy="no"), TypeError, ["[asarray]", "copy"]),
        (lambda: loom.array([1, 2], copy=[1]), TypeError, ["[array]", "copy"]),
        (lambda: loom.from_dlpack(A, copy="no"), TypeError, ["[from_dlpack]", "copy"]),
        (lambda: A.__array__(copy="no"), TypeError, ["copy"]),
        (lambda: loom.round(A, out="x"), TypeError, ["[round]", "out"]),
        (lambda: loom.clip(A, 0, 1, out=3), TypeError, ["[clip]", "out"]),
        (lambda: loom.concatenate([A, A], out=1.5), TypeError, ["[concatenate]", "out"]),
        (lambda: loom.stack([A, A], out="x"), TypeError, ["[stack]", "out"]),
        (lambda: A.__dlpack__(copy="x"), TypeError, ["[__dlpack__]", "copy"]),
        (lambda: A.__dlpack__(max_version="ab"), TypeError, ["[__dlpack__]", "max_version"]),
        (lambda: A.__dlpack__(dl_device=[[1]]), TypeError, ["[__dlpack__]", "dl_device"]),
        (lambda: loom.reshape(A, (3, 2), copy=np.array([1, 2])), TypeError, ["[reshape]", "copy"]),
        (lambda: loom.dtype(3.5), TypeError, ["dtype"]),  # None is float64, as numpy.dtype(None)
        (lambda: loom.dtype("no-such-type"), TypeError, ["no-such-type"]),
        (lambda: loom.dtype(np.dtype("U3")), TypeError, ["U3"]),
        (lambda: loom.ndarray((2, 3), memptr=b"ab"), TypeError, ["[ndarray]", "memptr"]),
        (lambda: loom.tensordot(A, A.T, axes=2**63), OverflowError, ["[tensordot]", "axes"]),
        (lambda: loom.tensordot(A, A.T, axes=([2**64], [0])), OverflowError, ["[tensordot]", "axes"]),
        (lambda: loom.tensordot(A, A.T, axes="ab"), TypeError, ["[tensordot]", "axes"]),
        (lambda: loom.random.normal(np.float32), TypeError, ["[normal]"]),
        (lambda: loom.eye(2**63), OverflowError, ["[eye]", "N"]),
        (lambda: loom.eye(2, k=1.5), TypeError, ["[eye]", "k"]),
        (lambda: loom.identity(-(2**63) - 1), OverflowError, ["[identity]", "n"]),
        (lambda: loom.linspace(0, 1, num=2**63), OverflowError, ["[linspace]", "num"]),
        (lambda: loom.round(A, 2**63), OverflowError, ["[round]", "decimals"]),
        (lambda: A.round(1.5), TypeError, ["[round]", "decimals"]),
        (lambda: loom.gpu(2**63), OverflowError, ["[gpu]", "i"]),
        (lambda: loom.gpu(2**40), ValueError, ["[gpu]", "out of range"]),
        (lambda: loom.gpu("1"), TypeError, ["[gpu]", "i"]),
        (lambda: loom.random.split(loom.random.key(0), 2**63), OverflowError, ["[split]", "num"]),
    ],
)
def test_hostile_arguments_raise_typed_clear_errors(fn, exc, fragments):
    raises_clearly(fn, exc, *fragments)


def test_dtype_constructor_accepts_every_spelling():
    for spec in ["float32", np.float32, np.dtype("float32"), loom.float32, "f4"]:
        assert loom.dtype(spec) == loom.float32
    assert loom.dtype(int) == loom.int64


@pytest.mark.parametrize("axis", [2**63, -(2**63) - 1, 2**64, (0, 2**70)])
def test_axis_beyond_64_bits_is_an_axis_error(axis):
    x = loom.asarray(np.random.default_rng(0).random((2, 3)))
    for fn in (lambda: x.sum(axis=axis), lambda: loom.mean(x, axis=axis), lambda: x.max(axis=axis),
               lambda: loom.moveaxis(x, axis, 0), lambda: loom.linalg.norm(x, axis=axis)):
        with pytest.raises(loom.AxisError) as e:
            fn()
        assert not INTERNALS.search(str(e.value))
        assert isinstance(e.value, ValueError) and isinstance(e.value, IndexError)
    if not isinstance(axis, tuple):
        for fn in (lambda: x.argmax(axis=axis), lambda: x.cumsum(axis=axis), lambda: x.sort(axis=axis),
                   lambda: loom.sum(loom.asarray(1.0), axis=axis)):
            with pytest.raises(loom.AxisError):
                fn()


def test_bool_axis_is_refused_as_numpy_does():
    with pytest.raises(TypeError):
        np.arange(6).reshape(2, 3).sum(axis=True)
    raises_clearly(lambda: A.sum(axis=True), TypeError, "[sum]", "bool")


def test_failing_cuda_array_interface_property_propagates():
    class Broken:
        @property
        def __cuda_array_interface__(self):
            raise RuntimeError("the producer's own error")

    for fn in (lambda: loom.asarray(Broken()), lambda: A + Broken(), lambda: loom.add(A, Broken()),
               lambda: loom.zeros_like(Broken())):
        with pytest.raises(RuntimeError, match="the producer's own error"):
            fn()


@pytest.mark.parametrize(
    "cai, fragment",
    [
        ({"shape": [2], "typestr": "<f4", "data": (0, False), "version": 3}, "shape"),
        ({"shape": (2,), "typestr": 4, "data": (0, False), "version": 3}, "typestr"),
        ({"shape": (2,), "typestr": "<f4", "data": 7, "version": 3}, "data"),
        ({"shape": (2,), "typestr": "<f4", "version": 3}, "data"),
        ({"shape": (2,), "typestr": "<f4", "data": (0, False), "strides": (4, 4, 4), "version": 3}, "strides"),
        ({"shape": (-2,), "typestr": "<f4", "data": (0, False), "version": 3}, "negative"),
    ],
)
def test_malformed_cuda_array_interface_is_a_clear_error(cai, fragment):
    class Producer:
        __cuda_array_interface__ = cai

    with pytest.raises((TypeError, ValueError)) as e:
        loom.asarray(Producer())
    assert fragment in str(e.value) and "[asarray]" in str(e.value)
    assert not INTERNALS.search(str(e.value))


# ---- comparisons with out-of-range Python ints (NumPy 2) --------------------------------

INT_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
BIG = [2**64, 2**100, -(2**100), 2**1100, -(2**1100), -1, 300, -129, 70000, 2**32, 2**63, 2**63 - 1,
       -(2**63), -(2**63) - 1, 2**64 - 1]
CMP = [operator.lt, operator.le, operator.gt, operator.ge, operator.eq, operator.ne]


@pytest.mark.parametrize("dt", INT_DTYPES)
def test_comparison_with_out_of_range_int_matches_numpy(dt):
    info = np.iinfo(dt)
    rng = np.random.default_rng(19)
    vals = np.concatenate([rng.integers(info.min, info.max, 20, dtype=dt, endpoint=True),
                           np.array([info.min, info.max, info.max - 1, 0], dtype=dt)])
    x = loom.asarray(vals)
    for v in BIG:
        for op in CMP:
            np.testing.assert_array_equal(op(x, v).numpy(), op(vals, v), err_msg=f"{dt} {op.__name__} {v}")
            np.testing.assert_array_equal(op(v, x).numpy(), op(v, vals), err_msg=f"{v} {op.__name__} {dt}")
        np.testing.assert_array_equal(loom.less(x, v).numpy(), np.less(vals, v))
        np.testing.assert_array_equal(loom.greater_equal(v, x).numpy(), np.greater_equal(v, vals))


@pytest.mark.parametrize("dt", ["uint8", "int32", "int64"])
def test_arithmetic_with_out_of_range_int_still_overflows(dt):
    x = loom.ones(3, dtype=dt)
    for v in (2**64, 2**100):
        with pytest.raises(OverflowError):
            np.ones(3, dtype=dt) + v
        with pytest.raises(OverflowError):
            x + v
        with pytest.raises(OverflowError):
            loom.multiply(v, x)


# ---- fill values: np.array(v, dtype)'s rules ----------------------------------------------

FILLS = [float("nan"), float("inf"), -float("inf"), 3e9, -3e9, 2.0**31, 2.0**31 - 1, -(2.0**31), -1.5, -0.5,
         255.9, 256.0, 1e300, -1e20, 2.0**63, 2.0**64, -(2.0**63), 1.5]


@pytest.mark.parametrize("dt", INT_DTYPES + ["bool", "float32"])
def test_full_follows_numpy_scalar_conversion(dt):
    for v in FILLS:
        try:
            expected = np.array(v, dtype=dt)
        except (ValueError, OverflowError) as e:
            with pytest.raises(type(e)) as got:
                loom.full(3, v, dtype=dt)
            assert "[full]" in str(got.value) or "Python integer" in str(got.value)
            with pytest.raises(type(e)):
                loom.full_like(loom.zeros(2, dtype=dt), v)
            continue
        with np.errstate(all="ignore"):
            np.testing.assert_array_equal(loom.full(3, v, dtype=dt).numpy(), np.full(3, expected), err_msg=f"{v} {dt}")


def test_full_nan_into_int_names_the_op():
    raises_clearly(lambda: loom.full(3, float("nan"), dtype=loom.int32), ValueError, "[full]",
                   "cannot convert float NaN to integer")
    raises_clearly(lambda: loom.full_like(loom.zeros(2, dtype="int16"), float("inf")), OverflowError,
                   "[full_like]", "infinity")


# ---- DLPack -------------------------------------------------------------------------------


def test_dlpack_stream_must_be_none_for_cpu_arrays():
    x = loom.asarray(np.arange(4.0), device=loom.cpu())
    for s in (5, 1, -1, 0):
        raises_clearly(lambda: x.__dlpack__(stream=s), ValueError, "[__dlpack__]", "stream")
    raises_clearly(lambda: x.__dlpack__(stream="s"), TypeError, "stream")
    np.testing.assert_array_equal(np.from_dlpack(x), np.arange(4.0))
    assert x.__dlpack__(stream=None) is not None


DLPACK_CHILD = """
import ctypes, sys
import numpy as np
import loom

class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]
class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]
class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]
class DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", ctypes.c_void_p)]

new = ctypes.pythonapi.PyCapsule_New
new.restype = ctypes.py_object
new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
buf = (ctypes.c_double * 8)(*range(8))
keep = []

def capsule(ndim=1, shape=(8,), strides=None, code=2, bits=64, lanes=1, data=True, offset=0, dev=1):
    shp = (ctypes.c_int64 * max(len(shape), 1))(*shape) if shape is not None else None
    st = (ctypes.c_int64 * len(strides))(*strides) if strides is not None else None
    t = DLTensor(ctypes.addressof(buf) if data else None, DLDevice(dev, 0), ndim, DLDataType(code, bits, lanes),
                 ctypes.cast(shp, ctypes.POINTER(ctypes.c_int64)) if shp is not None else None,
                 ctypes.cast(st, ctypes.POINTER(ctypes.c_int64)) if st is not None else None, offset)
    m = DLManagedTensor(t, None, None)
    keep.extend([shp, st, m])
    return new(ctypes.addressof(m), b"dltensor", None)

CASE
"""


@pytest.mark.parametrize(
    "case, fragment",
    [
        ("capsule(ndim=1, shape=None)", "NULL shape"),
        ("capsule(ndim=-1)", "ndim -1"),
        ("capsule(ndim=1000000)", "ndim 1000000"),
        ("capsule(ndim=2, shape=(-4, 2))", "negative dimension"),
        ("capsule(ndim=2, shape=(2**40, 2**40))", "does not fit"),
        ("capsule(code=5, bits=32)", "unsupported DLPack dtype"),  # complex of 32 bits
        ("capsule(code=99)", "unsupported DLPack dtype"),
        ("capsule(lanes=4)", "4 lanes"),
        ("capsule(bits=12)", "12 bits"),
        ("capsule(data=False)", "NULL data"),
        ("capsule(offset=2**64 - 8)", "byte_offset"),
        ("capsule(dev=99)", "device type 99"),
        ("capsule(strides=(2**62,))", "stride"),
    ],
)
def test_malformed_dlpack_capsule_is_an_error_not_a_crash(case, fragment):
    code = DLPACK_CHILD.replace("CASE", f"""
try:
    loom.from_dlpack({case})
except (BufferError, ValueError, TypeError) as e:
    print("RAISED", type(e).__name__, e)
    sys.exit(0)
print("ACCEPTED")
""")
    r = run_child(code)
    assert r.returncode == 0, (r.returncode, r.stderr[-2000:])
    assert "RAISED" in r.stdout and fragment in r.stdout, r.stdout
    assert "[from_dlpack]" in r.stdout and not INTERNALS.search(r.stdout), r.stdout


def test_wellformed_dlpack_capsules_import():
    code = DLPACK_CHILD.replace("CASE", """
a = loom.from_dlpack(capsule())                      # NULL strides: C-contiguous
assert a.numpy().tolist() == list(map(float, range(8))), a
b = loom.from_dlpack(capsule(ndim=2, shape=(2, 2), strides=(1, 2)))
assert b.numpy().tolist() == [[0.0, 2.0], [1.0, 3.0]], b
c = loom.from_dlpack(capsule(ndim=1, shape=(3,), offset=16))
assert c.numpy().tolist() == [2.0, 3.0, 4.0], c
d = loom.from_dlpack(capsule(ndim=0, shape=None))     # 0-d: a NULL shape is fine
assert d.numpy().tolist() == 0.0, d
e = loom.from_dlpack(capsule(ndim=1, shape=(0,), data=False))
assert e.shape == (0,)
print("OK")
""")
    r = run_child(code)
    assert r.returncode == 0 and "OK" in r.stdout, (r.stdout, r.stderr[-2000:])


# ---- devices that are not there -------------------------------------------------------------


def test_d2l_first_snippet_prints_three_devices():
    r = run_child("import loom; print(loom.cpu(), loom.gpu(), loom.gpu(1))")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "cpu() gpu(0) gpu(1)"


def test_absent_gpu_is_a_value():
    n = loom.num_gpus()
    d = loom.gpu(n + 1)
    assert repr(d) == f"gpu({n + 1})" and d.type == "cuda" and d.index == n + 1
    assert d == loom.gpu(n + 1) and d == f"gpu:{n + 1}" and d == loom.Device(f"cuda:{n + 1}")
    assert d != loom.cpu() and d != loom.gpu(n + 2)
    assert hash(d) == hash(loom.gpu(n + 1)) and len({d, loom.gpu(n + 1), loom.cpu()}) == 2
    assert loom.try_gpu(n + 1) == loom.cpu() and loom.try_gpu(2**40) == loom.cpu()
    assert loom.devices() == [loom.cpu()] + [loom.gpu(i) for i in range(n)]
    assert len(loom.try_all_gpus()) == max(n, 1)
    raises_clearly(lambda: loom.gpu(-1), ValueError, "gpu(-1)")


def _absent_uses(d):
    x = loom.asarray(np.random.default_rng(1).random(4), device=loom.cpu())
    return {
        "zeros": lambda: loom.zeros(3, device=d),
        "asarray": lambda: loom.asarray([1, 2], device=d),
        "arange": lambda: loom.arange(3, device=d),
        "empty_like": lambda: loom.empty_like(x, device=d),
        "to": lambda: x.to(d),
        "copy_to": lambda: x.copy_to(d),
        "from_dlpack": lambda: loom.from_dlpack(x, device=d),
        "random": lambda: loom.random.uniform(loom.random.key(0), (2,), device=d),
        "stats": lambda: loom.memory.stats(d),
        "empty_cache": lambda: loom.memory.empty_cache(d),
        "set_limit": lambda: loom.memory.set_limit(0, d),
        "synchronize": lambda: loom.synchronize(d),
        "Device.synchronize": lambda: d.synchronize(),
        "Stream": lambda: loom.Stream(d),
        "current_stream": lambda: loom.current_stream(d),
        "default_stream": lambda: loom.default_stream(d),
        "Event": lambda: loom.Event(d),
        "set_default_device": lambda: loom.set_default_device(d),
        "with": lambda: d.__enter__(),
        "name": lambda: d.name,
        "total_memory": lambda: d.total_memory,
        "kernel attributes": lambda: loom.RawKernel('extern "C" __global__ void k(float* x) { x[0] = 1; }',
                                                     "k").attributes(device=d),
    }


@pytest.mark.parametrize("use", sorted(_absent_uses(loom.cpu())))
def test_absent_gpu_fails_at_first_use_naming_the_count(use):
    n = loom.num_gpus()
    d = loom.gpu(n + 1)
    before = loom.default_device()
    msg = raises_clearly(_absent_uses(d)[use], ValueError, f"gpu({n + 1}) does not exist")
    assert ("no GPU" in msg) if n == 0 else (f"{n} GPU" in msg)
    assert loom.default_device() == before  # a failed use changes nothing


def test_absent_gpu_as_loom_device_env_fails_clearly():
    import os

    env = dict(os.environ, LOOM_DEVICE=f"gpu:{loom.num_gpus() + 3}")
    r = subprocess.run([sys.executable, "-c", "import loom; loom.zeros(2)"], capture_output=True, text=True,
                       env=env, timeout=120)
    assert r.returncode != 0 and "LOOM_DEVICE" in r.stderr and "does not exist" in r.stderr, r.stderr
