"""Tuples as kernel arguments (Numba's UniTuple and Tuple): nested, of numbers and arrays,
empty; passed flattened, one C parameter per leaf, and rebuilt in the kernel (dispatcher.py,
translate.py), on every device."""
import numpy as np
import pytest

import loom
from loom import cuda
from conftest import skip_cpu_kernels


@cuda.jit
def k_sum_tuple(out, t):
    out[0] = t[0] + t[1] * 2 + t[2][0] - t[2][1]


@cuda.jit
def k_tuple_of_arrays(t, scale):
    i = cuda.grid(1)
    a, b = t
    if i < a.size:
        b[i] = a[i] * scale[0] + scale[1]


@cuda.jit
def k_empty(out, t):
    out[0] = len(t) + 5


def test_nested_tuples_of_numbers(device, rng):
    skip_cpu_kernels(device)
    dev = loom.Device(device)
    x, y, z, w = rng.integers(-50, 50, 4)
    out = loom.zeros(1, device=dev)
    k_sum_tuple[1, 1](out, (int(x), float(y), (np.float32(z), int(w))))
    assert out.to(loom.cpu()).numpy()[0] == x + 2.0 * y + z - w
    k_sum_tuple[1, 1](out, (1, 2, (3, 4)))  # another signature, another specialisation
    assert out.to(loom.cpu()).numpy()[0] == 1 + 4 + 3 - 4


def test_tuple_of_arrays_and_numbers(device, rng):
    skip_cpu_kernels(device)
    dev = loom.Device(device)
    a = rng.standard_normal(50)
    b = loom.zeros(50, device=dev)
    k_tuple_of_arrays[2, 32]((loom.array(a, device=dev), b), (2.5, -1.0))
    # atol: a GPU may fuse a * 2.5 - 1.0 into one fma, which differs near cancellation
    np.testing.assert_allclose(b.to(loom.cpu()).numpy(), a * 2.5 - 1.0, rtol=1e-15, atol=1e-14)
    host_out = np.zeros(50)  # a NumPy array inside a tuple is copied there and back, as at the top level
    k_tuple_of_arrays[2, 32]((a, host_out), (1.0, 1.0))
    np.testing.assert_allclose(host_out, a + 1.0, rtol=1e-15)


def test_empty_tuple(device):
    skip_cpu_kernels(device)
    out = loom.zeros(1, device=loom.Device(device))
    k_empty[1, 1](out, ())
    assert out.to(loom.cpu()).numpy()[0] == 5


def test_bad_tuple_item_names_it():
    with pytest.raises(loom.TypingError, match=r"\[k_sum_tuple\] cannot pass a str to a kernel"):
        k_sum_tuple[1, 1](loom.zeros(1, device=loom.cpu()), (1, "two", (3, 4)))


@cuda.jit
def k_print(t, x):
    print("t =", t, (x,), x > 1)


def test_print_shows_tuples_as_python_does(device, capfd):
    skip_cpu_kernels(device)
    with loom.device(loom.Device(device)):
        k_print[1, 1]((1, ((2, -4), 3.5), (4,)), 7)
        loom.synchronize()
    out = capfd.readouterr().out
    assert out.strip() == "t = (1, ((2, -4), 3.500000), (4,)) (7,) True"


def test_namedtuple_fields_are_attributes(device, rng):
    from collections import namedtuple
    skip_cpu_kernels(device)
    dev = loom.Device(device)
    Point = namedtuple("Point", ("x", "y", "r"))
    Pair = namedtuple("Pair", ("a", "b"))

    @cuda.jit
    def f(out, p, q):
        out[0] = p.x + p.y * 10
        out[1] = p.r
        out[2] = q.a + q[1]  # a field, and the same tuple by index

    x, y, r = int(rng.integers(0, 9)), int(rng.integers(0, 9)), float(rng.random())
    out = loom.zeros(3, device=dev)
    f[1, 1](out, Point(x, y, r), Pair(3, 4))
    np.testing.assert_array_equal(out.to(loom.cpu()).numpy(), [x + y * 10, r, 7])


def test_plain_tuple_has_no_fields():
    @cuda.jit
    def g(out, q):
        out[0] = q.a

    with pytest.raises(loom.UnsupportedError, match=r"\[g\] a tuple\(int64, int64\) has no attribute 'a'"):
        g[1, 1](loom.zeros(1, device=loom.cpu()), (3, 4))


def test_a_unituple_indexed_at_run_time_and_iterated(device, rng):
    """Numba's UniTuple: t[i] with i known only at run time (negative from the end), and for
    loops over a tuple, enumerate() and zip() of tuples; a closure tuple and an argument."""
    weights = (1.5, -2.0, 3.25, 0.5)
    ints = (7, 1, 4)

    @cuda.jit
    def f(out, t, k):
        i = cuda.grid(1)
        if i < out.shape[0]:
            out[i, 0] = t[i % 3] + weights[-1 - (i % 4)]
            out[i, 1] = t[k]
            s = 0.0
            for j, w in enumerate(weights):
                s += j * w
            for a, b in zip(ints, t):
                s += a * b
            out[i, 2] = s

    t = tuple(int(v) for v in rng.integers(-50, 50, 3))
    k = int(rng.integers(-3, 3))
    out = loom.zeros((10, 3), device=device)
    f[1, 10](out, t, k)
    i = np.arange(10)
    want = np.stack([np.array(t)[i % 3] + np.array(weights)[-1 - i % 4], np.full(10, t[k]),
                     np.full(10, sum(j * w for j, w in enumerate(weights)) + sum(a * b for a, b in zip(ints, t)))], 1)
    np.testing.assert_allclose(out.numpy(), want)


def test_a_mixed_tuple_needs_a_constant_index():
    @cuda.jit
    def g(out, t, k):
        out[0] = t[k]

    with pytest.raises(loom.UnsupportedError, match=r"items of different types\) can only be indexed by a constant"):
        g[1, 1](loom.zeros(1, device=loom.cpu()), (1, 2.5), 0)


def test_a_tuple_index_past_the_end_is_an_index_error_in_debug_mode():
    @cuda.jit(debug=True, opt=False)
    def h(out, t, k):
        out[0] = t[k]

    out = loom.zeros(1, device=loom.cpu())
    h[1, 1](out, (4, 5), -2)
    assert out.numpy()[0] == 4
    with pytest.raises(IndexError, match="tuple index out of range"):
        h[1, 1](out, (4, 5), 2)


def test_declared_tuple_signatures(device, rng):
    """Numba's UniTuple(int64, 2) / Tuple(float64, int32) in a signature, as text or type
    objects: compiled eagerly, launched with Python tuples whose numbers convert."""
    from loom.cuda import types

    def body(out, t, u):
        out[0] = t[0] * 10 + t[1] + u[0] * u[1]

    a, b, c, d = (int(v) for v in rng.integers(-9, 9, 4))
    for sig in ("void(float64[::1], UniTuple(int64, 2), Tuple(float64, int32))",
                types.void(types.float64[::1], types.UniTuple(types.int64, 2),
                           types.Tuple((types.float64, types.int32)))):
        f = cuda.jit(sig)(body)
        out = loom.zeros(1, device=device)
        f[1, 1](out, (a, b), (c + 0.5, d))
        assert out.numpy()[0] == a * 10 + b + (c + 0.5) * d
        assert list(f.overloads) == [(types.float64[::1], types.UniTuple(types.int64, 2),
                                      types.Tuple((types.float64, types.int32)))]
        with pytest.raises(loom.TypingError, match="No matching definition"):
            f[1, 1](out, (a, b, c), (c, d))


def test_print_of_dim3_and_of_more_than_32_items(device, capfd, tmp_path, monkeypatch):
    """print(cuda.threadIdx) shows (x, y, z); past CUDA printf's 32 arguments the format string
    itself is printed, with Numba's warning, given again when the kernel loads from the cache."""
    @cuda.jit
    def dims():
        print(cuda.threadIdx)

    def many(r):
        print(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11], r[12], r[13], r[14],
              r[15], r[16], r[17], r[18], r[19], r[20], r[21], r[22], r[23], r[24], r[25], r[26], r[27], r[28],
              r[29], r[30], r[31], r[32])

    monkeypatch.setenv("LOOM_CACHE_DIR", str(tmp_path))
    with loom.device(loom.Device(device)):
        dims[1, (2, 1, 2)]()
        loom.synchronize()
        assert sorted(capfd.readouterr().out.split("\n")[:-1]) == ["(0, 0, 0)", "(0, 0, 1)", "(1, 0, 0)", "(1, 0, 1)"]
        r = loom.arange(33, device=device)
        for _ in range(2):  # compiled, then loaded from the cache: the warning both times
            with pytest.warns(UserWarning, match="cannot print more than 32 items"):
                cuda.jit(many)[1, 1](r)
            loom.synchronize()
            assert capfd.readouterr().out.strip() == " ".join(["%lld"] * 33)
