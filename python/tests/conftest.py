"""Shared fixtures: every device present, the GPU marker, fresh random inputs, and the
one helper that compares loom results with NumPy (compare, built on assert_matches).

GPU-only tests carry @pytest.mark.gpu (or use the `gpu` fixture). Without a GPU they
skip with reason "no GPU"; with LOOM_REQUIRE_GPU=1 they fail instead, and the whole run
stops at once when loom sees no GPU.
"""
import atexit
import os
import shutil
import tempfile

import ml_dtypes
import numpy as np
import pytest

# Kernels compiled by the tests are cached in a folder of this session, never in the user's
# ~/.cache/loom. loom reads LOOM_CACHE_DIR at each disk access; subprocesses inherit it.
_CACHE_DIR = tempfile.mkdtemp(prefix="loom-test-cache-")
os.environ["LOOM_CACHE_DIR"] = _CACHE_DIR
os.environ.pop("LOOM_DISABLE_DISK_CACHE", None)
atexit.register(shutil.rmtree, _CACHE_DIR, ignore_errors=True)

import loom  # noqa: E402

REQUIRE_GPU = os.environ.get("LOOM_REQUIRE_GPU", "") not in ("", "0")

# The 13 dtypes as (loom dtype, NumPy dtype).
DTYPES = [
    (loom.bool_, np.dtype(np.bool_)),
    (loom.int8, np.dtype(np.int8)),
    (loom.int16, np.dtype(np.int16)),
    (loom.int32, np.dtype(np.int32)),
    (loom.int64, np.dtype(np.int64)),
    (loom.uint8, np.dtype(np.uint8)),
    (loom.uint16, np.dtype(np.uint16)),
    (loom.uint32, np.dtype(np.uint32)),
    (loom.uint64, np.dtype(np.uint64)),
    (loom.float16, np.dtype(np.float16)),
    (loom.bfloat16, np.dtype(ml_dtypes.bfloat16)),
    (loom.float32, np.dtype(np.float32)),
    (loom.float64, np.dtype(np.float64)),
]
# The complex dtypes, kept apart: the ops that take them are listed where they are tested
# (test_complex.py), while DTYPES parametrizes the tests of every op.
COMPLEX_DTYPES = [(loom.complex64, np.dtype(np.complex64)), (loom.complex128, np.dtype(np.complex128))]
DTYPE_NAMES = [d.name for d, _ in DTYPES]
NP_DTYPES = {d.name: n for d, n in DTYPES}

# Relative tolerances of float results (values that went through float arithmetic).
RTOL = {"float16": 1e-3, "bfloat16": 1e-2, "float32": 1e-6, "float64": 1e-12}
# Each float type's smallest subnormal: among subnormals one unit in the last place is this
# absolute step, so a relative tolerance cannot compare them (2**-149.5 rounds to 2**-149,
# where NumPy's float32 exp2 gives 0).
COMPLEX_PART = {"complex64": "float32", "complex128": "float64"}
SUBNORMAL = {"float16": 2.0**-24, "bfloat16": 2.0**-133, "float32": 2.0**-149, "float64": 2.0**-1074}


def pytest_sessionstart(session):
    if REQUIRE_GPU and loom.num_gpus() == 0:
        pytest.exit("LOOM_REQUIRE_GPU=1 but loom.num_gpus() == 0: every GPU test would fail", returncode=1)


def _no_gpu():
    if REQUIRE_GPU:
        pytest.fail("no GPU (LOOM_REQUIRE_GPU=1 makes GPU tests fail instead of skipping)")
    pytest.skip("no GPU")


def pytest_runtest_setup(item):
    if item.get_closest_marker("gpu") is not None and loom.num_gpus() == 0:
        _no_gpu()


@pytest.fixture
def gpu():
    """gpu(0); the test skips ("no GPU") or, with LOOM_REQUIRE_GPU=1, fails without one."""
    if loom.num_gpus() == 0:
        _no_gpu()
    return loom.gpu(0)


# Params are device names, not Device objects: pytest and hypothesis keep params alive
# until interpreter exit, after the extension's own teardown.
@pytest.fixture(params=[repr(d) for d in loom.devices()])
def device(request):
    """Every device present: cpu() and each GPU."""
    return loom.cpu() if request.param == "cpu()" else loom.gpu(int(request.param[4:-1]))


def _lapack_on_cpu():
    try:
        loom.linalg.det(loom.ones((1, 1), device=loom.cpu()))
        return True
    except NotImplementedError:
        return False


@pytest.fixture
def dev(device):
    """`device`, skipping cpu() where loom was built without LAPACK (the decompositions)."""
    if device == loom.cpu() and not _lapack_on_cpu():
        pytest.skip("loom was built without LAPACK")
    return device


@pytest.fixture
def rng():
    """A fresh generator; its seed is printed so that a failure can be replayed."""
    seed = np.random.SeedSequence().entropy
    print(f"rng seed: {seed}")
    return np.random.default_rng(seed)


def random_array(rng, shape, dtype, low=None, high=None):
    """Random values of `dtype` (a name, loom or NumPy dtype), never all zeros.

    Integers span [low, high) (the dtype's full range by default); floats are normal
    values scaled into [low, high) when given, else spread over a few decades.
    """
    dt = np.dtype(dtype) if not isinstance(dtype, loom.dtype) else dtype.dtype
    shape = tuple(shape) if not isinstance(shape, int) else (shape,)
    n = int(np.prod(shape))
    if dt == np.bool_:
        out = rng.random(shape) < 0.5
        if n:
            out.flat[0] = True
        return out
    if dt.kind in "iu":
        info = np.iinfo(dt)
        lo = info.min if low is None else max(int(low), info.min)
        hi = info.max if high is None else min(int(high), info.max + 1)
        out = rng.integers(lo, hi, size=shape, dtype=dt, endpoint=high is None)
    elif low is not None:
        out = rng.uniform(low, high, size=shape).astype(dt)
    else:
        out = (rng.standard_normal(shape) * 10.0 ** rng.integers(-2, 3, size=shape)).astype(dt)
    # A 0-d shape must give a 0-d ndarray, not a NumPy scalar (which loom would place on
    # the default device rather than the test's device).
    out = np.array(out, dtype=dt)
    if n and not np.any(out):
        out.flat[0] = 1
    return out


def assert_matches(actual, expected, *, dtype=None, device=None, exact=False, rtol=None):
    """The one comparison of a loom array with a NumPy result.

    Checks shape, dtype (`dtype`, else expected's) and device (when given); values are
    exact for bool and integers, and for floats within the dtype's relative tolerance
    (RTOL; and one smallest subnormal apart, SUBNORMAL) or exactly with exact=True
    (copies, casts); NaN equals NaN, inf equals inf.
    """
    assert isinstance(actual, loom.ndarray), type(actual)
    expected = np.asarray(expected)
    want_dtype = dtype if dtype is not None else expected.dtype
    assert actual.dtype == want_dtype, f"dtype {actual.dtype} != {want_dtype}"
    assert actual.shape == expected.shape, f"shape {actual.shape} != {expected.shape}"
    if device is not None:
        assert actual.device == device, f"device {actual.device} != {device}"
    got = np.asarray(actual)  # a host copy (a view for CPU arrays)
    name = actual.dtype.name
    if name in COMPLEX_PART:
        # By modulus: |got - want| <= tol * |want| (a part near zero is not judged alone).
        part = COMPLEX_PART[name]
        tol = 0 if exact else (RTOL[part] if rtol is None else rtol)
        np.testing.assert_allclose(got.astype(np.complex128), expected.astype(np.complex128),
                                   rtol=tol, atol=0 if exact else SUBNORMAL[part], equal_nan=True)
    elif name in RTOL:
        tol = 0 if exact else (RTOL[name] if rtol is None else rtol)
        np.testing.assert_allclose(got.astype(np.float64), expected.astype(np.float64),
                                   rtol=tol, atol=0 if exact else SUBNORMAL[name], equal_nan=True)
    else:
        np.testing.assert_array_equal(got, expected.astype(got.dtype))


def events_of(fn, *args):
    """The names of the ops that reach a backend while fn(*args) runs, and its result."""
    rec = loom._loom._DispatchRecorder()
    rec.start()
    try:
        out = fn(*args)
    finally:
        rec.stop()
    return [e[0] for e in rec.events()], out


def _copy_np(x):
    if isinstance(x, np.ndarray):
        return x.copy()
    if isinstance(x, (list, tuple)) and any(isinstance(v, np.ndarray) for v in x):
        return type(x)(_copy_np(v) for v in x)
    return x


def _to_loom(x, device):
    # NumPy scalars stand for 0-d arrays (NumPy returns them for 0-d results), so they go
    # to the test's device too, not to the default device.
    if isinstance(x, (np.ndarray, np.generic)):
        return loom.asarray(x, device=device)
    if isinstance(x, (list, tuple)) and any(isinstance(v, np.ndarray) for v in x):
        return type(x)(_to_loom(v, device) for v in x)
    return x


def compare(fn, *inputs, device, dtype=None, exact=False, rtol=None, raises=None):
    """The one NumPy-vs-loom check: runs fn(np, *inputs) and fn(loom, *inputs_on_device), the
    latter with `device` as the default device.

    NumPy arrays among `inputs` (also inside lists/tuples) become loom arrays on `device`;
    other values pass as they are. Results (an array, a scalar or a tuple/list of them) are
    compared with assert_matches, and the loom results must live on `device`. When NumPy
    raises, loom must raise the same exception type (or `raises`, when given: a type or
    tuple of types loom may raise instead).
    """
    # Each side gets its own copy: a body may write into its inputs (x[1:] = x[:-1]),
    # and loom.asarray shares NumPy's memory on cpu().
    np_inputs = [_copy_np(x) for x in inputs]
    inputs = [_copy_np(x) for x in inputs]
    try:
        expected = fn(np, *np_inputs)
    except Exception as e:  # noqa: BLE001 - the type is what is compared
        want = raises or type(e)
        with pytest.raises(want), device:
            fn(loom, *[_to_loom(x, device) for x in inputs])
        return None
    # `device` is the default inside the body, so the arrays it makes (an out= of zeros) live
    # beside its inputs, as NumPy's all live on the host.
    with device:
        got = fn(loom, *[_to_loom(x, device) for x in inputs])
    if isinstance(expected, (tuple, list)):
        assert isinstance(got, (tuple, list)) and len(got) == len(expected), got
        for g, e in zip(got, expected):
            _compare_one(g, e, device, dtype, exact, rtol)
    else:
        _compare_one(got, expected, device, dtype, exact, rtol)
    return got


def _compare_one(got, expected, device, dtype, exact, rtol):
    if not isinstance(got, loom.ndarray):
        # Python scalars (x.item(), len()) compare by value.
        np.testing.assert_allclose(np.asarray(got, dtype=np.float64), np.asarray(expected, dtype=np.float64),
                                   rtol=0 if exact else (rtol or 1e-6), equal_nan=True)
        return
    assert_matches(got, expected, dtype=dtype, device=device, exact=exact, rtol=rtol)


EMULATOR = "CUDA C kernels on the CPU need the kernel emulator (issue 5)"


# NVRTC (compile_ptx, inspect_asm) needs a loom built with CUDA; the sanitizer builds are not.
needs_nvrtc = pytest.mark.skipif(not loom.build_info()["cuda"], reason="loom built without CUDA (no NVRTC)")


def skip_cpu_kernels(device):
    """Was: skips a test that launches a CUDA C kernel on cpu(). The CPU kernel emulator
    runs them now, so it skips nothing; kept for tests written against it."""


def randn(rng, shape, cplx):
    """Standard normal values of `shape`, complex (both parts normal) when cplx."""
    x = rng.standard_normal(shape)
    return x + 1j * rng.standard_normal(shape) if cplx else x


def check_directional_grad(device, f, x, e, tol=1e-6, h=1e-6):
    """loom's grad(f)(x) on `device` against the central difference of f (eager, real
    scalar valued) along e: Re(sum(g * e)) = d/dt f(x + t e) at 0."""
    from loom.transforms._grad import grad
    L = lambda a: loom.asarray(a, device=device)  # noqa: E731
    g = grad(f)(L(x)).numpy()
    assert g.dtype == x.dtype
    want = (float(f(L(x + h * e)).numpy()) - float(f(L(x - h * e)).numpy())) / (2 * h)
    np.testing.assert_allclose(np.real(np.sum(g * e)), want, rtol=tol, atol=tol)


def central_differences(f, x, h=1e-6):
    """The gradient of the scalar f at x (a NumPy float64 array) by central differences."""
    g = np.zeros_like(x)
    for j in np.ndindex(x.shape):
        lo, hi = x.copy(), x.copy()
        lo[j] -= h
        hi[j] += h
        g[j] = (f(hi) - f(lo)) / (2 * h)
    return g
