"""loom.lax.while_loop and fori_loop (loom/transforms/lax.py over transforms/control_flow.h), as
JAX's: on every device, against the same loop in NumPy on fresh random data, with 0, 1 and
many iterations; under jit (one trace for every trip count, the loop one op), with arrays the
loop closes over, nested; under vmap with per-example trip counts; pytree carries and the
errors that name the loop. Derivatives: test_lax_while_loop_derivatives.py."""
import numpy as np
import pytest

import loom
from loom import lax


def test_public_paths():
    import loom.lax as by_import
    assert by_import is lax and loom.lax is lax


@pytest.mark.parametrize("n", [0, 1, 13])
def test_while_loop_matches_the_python_loop(device, rng, n):
    x = rng.standard_normal((3, 4)).astype(np.float32)
    dev = loom.Device(device)
    i, y = lax.while_loop(lambda c: c[0] < n, lambda c: (c[0] + 1, c[1] * 0.5 + 1.0),
                          (0, loom.asarray(x, device=dev)))
    want = x.copy()
    for _ in range(n):
        want = want * np.float32(0.5) + np.float32(1.0)
    assert int(i) == n and y.dtype == loom.float32 and y.device == dev
    np.testing.assert_allclose(y.to(loom.cpu()).numpy(), want, rtol=1e-6)


@pytest.mark.parametrize("n", [0, 1, 10])
def test_fori_loop_matches_the_python_loop(device, rng, n):
    dev = loom.Device(device)
    w = rng.standard_normal(5)
    got = lax.fori_loop(3, 3 + n, lambda i, acc: acc + loom.asarray(w, device=dev) * i,
                        loom.zeros(5, device=dev))
    want = sum((w * i for i in range(3, 3 + n)), np.zeros(5))
    np.testing.assert_allclose(got.to(loom.cpu()).numpy(), want, rtol=1e-12)


def test_pytree_carry_keeps_its_structure(rng):
    x = rng.standard_normal(4)
    out = lax.while_loop(lambda s: s["k"] < 3, lambda s: {"k": s["k"] + 1, "v": [s["v"][0] * 2, s["v"][1] - 1]},
                         {"k": 0, "v": [loom.asarray(x), loom.asarray(1.5)]})
    assert set(out) == {"k", "v"} and isinstance(out["v"], list)
    np.testing.assert_allclose(out["v"][0].numpy(), x * 8)
    assert float(out["v"][1]) == -1.5


def test_jit_traces_once_and_the_loop_is_one_op(device, rng):
    dev = loom.Device(device)
    x = loom.asarray(rng.standard_normal(6), device=dev)
    y = loom.asarray(rng.standard_normal(6), device=dev)
    calls = []

    @loom.jit
    def f(x, y, n):  # y and n are read from the trace around the loop
        calls.append(1)
        return lax.fori_loop(0, n, lambda i, a: a * 0.5 + y, x)

    for n in (0, 1, 4, 9):
        want = x.to(loom.cpu()).numpy()
        for _ in range(n):
            want = want * 0.5 + y.to(loom.cpu()).numpy()
        np.testing.assert_allclose(f(x, y, loom.asarray(n, device=dev)).to(loom.cpu()).numpy(), want, rtol=1e-12)
    assert len(calls) == 1, "a new trip count retraced"


def test_nested_loops_under_jit():
    @loom.jit
    def triangle(n):  # sum over i < n of i, counted one at a time by an inner loop
        return lax.fori_loop(0, n, lambda i, acc: lax.fori_loop(0, i, lambda j, a: a + 1, acc), 0)

    for n in (0, 1, 2, 10):
        assert int(triangle(loom.asarray(n))) == n * (n - 1) // 2


def test_vmap_stops_each_example_where_its_own_predicate_fails(device, rng):
    dev = loom.Device(device)
    limits = np.array([0, 1, 7, 3])
    step = rng.standard_normal(4)

    def f(limit, s):
        return lax.while_loop(lambda c: c[0] < limit, lambda c: (c[0] + 1, c[1] + s), (0, 0.0))

    with loom.device(dev):  # the carry's Python scalars are made on the default device, as in JAX
        _check_vmap(f, dev, limits, step)


def _check_vmap(f, dev, limits, step):
    k, total = loom.vmap(f)(loom.asarray(limits, device=dev), loom.asarray(step, device=dev))
    np.testing.assert_array_equal(k.to(loom.cpu()).numpy(), limits)
    np.testing.assert_allclose(total.to(loom.cpu()).numpy(), step * limits, rtol=1e-12)
    # Under jit too, and with a shared limit (in_axes None).
    k2, _ = loom.jit(loom.vmap(f))(loom.asarray(limits, device=dev), loom.asarray(step, device=dev))
    np.testing.assert_array_equal(k2.to(loom.cpu()).numpy(), limits)
    k3, t3 = loom.vmap(f, in_axes=(None, 0))(loom.asarray(2, device=dev), loom.asarray(step, device=dev))
    np.testing.assert_array_equal(k3.to(loom.cpu()).numpy(), [2, 2, 2, 2])
    np.testing.assert_allclose(t3.to(loom.cpu()).numpy(), 2 * step, rtol=1e-12)


def test_body_results_are_cast_back_as_jax_weak_types_would_keep_them():
    x = loom.ones(3, dtype=loom.float32)
    out = lax.fori_loop(0, 4, lambda i, a: a + i, x)  # float32 + int64 is float64 in NumPy
    assert out.dtype == loom.float32
    np.testing.assert_allclose(out.numpy(), 1 + 0 + 1 + 2 + 3)


def test_errors_name_the_loop_and_the_problem():
    x = loom.ones(2)
    with pytest.raises(TypeError, match=r"while_loop.*bool scalar"):
        lax.while_loop(lambda c: c, lambda c: c, x)  # a float array as the predicate
    with pytest.raises(TypeError, match=r"while_loop.*element 0 is float64.*the carry's is int64"):
        lax.while_loop(lambda c: c.sum() < 0, lambda c: c * 0.5, loom.ones(2, dtype=loom.int64))  # not same_kind
    with pytest.raises(TypeError, match=r"while_loop.*structure"):
        lax.while_loop(lambda c: c[0] < 0, lambda c: c[0], (x, x))
    with pytest.raises(TypeError, match=r"while_loop.*cond_fun must return a bool scalar, got a str"):
        lax.while_loop(lambda c: "yes", lambda c: c, x)
    with pytest.raises(ValueError, match=r"while_loop.*no arrays"):
        lax.while_loop(lambda c: True, lambda c: c, ())
    with pytest.raises(TypeError, match=r"fori_loop.*integer"):
        lax.fori_loop(0.0, 3, lambda i, a: a, x)
    with pytest.raises(ValueError, match=r"while_loop.*in place"):
        @loom.jit
        def f(a, b):
            def body(c):
                a[0] = c[0]
                return c
            return lax.while_loop(lambda c: c[0] < 0, body, b)
        f(x, x.copy())


def test_the_loop_is_a_primitive_with_its_rules():
    row = next(r for r in loom._loom._primitives() if r["name"] == "while_loop")
    assert row["family"] == "control_flow" and row["batch"] and row["vjp"]
