"""astype for every pair of the 13 dtypes against NumPy / ml_dtypes, and dtype objects.

Inputs stay where NumPy defines the result. Excluded, because NumPy leaves them
undefined (C casts; results differ between platforms and between NumPy's own loops):
NaN, inf and out-of-range values cast from a float type to an integer type, and
negative floats cast to unsigned integers. Also excluded: integers beyond 2**24 cast to
bfloat16 and float64 values that are not float32 values cast to bfloat16, because
ml_dtypes rounds those twice (through float32) where a single rounding is correct.
"""
import warnings

import ml_dtypes
import numpy as np
import pytest

import loom
from conftest import DTYPE_NAMES, NP_DTYPES, assert_matches, random_array

SPECIALS = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-30, -1e-8, 70000.0, -3.5e38, 1e300]


def source_values(rng, src, dst, shape=(5, 7)):
    s, d = NP_DTYPES[src], NP_DTYPES[dst]
    s_float = s.kind in "fV"
    if s_float and d.kind in "iu":
        info = np.iinfo(d)
        limit = float(ml_dtypes.finfo(s).max) if s.kind == "V" else float(np.finfo(s).max)
        lo = 0.0 if d.kind == "u" else max(float(info.min), -limit)
        hi = min(float(info.max), limit)
        v = rng.uniform(lo, hi, size=shape)
        v[..., :3] = rng.uniform(max(lo, -300), min(hi, 300), size=v[..., :3].shape)  # small values too
        v = v.astype(s)
        bits = 8 * d.itemsize
        t = np.trunc(v.astype(np.float64))  # what the cast keeps; powers of two are exact
        if d.kind == "u":
            bad = (t < 0) | (t >= 2.0**bits)
        else:
            bad = (t < -(2.0 ** (bits - 1))) | (t >= 2.0 ** (bits - 1))
        v[bad] = 1  # rounding to the source type pushed these out of range
        return v
    if s_float:
        v = random_array(rng, shape, s)
        flat = v.reshape(-1)
        with np.errstate(over="ignore"):
            flat[: len(SPECIALS)] = np.array(SPECIALS).astype(s)
        if dst == "bfloat16" and src == "float64":
            with np.errstate(over="ignore"):
                v = v.astype(np.float32).astype(np.float64)
        return v
    if s == np.bool_ or dst != "bfloat16":
        return random_array(rng, shape, s)
    return random_array(rng, shape, s, low=-(2**24), high=2**24)


@pytest.mark.parametrize("dst", DTYPE_NAMES)
@pytest.mark.parametrize("src", DTYPE_NAMES)
def test_astype_every_pair(device, src, dst, rng):
    a = source_values(rng, src, dst)
    with np.errstate(all="ignore"):
        want = a.astype(NP_DTYPES[dst])
        want_t = a.T.astype(NP_DTYPES[dst])
    x = loom.asarray(a, device=device)
    y = x.astype(dst)
    assert_matches(y, want, device=device, exact=True)
    assert_matches(x.T.astype(NP_DTYPES[dst]), want_t, device=device, exact=True)  # strided source
    assert_matches(x, a, exact=True)  # the source is untouched


def test_astype_copy_flag(device, rng):
    x = loom.asarray(random_array(rng, (4,), np.int32), device=device)
    assert x.astype(loom.int32, copy=False) is x
    y = x.astype(loom.int32)
    assert y is not x
    assert_matches(y, x.numpy(), exact=True)
    assert x.astype("float32", copy=False) is not x


def test_dtype_objects():
    assert repr(loom.float32) == "loom.float32"
    assert str(loom.float32) == "float32"
    assert loom.float32.name == "float32" and loom.float32.itemsize == 4
    assert loom.bool_.name == "bool" and loom.bool_.itemsize == 1 and loom.bool is loom.bool_
    assert loom.bfloat16.name == "bfloat16" and loom.bfloat16.itemsize == 2
    assert loom.int8.kind == "i" and loom.uint16.kind == "u" and loom.float16.kind == "f"
    assert loom.float32 == np.float32 == loom.float32
    assert loom.float32 == np.dtype("float32")
    assert loom.float32 == "float32" and loom.float32 == "f4"
    assert loom.float64 == float and loom.int64 == int and loom.bool_ == bool
    assert loom.bfloat16 == ml_dtypes.bfloat16 and loom.bfloat16 == np.dtype(ml_dtypes.bfloat16)
    assert loom.float32 != loom.float64 and loom.float32 != "nonsense" and loom.float32 != 3
    # None is float64, as numpy.dtype(None) and np.dtype('f8') == None say
    assert (loom.float64 == None) == (np.dtype("f8") == None) == True  # noqa: E711
    assert (loom.float32 == None) == (np.dtype("f4") == None) == False  # noqa: E711
    assert loom.float32 != None and not (loom.float64 != None)  # noqa: E711
    assert loom.dtype(None) == np.dtype(None) == loom.float64
    # NumPy 2's C-type names, the same objects as the sized ones
    for alias in ("half", "single", "double", "csingle", "cdouble", "byte", "ubyte", "short", "ushort", "intc",
                  "uintc", "int_", "intp", "long", "longlong", "uint", "uintp", "ulong", "ulonglong"):
        assert getattr(loom, alias) == np.dtype(getattr(np, alias)), alias
    assert loom.int_ is loom.int64 and loom.double is loom.float64
    assert np.dtype(loom.float32) == np.float32
    assert np.dtype(loom.bfloat16) == ml_dtypes.bfloat16
    assert np.zeros(2, dtype=loom.int16).dtype == np.int16
    assert len({loom.float32, loom.float32, loom.int8}) == 2
    names = [getattr(loom, n if n != "bool" else "bool_").name for n in DTYPE_NAMES]
    assert names == DTYPE_NAMES


@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_dtype_spellings_resolve(name):
    npdt = NP_DTYPES[name]
    for spelling in (name, npdt, npdt.type, getattr(loom, name if name != "bool" else "bool_")):
        assert loom.zeros(1, dtype=spelling, device="cpu").dtype == npdt
    assert loom.zeros(1, dtype=npdt.str if npdt.kind != "V" else "bfloat16", device="cpu").dtype == npdt


def test_bad_dtypes():
    for bad in ("U3", object, "nonsense", 3, np.clongdouble, "V8"):
        with pytest.raises(TypeError):
            loom.zeros(2, dtype=bad, device="cpu")


def test_promote_types():
    assert loom.promote_types(loom.int8, loom.uint8) == np.promote_types(np.int8, np.uint8)
    assert loom.promote_types("float16", "int16") == np.float32
    assert loom.promote_types(loom.bfloat16, loom.float32) == loom.float32
    for a in DTYPE_NAMES:
        for b in DTYPE_NAMES:
            if "bfloat16" not in (a, b):
                assert loom.promote_types(a, b) == np.promote_types(a, b), (a, b)


COMPLEX_DISCARDS = {
    "astype": lambda xp, z, r: z.astype(r.dtype),
    "setitem": lambda xp, z, r: r.__setitem__(slice(None), z),
    "copyto unsafe": lambda xp, z, r: xp.copyto(r, z, casting="unsafe"),
    "concatenate unsafe": lambda xp, z, r: xp.concatenate([z, r], dtype=r.dtype, casting="unsafe"),
    "stack unsafe": lambda xp, z, r: xp.stack([z, r], dtype=r.dtype, casting="unsafe"),
    "hstack unsafe": lambda xp, z, r: xp.hstack([z, r], dtype=r.dtype, casting="unsafe"),
    "vstack unsafe": lambda xp, z, r: xp.vstack([z, r], dtype=r.dtype, casting="unsafe"),
}


@pytest.mark.parametrize("how", sorted(COMPLEX_DISCARDS))
@pytest.mark.parametrize("src, dst", [("complex64", "float32"), ("complex128", "int32"), ("complex64", "float64")])
def test_complex_to_real_warns_as_numpy(device, rng, how, src, dst):
    """NumPy's ComplexWarning where a cast drops imaginary parts, the values NumPy gives."""
    fn = COMPLEX_DISCARDS[how]
    z = (rng.standard_normal(4) * 5 + 1j * rng.standard_normal(4)).astype(src)
    r = np.zeros(4, dst)
    with pytest.warns(np.exceptions.ComplexWarning):
        want = fn(np, z, r)
    lr = loom.asarray(np.zeros(4, dst), device=device)
    with pytest.warns(np.exceptions.ComplexWarning, match="discards the imaginary part"):
        got = fn(loom, loom.asarray(z, device=device), lr)
    np.testing.assert_array_equal((lr if want is None else got).numpy(), r if want is None else want)


def test_complex_casts_that_keep_imaginary_parts_do_not_warn(device):
    z = loom.asarray(np.array([1 + 2j, 3 - 1j]), device=device)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        z.astype(loom.complex64)
        z.real.astype(loom.float32)
        z.astype(loom.bool_)  # nonzero reads both parts: NumPy does not warn
        loom.zeros(2, dtype=loom.complex64, device=device)[:] = z
        loom.concatenate([z, z], dtype=loom.complex64)
        with pytest.raises(TypeError, match="same_kind"):  # NumPy refuses rather than warns
            loom.concatenate([z, z], dtype=loom.float64)
