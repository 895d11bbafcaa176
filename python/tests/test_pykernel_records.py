"""Records (NumPy structured dtypes) in Python kernels on every device (complex fields at
offsets NumPy aligns to 4 bytes included), against NumPy on
fresh data: structured arrays and recarrays as arguments, fields read and written by
attribute and by name, nested array fields, whole records copied, a record argument written
back, frozen constant record arrays, record signatures; and Numba's cuda.In/Out/InOut."""
import numpy as np
import pytest

import loom
from loom import cuda
from loom.cuda import types

PARTICLE = np.dtype([("x", np.float64), ("n", np.int32), ("z", np.complex64), ("h", np.float32, (3, 2))],
                    align=True)
POINT = np.dtype([("x", np.float64), ("y", np.int64)])  # packed, yet aligned


def particles(rng, n):
    a = np.zeros(n, PARTICLE)
    a["x"] = rng.standard_normal(n)
    a["n"] = rng.integers(-100, 100, n)
    a["z"] = rng.standard_normal(n) + 1j * rng.standard_normal(n)
    a["h"] = rng.standard_normal((n, 3, 2))
    return a


@cuda.jit
def update(ary, out):
    i = cuda.grid(1)
    if i < ary.shape[0]:
        p = ary[i]
        out[i] = p.x * p.n + p["h"][2, 1] + ary[i].z.imag
        p.n = p.n + 1
        ary[i]["x"] = -p.x
        p.h[0, 0] = p.h[1, 1] * 2
        ary[i].z = p.z * 1j


@pytest.fixture(autouse=True)
def _launch_on(device):
    # Host (NumPy) arguments go to the default device, as in Numba: make it the test's.
    with device:
        yield


def test_structured_array_fields_read_and_written(device, rng):
    a = particles(rng, 200)
    want = a.copy()
    out = np.zeros(200)
    for host in (a, a.view(np.recarray)):
        host[...] = want
        update[2, 128](host, out)
        np.testing.assert_allclose(out, want["x"] * want["n"] + want["h"][:, 2, 1] + want["z"].imag.astype(np.float64),
                                   rtol=1e-6)
        np.testing.assert_array_equal(host["n"], want["n"] + 1)
        np.testing.assert_array_equal(host["x"], -want["x"])
        np.testing.assert_array_equal(host["h"][:, 0, 0], want["h"][:, 1, 1] * 2)
        np.testing.assert_array_equal(host["h"][:, 1:], want["h"][:, 1:])  # the other elements untouched
        np.testing.assert_array_equal(host["z"], want["z"] * 1j)


@cuda.jit
def copy_records(ary, src, dst):
    i = cuda.grid(1)
    if i < src.size:
        ary[dst[i]] = ary[src[i]]


def test_whole_records_copied(device, rng):
    a = particles(rng, 64)
    want = a.copy()
    perm = rng.permutation(64)
    src, dst = perm[:20], perm[20:40]  # disjoint: the copies do not race
    copy_records[1, 32](a, src, dst)
    want[dst] = want[src]
    np.testing.assert_array_equal(a, want)


@cuda.jit
def record_arg(r, out):
    out[0] = r.x + r[1]  # r[1]: the second field, by position
    r.n = 7
    r.h[2, 0] = out[0]


@cuda.jit
def nested_copy(r, src):
    r.h = src  # a whole nested array field from an array of its shape


def test_record_argument_is_written_back(device, rng):
    a = particles(rng, 3)
    want = a.copy()
    out = np.zeros(1)
    record_arg[1, 1](a[1], out)  # a[1] is a view into a: the kernel's writes land there
    assert out[0] == want["x"][1] + want["n"][1]
    want["n"][1] = 7
    want["h"][1, 2, 0] = out[0]
    np.testing.assert_array_equal(a, want)
    src = rng.standard_normal((3, 2)).astype(np.float32)
    nested_copy[1, 1](a[2], src)
    np.testing.assert_array_equal(a["h"][2], src)


CONST_POINTS = np.array([(1.5, 3), (2.5, -4), (-0.25, 5)], dtype=POINT)


@cuda.jit
def read_const(out):
    c = cuda.const.array_like(CONST_POINTS)
    i = cuda.grid(1)
    if i < len(c):
        out[i] = c[i]["x"] * c[i].y


def test_constant_record_array_and_record_signature(device):
    out = np.zeros(3)
    read_const[1, 3](out)
    np.testing.assert_array_equal(out, CONST_POINTS["x"] * CONST_POINTS["y"])

    rec = types.from_dtype(POINT)
    assert rec[:] == types.Array(rec, 1, "A") and str(rec[::1]).endswith("[::1]")

    @cuda.jit((rec[::1],))
    def double_y(a):
        i = cuda.grid(1)
        if i < a.size:
            a[i].y = a[i].y * 2
    pts = CONST_POINTS.copy()
    double_y[1, 4](pts)
    np.testing.assert_array_equal(pts["y"], CONST_POINTS["y"] * 2)
    assert list(double_y.overloads) == [(rec[::1],)]


def test_misaligned_field_is_refused(device):
    packed = np.dtype([("a", np.int32), ("b", np.float64)])  # b at byte 4: no GPU reads it

    @cuda.jit
    def k(a):
        a[0].a = 1

    with pytest.raises(loom.TypingError, match=r"\[k\] the record field 'b' at byte 4 .*type float64 is not aligned"):
        k[1, 1](np.zeros(2, packed))
    nested = np.dtype([("n", np.int32), ("h", np.complex64, (2,))], align=True)  # h at byte 4

    @cuda.jit
    def doubles(r):
        r.h[1] = r.h[0] * 2

    with pytest.raises(loom.TypingError, match="complex arrays at multiples of 8 bytes"):
        doubles[1, 1](np.zeros(1, nested)[0])
    fine = np.zeros(1, np.dtype([("x", np.float64), ("h", np.complex64, (2,))], align=True))
    fine["h"] = [[1 + 2j, 0]]
    doubles[1, 1](fine[0])
    assert fine["h"][0, 1] == 2 + 4j
    with pytest.raises(loom.TypingError, match="has no field 'q'"):
        @cuda.jit
        def bad(a):
            a[0].q = 1
        bad[1, 1](np.zeros(2, POINT))


@cuda.jit
def add_one(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] += 1


@cuda.jit
def fill(a, v):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = v


def test_in_out_inout_hints(device, rng):
    x = rng.standard_normal(50)
    h = x.copy()
    add_one[1, 64](cuda.In(h))  # copied in, not back
    np.testing.assert_array_equal(h, x)
    add_one[1, 64](cuda.InOut(h))
    np.testing.assert_array_equal(h, x + 1)
    o = np.zeros(50)
    fill[1, 64](cuda.Out(o), 2.5)  # copied back, not in
    np.testing.assert_array_equal(o, 2.5)
    r = np.zeros(4, POINT)
    fill_rec = cuda.jit(lambda a: None)
    fill_rec[1, 1](cuda.In(r))
    assert repr(cuda.In(1)) == "cuda.In(1)"


def test_extensions_choose_the_hints(device, rng):
    class DefaultIn:
        def prepare_args(self, ty, val, **kwargs):
            return ty, val if isinstance(val, cuda.InOut) else cuda.In(val)

    k = cuda.jit(add_one.py_func)
    k.extensions.append(DefaultIn())
    x = rng.standard_normal(10)
    h = x.copy()
    k[1, 16](h)
    np.testing.assert_array_equal(h, x)  # In by default now
    k[1, 16](cuda.InOut(h))
    np.testing.assert_array_equal(h, x + 1)


@pytest.mark.skipif(not loom.build_info()["cuda"], reason="loom built without CUDA (no NVRTC)")
def test_record_kernels_compile_with_nvrtc():
    rec = types.from_dtype(PARTICLE)
    for k, sig in ((update, (rec[::1], types.float64[::1])), (record_arg, (rec, types.float64[::1])),
                   (copy_records, (rec[::1], types.int64[::1], types.int64[::1])), (nested_copy, (rec, types.float32[:, :])),
                   (read_const, (types.float64[::1],))):
        ptx, _ = cuda.compile_ptx(k.py_func, sig, cc=(9, 0))
        assert ".visible .entry" in ptx


def test_record_kernel_without_source(device, rng):
    # exec: no source file, so the kernel is rebuilt from bytecode (STORE_ATTR: r.n = ...)
    scope = {"cuda": cuda}
    exec("def set_n(a, v):\n    i = cuda.grid(1)\n    if i < a.size:\n        a[i].n = a[i].n + v\n"
         "        a[i].z = a[i].z * 2\n", scope)
    k = cuda.jit(scope["set_n"])
    a = particles(rng, 40)
    want = a.copy()
    k[1, 64](a, 3)
    np.testing.assert_array_equal(a["n"], want["n"] + 3)
    np.testing.assert_array_equal(a["z"], want["z"] * 2)
