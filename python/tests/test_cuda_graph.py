"""loom.cuda_graph: capture once, replay with new inputs. The cpu() path and the argument
errors run everywhere; capture, replay, the errors raised during capture and the
allocator's keeping of captured memory need a GPU (skipped without one)."""
import gc

import numpy as np
import pytest

import loom


def chain20(x, y):
    """20 small elementwise ops, the benchmark's shape of work."""
    z = x * y
    for i in range(6):
        z = loom.sin(z) + x
        z = z * 0.5
    return z + y, z * y


def chain20_np(x, y):
    z = x * y
    for i in range(6):
        z = np.sin(z) + x
        z = z * 0.5
    return z + y, z * y


def _rand(rng, shape, dev, dtype=np.float32):
    return loom.asarray(rng.standard_normal(shape).astype(dtype), device=dev)


def _check(outs, x, y, rtol=1e-5):
    want = chain20_np(x.numpy().astype(np.float64), y.numpy().astype(np.float64))
    for got, w in zip(outs, want):
        np.testing.assert_allclose(got.numpy(), w, rtol=rtol, atol=1e-5)


# ---- everywhere (cpu() runs the function eagerly) ----------------------------------

def test_cpu_runs_the_function_each_call(rng):
    dev = loom.cpu()
    x, y = _rand(rng, (64,), dev), _rand(rng, (64,), dev)
    g = loom.cuda_graph(chain20, x, y)
    assert g.inputs is None and g.device == dev
    for _ in range(3):
        x2, y2 = _rand(rng, (64,), dev), _rand(rng, (64,), dev)
        _check(g(x2, y2), x2, y2)


def test_graph_of_a_jitted_function(device, rng):
    # loom.jit fuses the 20 ops into a few kernels, and the graph captures those: the
    # replay then launches a handful of kernels, not 20 (torch.compile's reduce-overhead).
    x, y = _rand(rng, (500,), device), _rand(rng, (500,), device)
    f = loom.jit(chain20)
    g = loom.cuda_graph(f, x, y)
    for _ in range(3):
        x2, y2 = _rand(rng, (500,), device), _rand(rng, (500,), device)
        outs = g(x2, y2)
        _check(outs, x2, y2)
        for a, b in zip(outs, f(x2, y2)):
            np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_graph_of_a_jitted_function_holds_its_fused_kernel(device, rng):
    # A fused kernel this process has never seen, after the function ran eagerly (so every
    # node's eager kernel is loaded): jit's first call would run the group node by node
    # while the kernel compiles in the background. The capture's warm-up must compile it
    # instead, or the graph keeps the unfused kernels for good.
    ops = [lambda z, x: loom.sin(z) + x, lambda z, x: z * x, lambda z, x: loom.cos(z) - x,
           lambda z, x: z * 0.5 + x]
    picks = [int(b) for b in np.base_repr(int(rng.integers(4**10, 4**12)), 4)]

    def f(x, y):
        z = x * y
        for k in picks:
            z = ops[k](z, y)
        return z

    x, y = _rand(rng, (300,), device), _rand(rng, (300,), device)
    eager = f(x, y).numpy()
    before = loom._loom._cpu_loop_stats()["gpu_fused_runs_unfused"]
    g = loom.cuda_graph(loom.jit(f), x, y)
    assert loom._loom._cpu_loop_stats()["gpu_fused_runs_unfused"] == before
    np.testing.assert_allclose(g(x, y).numpy(), eager, rtol=1e-5, atol=1e-5)


def test_argument_errors(rng):
    dev = loom.cpu()
    x, y = _rand(rng, (8,), dev), _rand(rng, (8,), dev)
    g = loom.cuda_graph(lambda a, b, s: a * s + b, x, y, 3.0)
    with pytest.raises(ValueError, match=r"\[cuda_graph\] argument 0 has shape \(9,\)"):
        g(_rand(rng, (9,), dev), y, 3.0)
    with pytest.raises(ValueError, match="dtype"):
        g(x, loom.asarray(np.zeros(8, np.float64), device=dev), 3.0)
    with pytest.raises(TypeError, match="captured with 3 arguments, got 2"):
        g(x, y)
    with pytest.raises(ValueError, match="baked in its captured value 3.0"):
        g(x, y, 4.0)
    with pytest.raises(TypeError, match="argument 1 must be a loom array"):
        g(x, np.zeros(8, np.float32), 3.0)
    np.testing.assert_allclose(g(x, y, 3.0).numpy(), x.numpy() * 3 + y.numpy(), rtol=1e-6)


def test_capture_errors_without_a_graph():
    with pytest.raises(TypeError, match="needs at least one loom array"):
        loom.cuda_graph(lambda s: s, 1.0)
    with pytest.raises(TypeError, match="must be callable"):
        loom.cuda_graph(3, loom.zeros(2, device=loom.cpu()))
    assert issubclass(loom.GraphCaptureError, RuntimeError)


# ---- on a GPU ----------------------------------------------------------------------

def test_replay_matches_eager_on_new_inputs(gpu, rng):
    x, y = _rand(rng, (1000,), gpu), _rand(rng, (1000,), gpu)
    g = loom.cuda_graph(chain20, x, y)
    first = None
    for _ in range(4):
        x2, y2 = _rand(rng, (1000,), gpu), _rand(rng, (1000,), gpu)
        outs = g(x2, y2)
        _check(outs, x2, y2)
        eager = chain20(x2, y2)
        for a, b in zip(outs, eager):
            np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6, atol=1e-6)
        if first is None:
            first = outs
        assert outs is first  # static outputs, overwritten by each replay (PyTorch's rule)


def test_wrong_shape_and_device_at_replay(gpu, rng):
    x, y = _rand(rng, (16,), gpu), _rand(rng, (16,), gpu)
    g = loom.cuda_graph(chain20, x, y)
    with pytest.raises(ValueError, match="shape"):
        g(_rand(rng, (17,), gpu), y)
    with pytest.raises(loom.DeviceMismatchError):
        g(_rand(rng, (16,), loom.cpu()), y)


@pytest.mark.parametrize("what", ["numpy", "item", "synchronize", "stream_sync", "bool"])
def test_host_sync_during_capture_raises(gpu, rng, what):
    x = _rand(rng, (32,), gpu)
    calls = []

    def f(a):
        b = a * 2.0
        calls.append(1)
        if len(calls) == 2:  # the capture (the first call is the warm-up)
            if what == "numpy":
                b.numpy()
            elif what == "item":
                b[0].item()
            elif what == "synchronize":
                loom.synchronize()
            elif what == "stream_sync":
                loom.current_stream(gpu).synchronize()
            else:
                bool(b.sum() > 0)
        return b

    with pytest.raises(loom.GraphCaptureError, match="cannot run while loom.cuda_graph is capturing"):
        loom.cuda_graph(f, x)
    # The capture was abandoned cleanly: eager work and a new graph still run.
    np.testing.assert_allclose((x + 1.0).numpy(), x.numpy() + 1, rtol=1e-6)
    g = loom.cuda_graph(lambda a: a * 3.0, x)
    np.testing.assert_allclose(g(x).numpy(), x.numpy() * 3, rtol=1e-6)


def test_first_compile_during_capture_raises(gpu, rng):
    x = _rand(rng, (32,), gpu)
    calls = []

    # A kernel no other test compiled: its source holds a fresh constant.
    tag = rng.integers(1 << 30)
    k = loom.RawKernel(
        'extern "C" __global__ void bump(float* p, int n) {'
        f' int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] += {tag}.0f; }}', "bump")

    def f(a):
        calls.append(1)
        b = a + 1.0
        if len(calls) == 2:  # launched first during the capture, not in the warm-up
            k((1,), (32,), (b, np.int32(32)))
        return b

    with pytest.raises(loom.GraphCaptureError, match="compil"):
        loom.cuda_graph(f, x)


def test_index_bounds_flag_read_during_capture_raises(gpu, rng):
    x = _rand(rng, (32,), gpu)
    idx = loom.asarray(np.array([1, 5, 7]), device=gpu)
    with pytest.raises(loom.GraphCaptureError):
        loom.cuda_graph(lambda a, i: a[i] * 2.0, x, idx)


def test_captured_memory_is_not_reused_between_replays(gpu, rng):
    n = 1 << 16
    x, y = _rand(rng, (n,), gpu), _rand(rng, (n,), gpu)
    g = loom.cuda_graph(chain20, x, y)
    for _ in range(3):
        # Arrays of the graph's temporaries' size, allocated and freed between replays: were
        # the graph's memory handed to them, the replay would overwrite them, or they the
        # replay's temporaries.
        freed = [loom.full((n,), 12345.0, dtype=loom.float32, device=gpu) for _ in range(30)]
        del freed
        gc.collect()
        live = [loom.full((n,), -7.0, dtype=loom.float32, device=gpu) for _ in range(30)]
        x2, y2 = _rand(rng, (n,), gpu), _rand(rng, (n,), gpu)
        outs = g(x2, y2)
        _check(outs, x2, y2)
        for a in live:
            assert (a.numpy() == -7.0).all()
        del live


def test_closure_constants_stay_alive(gpu, rng):
    w_np = rng.standard_normal(256).astype(np.float32)
    holder = [loom.asarray(w_np, device=gpu)]
    x = _rand(rng, (256,), gpu)
    g = loom.cuda_graph(lambda a: a * holder[0] + 1.0, x)
    holder.clear()  # now only the graph holds the constant's buffer
    gc.collect()
    junk = [loom.full((256,), 99.0, dtype=loom.float32, device=gpu) for _ in range(20)]
    x2 = _rand(rng, (256,), gpu)
    np.testing.assert_allclose(g(x2).numpy(), x2.numpy() * w_np + 1, rtol=1e-6)
    del junk


def test_replays_on_another_stream_and_graph_release(gpu, rng):
    x, y = _rand(rng, (512,), gpu), _rand(rng, (512,), gpu)
    g = loom.cuda_graph(chain20, x, y)
    s = loom.Stream(gpu)
    with s:
        x2, y2 = _rand(rng, (512,), gpu), _rand(rng, (512,), gpu)
        outs = g(x2, y2)
    _check(outs, x2, y2)
    outs = g(x, y)
    _check(outs, x, y)
    kept = outs[0]
    del g, outs
    gc.collect()
    loom.synchronize()
    # An output the user still holds survives the graph.
    want = chain20_np(x.numpy().astype(np.float64), y.numpy().astype(np.float64))[0]
    np.testing.assert_allclose(kept.numpy(), want, rtol=1e-5, atol=1e-5)


def test_reductions_matmul_and_in_place_updates(gpu, rng):
    a, b = _rand(rng, (64, 32), gpu), _rand(rng, (32, 16), gpu)
    acc = loom.zeros((64, 16), dtype=loom.float32, device=gpu)

    def step(p, q):
        m = p @ q
        acc[...] += m  # a closure written by each replay
        return m.sum(axis=0), loom.max(m)

    g = loom.cuda_graph(step, a, b)
    loom.synchronize()
    acc[...] = 0
    total = np.zeros((64, 16))
    for _ in range(3):
        a2, b2 = _rand(rng, (64, 32), gpu), _rand(rng, (32, 16), gpu)
        s, mx = g(a2, b2)
        m = a2.numpy().astype(np.float64) @ b2.numpy().astype(np.float64)
        total += m
        np.testing.assert_allclose(s.numpy(), m.sum(axis=0), rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose(mx.numpy(), m.max(), rtol=1e-4)
    np.testing.assert_allclose(acc.numpy(), total, rtol=1e-4, atol=1e-4)
