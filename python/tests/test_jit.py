"""loom.jit: the compiled plan equals eager across op families (bit for bit: no op here
reassociates under jit), retracing only on a new signature, static arguments, pytrees, the
concretization error, errors at trace time naming the op, jit inside jit. On every device
(GPU cases skip without a GPU)."""
import os
import shutil

import numpy as np
import pytest

import loom
from conftest import random_array


def _same(got, want):
    """Equal pytrees of arrays: structure, dtype, shape and bytes."""
    gl, gt = loom.tree_flatten(got)
    wl, wt = loom.tree_flatten(want)
    assert gt == wt
    for g, w in zip(gl, wl):
        g, w = np.asarray(loom.asnumpy(g)), np.asarray(loom.asnumpy(w))
        assert g.dtype == w.dtype and g.shape == w.shape
        assert g.tobytes() == w.tobytes(), (g, w)


def _check(fn, *args, calls=2, **kwargs):
    want = fn(*args, **kwargs)
    f = loom.jit(fn)
    for _ in range(calls):
        _same(f(*args, **kwargs), want)
    return f


def _arr(rng, shape, dtype, device, **kw):
    return loom.asarray(random_array(rng, shape, dtype, **kw), device=device)


def selu(x, alpha=1.67, lmbda=1.05):
    return lmbda * loom.where(x > 0, x, alpha * loom.exp(x) - alpha)


# ---- op families ---------------------------------------------------------------------------

def test_elementwise_selu_and_mixed_dtypes(device, rng):
    _check(selu, _arr(rng, (1000,), "float32", device))
    a = _arr(rng, (7, 5), "int8", device)
    b = _arr(rng, (5,), "float16", device)
    c = _arr(rng, (7, 1), "int32", device, low=-100, high=100)
    _check(lambda a, b, c: loom.sqrt(loom.abs(a * b + c)) * 0.5 - 1, a, b, c)
    _check(lambda a: (a + 3) * 7 // 2, _arr(rng, (64,), "uint8", device))


def test_large_cpu_graphs_run_as_compiled_loops(rng):
    # From min_elements on, a fused graph on cpu() runs as a loop compiled for this CPU
    # (graph/cpu_compiled.h), with the bits of eager: NaNs, infinities, float16 rounding.
    # The first call runs the evaluator while the loop compiles in the background.
    from loom import _loom
    n = _loom._cpu_loop_stats()["min_elements"] + 17
    x = _arr(rng, (n,), "float32", loom.cpu(), low=-30, high=30)
    x[::97] = float("nan")
    x[1::101] = float("inf")
    h = _arr(rng, (n,), "float16", loom.cpu(), low=-5, high=5)
    cases = [(selu, (x,)), (lambda h, x: loom.tanh(h * 0.3) + loom.sqrt(loom.abs(x)).astype("float16"), (h, x))]
    jitted = [_check(f, *args, calls=1) for f, args in cases]
    _loom._wait_for_background_compiles()
    runs = _loom._cpu_loop_stats()["runs"]
    for (f, args), jf in zip(cases, jitted):
        _same(jf(*args), f(*args))
    if _loom._cpu_loop_stats()["loaded"] or shutil.which(os.environ.get("CXX") or "g++"):
        assert _loom._cpu_loop_stats()["runs"] >= runs + 2  # one or more groups each
        assert _loom._cpu_loop_stats()["failed"] == 0


def test_out_dtype_casts_of_intermediates(device, rng):
    def f(x):
        t = loom.empty(x.shape, dtype="float16", device=x.device)
        loom.multiply(x, 1.1, out=t)  # float32 rounded to float16
        return loom.exp(t) + x
    _check(f, _arr(rng, (100,), "float32", device, low=-2, high=2))


def test_casts_and_where(device, rng):
    x = _arr(rng, (40,), "float64", device)
    _check(lambda x: loom.where(x > 0, x.astype("float16"), x.astype("int32")) * 2, x)


def test_reductions_and_scans(device, rng):
    x = _arr(rng, (6, 9), "float32", device, low=-3, high=3)
    _check(lambda x: (loom.sum(loom.exp(x), axis=1), loom.max(x * 2), loom.mean(x, axis=0)), x)
    _check(lambda x: loom.cumsum(x * 0.5, axis=1) + 1, x)


def test_indexing_and_at_updates(device, rng):
    x = _arr(rng, (8, 5), "float32", device)
    _check(lambda x: x[1:7:2] * 2 + x[1:4].sum() + x[-1, ::-1], x)
    _check(lambda x: x.at[2].set(5.0) + x.at[:, 1].add(1.0), x)


def test_advanced_indexing(device, rng):
    x = _arr(rng, (8, 5), "float32", device)
    idx = loom.asarray(np.array([3, 0, 7]), device=device)
    _check(lambda x, i: x[i] * 2, x, idx)
    _check(lambda x, i: x.at[i].add(1.0) - x[i[::-1]].sum(), x, idx)


def test_shape_ops(device, rng):
    x = _arr(rng, (4, 6), "float32", device)
    _check(lambda x: loom.concatenate([x.reshape(6, 4), x.T * 2], axis=0) + 1, x)


def test_matmul_and_einsum(device, rng):
    a = _arr(rng, (5, 7), "float32", device, low=-1, high=1)
    b = _arr(rng, (7, 3), "float32", device, low=-1, high=1)
    _check(lambda a, b: loom.tanh(a @ b + 1), a, b)
    _check(lambda a, b: loom.einsum("ij,jk->ik", a, b) * 2, a, b)


def test_random_with_keys(device):
    key = loom.random.key(3)
    f = lambda k: loom.random.normal(k, (100,), device=device) * 2 + 1  # noqa: E731
    _check(f, key)


# ---- caching, statics, pytrees ---------------------------------------------------------------

def test_retraces_only_on_a_new_signature(rng):
    calls = []

    def f(x):
        calls.append(1)
        return x * 2
    g = loom.jit(f)
    x = loom.asarray(random_array(rng, (10,), "float32"), device=loom.cpu())
    for _ in range(3):
        g(x)
    assert len(calls) == 1
    g(loom.asarray(random_array(rng, (11,), "float32"), device=loom.cpu()))
    g(x.astype("float64"))
    assert len(calls) == 3
    g(x)
    assert len(calls) == 3 and g._cache_size == 3


def test_static_argnums_and_argnames(rng):
    x = loom.asarray(random_array(rng, (12,), "float32"), device=loom.cpu())

    def f(x, n, *, mode="add"):
        return x.reshape(n, -1) + 1 if mode == "add" else x.reshape(n, -1) * 3
    g = loom.jit(f, static_argnums=(1,), static_argnames=("mode",))
    _same(g(x, 3), f(x, 3))
    _same(g(x, 4, mode="mul"), f(x, 4, mode="mul"))
    _same(g(x, n=2), f(x, 2))
    assert g._cache_size == 3


def test_pytrees_in_and_out(rng):
    x = loom.asarray(random_array(rng, (5,), "float32"), device=loom.cpu())
    y = loom.asarray(random_array(rng, (5,), "float32"), device=loom.cpu())

    def f(d, scale):
        return {"s": d["a"] * scale + d["b"][0], "t": (d["b"][1] - 1, [d["a"]])}
    _check(f, {"a": x, "b": (y, x)}, 2.0)


# ---- errors ---------------------------------------------------------------------------------

def test_concretization_errors(rng):
    x = loom.asarray(random_array(rng, (3,), "float32"), device=loom.cpu())

    def branch(x):
        if loom.sum(x) > 0:
            return x
        return -x
    with pytest.raises(loom.ConcretizationTypeError):
        loom.jit(branch)(x)
    with pytest.raises(loom.ConcretizationTypeError):
        loom.jit(lambda x: x * int(loom.sum(x)))(x)
    with pytest.raises(loom.ConcretizationTypeError):
        loom.jit(lambda x: x * loom.sum(x).item())(x)
    assert issubclass(loom.ConcretizationTypeError, TypeError)


def test_errors_at_trace_time_name_the_op(rng):
    a = loom.asarray(random_array(rng, (3,), "float32"), device=loom.cpu())
    b = loom.asarray(random_array(rng, (4,), "float32"), device=loom.cpu())
    with pytest.raises(ValueError, match=r"\[add\]"):
        loom.jit(lambda a, b: a + b)(a, b)
    with pytest.raises(ValueError, match=r"\[matmul\]"):
        loom.jit(lambda a, b: a @ b)(a, b)


def test_jit_inside_jit(device, rng):
    inner = loom.jit(selu)
    outer = lambda x: inner(x + 1) * 2  # noqa: E731
    _check(outer, _arr(rng, (300,), "float32", device))


def test_fused_op_is_dispatched_once(rng):
    """The compiled SELU reaches the backends as one dispatched op (hooks see it)."""
    x = loom.asarray(random_array(rng, (100,), "float32"), device=loom.cpu())
    f = loom.jit(selu)
    f(x)
    rec = loom._loom._DispatchRecorder()
    rec.start()
    try:
        f(x)
    finally:
        rec.stop()
    assert [e[0] for e in rec.events()] == ["fused"]


@pytest.mark.gpu
def test_cos2_sin2_on_gpu(gpu, rng):
    x = _arr(rng, (100_000,), "float32", gpu)
    _check(lambda x: loom.cos(x) ** 2 + loom.sin(x) ** 2, x)


def test_gpu_calls_before_a_new_kernel_compiles_run_unfused(gpu, rng):
    # A never-seen fused kernel compiles in the background; the calls before it is ready
    # run each node as its (loaded) eager kernel: the same bits, with float16 rounding,
    # a cast output, a weak scalar, a uniform input and two outputs. After the compile
    # the kernel runs.
    from loom import _loom
    x = _arr(rng, (3000,), "float32", gpu, low=-4, high=4)
    h = _arr(rng, (3000,), "float16", gpu, low=-2, high=2)
    u = loom.asarray(np.float32(0.75), device=gpu)
    depth = int(rng.integers(20, 60))  # a graph this process has not compiled

    def f(x, h, u):
        y = loom.where(x > u, loom.exp(h) * 1.5, x - 2)
        for _ in range(depth):
            y = y * 1.0
        return y.astype("float16"), loom.sqrt(loom.abs(y)) + h

    want = f(x, h, u)  # eager: loads every node's kernel
    jf = loom.jit(f)
    before = _loom._cpu_loop_stats()["gpu_fused_runs_unfused"]
    _same(jf(x, h, u), want)
    assert _loom._cpu_loop_stats()["gpu_fused_runs_unfused"] > before
    _loom._wait_for_background_compiles()
    after = _loom._cpu_loop_stats()["gpu_fused_runs_unfused"]
    _same(jf(x, h, u), want)
    assert _loom._cpu_loop_stats()["gpu_fused_runs_unfused"] == after

    # In place: an output written into an input that another output returns as it was.
    def g(a, b):
        loom.multiply(a, 2.0 + depth, out=a)
        return a, b * 1.0
    a, b = _arr(rng, (4000,), "float32", gpu), _arr(rng, (4000,), "float32", gpu)
    want = g(a.copy(), b.copy())
    _same(loom.jit(g)(a.copy(), b.copy()), want)
