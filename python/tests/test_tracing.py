"""Tracing at the dispatch point (docs/TRANSFORMS.md §1), seen from Python through loom.jit:
what a traced array refuses (host reads, exports, moves, user kernels, the global random
generator), what traced ops do instead of reading values back (clamped indices), and the
constants a traced function makes."""
import numpy as np
import pytest

import loom


def traced(fn):
    """Calls fn on a traced float32 array of 4 elements on cpu() and returns what it returned."""
    seen = []

    def body(x):
        seen.append(fn(x))
        return x

    loom.jit(body)(loom.zeros(4, device=loom.cpu()))
    return seen[0]


@pytest.mark.parametrize("read, name", [
    (lambda x: bool(x.sum() > 0), "[bool]"),
    (lambda x: int(x[0]), "[int]"),
    (lambda x: float(x[0]), "[float]"),
    (lambda x: x.sum().item(), "[item]"),
    (lambda x: x.numpy(), "[numpy]"),
    (lambda x: np.asarray(x), "[numpy]"),
    (lambda x: x.tolist(), "[numpy]"),
    (lambda x: [0, 1, 2][x[0].astype(loom.int64)], "[index]"),
    (lambda x: x.__dlpack__(), "[__dlpack__]"),
])
def test_host_reads_of_a_traced_array_raise_concretization_errors(read, name):
    with pytest.raises(loom.ConcretizationTypeError) as e:
        traced(read)
    assert name in str(e.value)
    assert "loom.jit" in str(e.value)
    assert isinstance(e.value, TypeError)  # as JAX's ConcretizationTypeError


def test_the_concretization_error_of_an_if_says_what_to_use_instead():
    def f(x):
        if x.sum() > 0:
            return x
        return -x

    with pytest.raises(loom.ConcretizationTypeError, match="loom.where"):
        loom.jit(f)(loom.ones(3))


def test_a_traced_array_prints_its_type_and_never_its_values():
    assert traced(repr) == "Traced<float64(4,), device=cpu()>"
    assert traced(str) == "Traced<float64(4,), device=cpu()>"
    assert traced(lambda x: (x.shape, x.dtype, x.device)) == ((4,), loom.float64, loom.cpu())


def test_the_global_random_generator_is_refused_and_keys_are_traced():
    with pytest.raises(loom.ConcretizationTypeError, match="key"):
        loom.jit(lambda x: x + loom.random.rand(4, dtype=loom.float32))(loom.zeros(4))
    key = loom.random.key(7)
    f = loom.jit(lambda x, k: x + loom.random.normal(k, (4,)))
    want = loom.random.normal(key, (4,)).numpy()
    for _ in range(2):  # the same key gives the same numbers, call after call
        np.testing.assert_array_equal(f(loom.zeros(4), key).numpy(), want)


def test_a_user_kernel_on_traced_arrays_is_refused():
    k = loom.RawKernel('extern "C" __global__ void fill(float* x) { x[threadIdx.x] = 1.0f; }', "fill")
    with pytest.raises(NotImplementedError, match="traced"):
        traced(lambda x: k((1,), (4,), (x,)))


def test_out_of_bounds_advanced_indices_are_clamped_when_traced(rng):
    x = loom.asarray(rng.standard_normal(10))
    idx = loom.asarray(np.array([-1, 3, 12, -30]))
    with pytest.raises(IndexError, match="out of bounds"):
        x[idx]  # eagerly: NumPy's IndexError
    got = loom.jit(lambda x, i: x[i])(x, idx).numpy()
    np.testing.assert_array_equal(got, x.numpy()[[9, 3, 9, 0]])  # traced: clamped, as JAX


def test_integer_powers_skip_the_negative_exponent_check_when_traced():
    b, e = loom.asarray(np.array([2, 3])), loom.asarray(np.array([3, -1]))
    with pytest.raises(ValueError, match="negative integer powers"):
        b ** e
    np.testing.assert_array_equal(loom.jit(lambda b, e: b ** e)(b, e).numpy(), [8, 0])


def test_constants_made_inside_the_function_start_fresh_on_every_call():
    def f(x):
        y = loom.asarray(np.array([1.0, 2.0, 3.0]))  # uploaded once, at trace time
        y += x                                       # written in place by a recorded op
        return y

    f_jit = loom.jit(f)
    x = loom.ones(3, dtype=loom.float64)
    for _ in range(3):
        np.testing.assert_array_equal(f_jit(x).numpy(), [2.0, 3.0, 4.0])


def test_an_array_captured_from_outside_is_written_on_every_call_as_eagerly():
    acc = loom.zeros(3)

    def f(x):
        acc[...] += x
        return x

    f_jit = loom.jit(f)
    for _ in range(3):
        f_jit(loom.ones(3))
    np.testing.assert_array_equal(acc.numpy(), [3.0, 3.0, 3.0])


def test_a_returned_constant_is_a_fresh_array_each_call():
    f = loom.jit(lambda x: (x, loom.asarray(np.array([1.0, 2.0]))))
    _, c1 = f(loom.zeros(1))
    c1 += 10
    _, c2 = f(loom.zeros(1))
    np.testing.assert_array_equal(c2.numpy(), [1.0, 2.0])


def test_is_tracing_is_true_only_inside():
    assert not loom._loom._is_tracing()
    assert traced(lambda x: loom._loom._is_tracing())
