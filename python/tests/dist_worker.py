"""The program each rank of python/tests/test_distributed.py runs, under loom.launch:
`dist_worker.py CASE DEVICE` runs one case on cpu() or gpu(LOCAL_RANK) and exits 0 when
every check passed (an AssertionError fails the rank, and the launcher the job).

Every rank makes its data from a seed of its own rank, so each can compute the expected
result of a collective from all ranks' data with NumPy.
"""
import os
import sys
import time

import numpy as np

import loom
import loom.distributed as dist

DTYPES = ["float32", "float64", "int32", "int64", "uint8", "int8", "float16", "bool"]
NP_REDUCE = {"sum": np.sum, "prod": np.prod, "min": np.min, "max": np.max, "avg": np.mean}


def data(rank, shape, dtype, seed=0):
    rng = np.random.default_rng(1000 * seed + rank)
    if dtype == "bool":
        return rng.random(shape) < 0.5
    if np.dtype(dtype).kind in "iu":
        return rng.integers(1, 4, size=shape).astype(dtype)  # small: products stay in range
    return (rng.random(shape) + 0.5).astype(dtype)


def ops_for(dtype):
    if dtype == "bool":
        return ["min", "max"]
    if np.dtype(dtype).kind == "f":
        return ["sum", "prod", "min", "max", "avg"]
    return ["sum", "prod", "min", "max"]


def expect_close(got, want, dtype, what):
    got = got.numpy()
    assert got.dtype == np.dtype(dtype), f"{what}: dtype {got.dtype}"
    assert got.shape == want.shape, f"{what}: shape {got.shape} != {want.shape}"
    tol = {"float16": 2e-3, "float32": 1e-5}.get(dtype, 1e-12)
    if np.dtype(dtype).kind == "f":
        np.testing.assert_allclose(got, want.astype(dtype), rtol=tol, atol=tol, err_msg=what)
    else:
        np.testing.assert_array_equal(got, want.astype(dtype), err_msg=what)


def case_collectives(dev):
    r, w = dist.rank(), dist.world_size()
    for dtype in DTYPES:
        for op in ops_for(dtype):
            mine = data(r, (5, 3), dtype)
            x = loom.asarray(mine, device=dev)
            assert dist.all_reduce(x, op=op) is x
            everyone = np.stack([data(k, (5, 3), dtype) for k in range(w)])
            want = NP_REDUCE[op](everyone.astype("float64") if dtype != "bool" else everyone, axis=0)
            expect_close(x, want, dtype, f"all_reduce {op} {dtype}")
        # reduce_scatter: rows [r*2, r*2+2) of the reduction
        op = ops_for(dtype)[0]
        x = loom.asarray(data(r, (2 * w, 3), dtype, seed=1), device=dev)
        everyone = np.stack([data(k, (2 * w, 3), dtype, seed=1) for k in range(w)])
        full = NP_REDUCE[op](everyone.astype("float64") if dtype != "bool" else everyone, axis=0)
        expect_close(dist.reduce_scatter(x, op=op), full[2 * r:2 * r + 2], dtype, f"reduce_scatter {op} {dtype}")
    for dtype in ["float32", "int16", "bfloat16", "bool"]:
        mine = data(r, (4, 2), dtype if dtype != "bfloat16" else "float32", seed=2)
        np_dtype = "float32" if dtype == "bfloat16" else dtype
        for root in (0, w - 1):
            x = loom.asarray(mine, device=dev).astype(dtype)
            dist.broadcast(x, root=root)
            want = data(root, (4, 2), np_dtype, seed=2)
            assert np.array_equal(x.astype(np_dtype).numpy(), loom.asarray(want).astype(dtype).astype(np_dtype).numpy()), \
                f"broadcast root {root} {dtype}"
        g = dist.all_gather(loom.asarray(mine, device=dev).astype(dtype))
        assert g.shape == (w, 4, 2) and g.device == dev
        want = np.stack([data(k, (4, 2), np_dtype, seed=2) for k in range(w)])
        assert np.array_equal(g.astype(np_dtype).numpy(), loom.asarray(want).astype(dtype).astype(np_dtype).numpy())
    # all_to_all: chunk j of rank k's x goes to rank j
    xs = [np.arange(w * 2 * 3, dtype="float32").reshape(w * 2, 3) + 100 * k for k in range(w)]
    got = dist.all_to_all(loom.asarray(xs[r], device=dev)).numpy()
    want = np.concatenate([xs[k][2 * r:2 * r + 2] for k in range(w)])
    np.testing.assert_array_equal(got, want)
    # point to point around the ring, then back
    out = loom.zeros((3, 2), dtype="int64", device=dev)
    nxt, prv = (r + 1) % w, (r - 1) % w
    msg = loom.asarray(np.full((3, 2), r, dtype="int64"), device=dev)
    if r % 2 == 0:
        dist.send(msg, nxt)
        dist.recv(out, prv)
    else:
        dist.recv(out, prv)
        dist.send(msg, nxt)
    assert (out.numpy() == prv).all(), out.numpy()
    # all_reduce_coalesced: several dtypes and shapes (one an empty array, one a view into a
    # bigger buffer) in one call, each as all_reduce would give it
    for op in ("sum", "max", "avg"):
        specs = [((7, 3), "float32"), ((0, 2), "float64"), ((11,), "float64"), ((2, 2, 2), "float16")]
        if op != "avg":
            specs.append(((5,), "int32"))
        xs = [loom.asarray(data(r, shape, dtype, seed=3 + i), device=dev) for i, (shape, dtype) in enumerate(specs)]
        base = loom.asarray(data(r, (6, 4), "float32", seed=9), device=dev)
        xs.append(base[2:4])  # contiguous rows of a larger array: only they change
        assert dist.all_reduce_coalesced(xs, op=op) is xs
        for i, (shape, dtype) in enumerate(specs):
            everyone = np.stack([data(k, shape, dtype, seed=3 + i) for k in range(w)]).astype("float64")
            expect_close(xs[i], NP_REDUCE[op](everyone, axis=0), dtype, f"all_reduce_coalesced {op} {dtype}")
        everyone = np.stack([data(k, (6, 4), "float32", seed=9) for k in range(w)]).astype("float64")
        want = data(r, (6, 4), "float32", seed=9).astype("float64")
        want[2:4] = NP_REDUCE[op](everyone[:, 2:4], axis=0)
        expect_close(base, want, "float32", f"all_reduce_coalesced {op} of a view")
    assert dist.all_reduce_coalesced([]) == []
    # Complex arrays: sum and avg, as the reductions of their real and imaginary parts
    # (neither NCCL nor Gloo has complex types).
    for dtype in ("complex64", "complex128"):
        def cdata(k, shape=(5, 3)):
            return (data(k, shape, "float64", seed=7) + 1j * data(k, shape, "float64", seed=8)).astype(dtype)
        everyone = np.stack([cdata(k) for k in range(w)]).astype("complex128")
        tol = 1e-5 if dtype == "complex64" else 1e-12
        for op in ("sum", "avg"):
            x = loom.asarray(cdata(r), device=dev).copy()
            dist.all_reduce(x, op=op)
            np.testing.assert_allclose(x.numpy(), NP_REDUCE[op](everyone, axis=0), rtol=tol, err_msg=f"{op} {dtype}")
        xs = [loom.asarray(cdata(r), device=dev).copy(), loom.asarray(data(r, (4,), "float32", seed=2), device=dev)]
        dist.all_reduce_coalesced(xs, op="avg")
        np.testing.assert_allclose(xs[0].numpy(), everyone.mean(axis=0), rtol=tol, err_msg=f"coalesced {dtype}")
        stacked = loom.asarray(np.concatenate([cdata(r)] * w), device=dev)
        got = dist.reduce_scatter(stacked, op="sum")
        np.testing.assert_allclose(got.numpy(), everyone.sum(axis=0), rtol=tol, err_msg=f"reduce_scatter {dtype}")
    # An array written in place by a collective forgets where it came from: y = x.conj()
    # remembers x (so x @ y.T runs as a Hermitian rank-k update, ARCHITECTURE.md §13), and
    # after the sum x @ y.T must read y's new values.
    xn = (data(0, (4, 3), "float64", seed=5) + 1j * data(0, (4, 3), "float64", seed=6)).astype("complex64")
    xc = loom.asarray(xn, device=dev).copy()  # loom's own memory (an asarray view of NumPy's is never trusted)
    want = w * (xn.astype("complex128") @ xn.conj().T.astype("complex128"))
    for reduce in (dist.all_reduce, lambda y: dist.all_reduce_coalesced([y])):
        y = xc.conj()
        reduce(y)
        np.testing.assert_allclose((xc @ y.T).numpy(), want, rtol=1e-5,
                                   err_msg="x @ y.T after y = x.conj() was all-reduced in place")
    # empty and 0-d arrays
    e = loom.zeros((0, 3), device=dev)
    assert dist.all_reduce(e).shape == (0, 3)
    assert dist.all_gather(e).shape == (w, 0, 3)
    s = loom.asarray(np.float64(r + 1), device=dev)
    dist.all_reduce(s, op="max")
    assert float(s.numpy()) == w
    dist.barrier()


def expect_raises(kind, text, fn):
    try:
        fn()
    except kind as e:
        assert text in str(e), f"{kind.__name__} without {text!r}: {e}"
        return str(e)
    raise AssertionError(f"no {kind.__name__} ({text!r})")


def case_errors(dev):
    r, w = dist.rank(), dist.world_size()
    # Mismatched shapes: every rank raises, none hangs; the group stays usable.
    x = loom.zeros((4 + (r == w - 1),), device=dev)
    msg = expect_raises(ValueError, "called different collectives", lambda: dist.all_reduce(x))
    assert "(5,)" in msg and "(4,)" in msg, msg
    y = loom.zeros((2,), dtype="float32" if r == 0 else "float64", device=dev)
    expect_raises(ValueError, "float64", lambda: dist.broadcast(y))
    expect_raises(ValueError, "called different collectives",
                  lambda: dist.all_reduce(loom.ones(2, device=dev), op="sum" if r == 0 else "max"))
    # A barrier against a collective: both sides raise.
    if r == 0:
        expect_raises(ValueError, "called different collectives", dist.barrier)
    else:
        expect_raises(ValueError, "called different collectives", lambda: dist.all_reduce(loom.ones(1, device=dev)))
    # Checked before any exchange, on each rank alone.
    expect_raises(ValueError, "contiguous", lambda: dist.all_reduce(loom.zeros((4, 4), device=dev)[:, ::2]))
    expect_raises(TypeError, "floating", lambda: dist.all_reduce(loom.zeros(3, dtype="int32", device=dev), op="avg"))
    expect_raises(TypeError, "'sum' or 'avg' only, not 'max'",
                  lambda: dist.all_reduce(loom.zeros(3, dtype="complex64", device=dev), op="max"))
    expect_raises(TypeError, "'min' (and)", lambda: dist.all_reduce(loom.zeros(3, dtype="bool", device=dev)))
    expect_raises(ValueError, "op must be", lambda: dist.all_reduce(loom.zeros(3, device=dev), op="median"))
    expect_raises(ValueError, "root must be a rank", lambda: dist.broadcast(loom.zeros(3, device=dev), root=w))
    expect_raises(ValueError, "divide by the world size", lambda: dist.reduce_scatter(loom.zeros(w + 1, device=dev)))
    expect_raises(ValueError, "cannot send to itself", lambda: dist.send(loom.zeros(1, device=dev), r))
    big = loom.zeros(8, device=dev)
    expect_raises(ValueError, "overlap in memory", lambda: dist.all_reduce_coalesced([big[:5], big[4:]]))
    expect_raises(ValueError, "overlap in memory", lambda: dist.all_reduce_coalesced([big, big]))
    expect_raises(ValueError, "contiguous", lambda: dist.all_reduce_coalesced([big, loom.zeros((4, 4), device=dev)[:, ::2]]))
    expect_raises(TypeError, "floating", lambda: dist.all_reduce_coalesced([big, loom.zeros(3, dtype="int32", device=dev)],
                                                                           op="avg"))
    expect_raises(TypeError, "must be a loom array", lambda: dist.all_reduce_coalesced([big, np.zeros(3)]))
    if dev.type != "cpu":
        expect_raises(ValueError, "one device", lambda: dist.all_reduce_coalesced([big, loom.zeros(2, device=loom.cpu())]))
    # Mismatched lists: every rank raises, none hangs.
    msg = expect_raises(ValueError, "called different collectives",
                        lambda: dist.all_reduce_coalesced([loom.zeros(2 + (r == 0), device=dev), loom.zeros(3, device=dev)]))
    assert "(3,)" in msg and "(2,)" in msg, msg
    expect_raises(TypeError, "must be a loom array", lambda: dist.all_reduce(np.zeros(3)))
    expect_raises(NotImplementedError, "cannot be traced",
                  lambda: loom.jit(lambda a: dist.all_reduce(a))(loom.zeros(2, device=dev)))
    # Point to point with different shapes: both sides raise.
    if r < 2:
        other = 1 - r
        if r == 0:
            expect_raises(ValueError, "receives into", lambda: dist.send(loom.zeros(3, device=dev), other))
        else:
            expect_raises(ValueError, "receives into", lambda: dist.recv(loom.zeros(4, device=dev), other))
    # Still in step after all that.
    z = loom.ones(3, device=dev)
    dist.all_reduce(z)
    assert (z.numpy() == w).all()


def case_hang(dev):
    """The last rank stops calling collectives; the others must raise within the timeout."""
    r, w = dist.rank(), dist.world_size()
    x = loom.ones(8, device=dev)
    dist.all_reduce(x)
    if r == w - 1:
        time.sleep(120)  # the launcher ends it once another rank fails
        return
    t0 = time.monotonic()
    try:
        dist.all_reduce(x)
    except dist.DistributedTimeoutError as e:
        waited = time.monotonic() - t0
        assert isinstance(e, TimeoutError) and isinstance(e, dist.DistributedError)
        assert f"{w - 1}" in str(e) and "did not arrive" in str(e), str(e)
        assert waited < 10, waited
        print(f"rank {r}: raised after {waited:.1f} s: {e}", flush=True)
        sys.exit(3)
    raise AssertionError("no timeout")


def case_uninitialised(dev):
    assert not dist.is_initialized()
    expect_raises(dist.DistributedError, "init()", lambda: dist.all_reduce(loom.ones(2, device=dev)))
    expect_raises(dist.DistributedError, "init()", dist.rank)


def case_ddp(dev):
    """Two or three ranks, each on its share of the batch, end with the parameters of one
    process trained on the whole batch, identical on every rank."""
    from loom import nn, optim
    r, w = dist.rank(), dist.world_size()
    rng = np.random.default_rng(7)
    X = rng.standard_normal((12 * w, 6)).astype("float32")
    y = rng.integers(0, 3, size=12 * w)

    def make(seed):
        loom.random.seed(seed)
        return nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 3)).to(dev)

    def loss_fn(m, xb, yb):
        return nn.losses.cross_entropy(m(xb), yb)

    # The reference: one model (rank 0's initial weights) on the whole batch.
    ref = make(0)
    ref_opt = optim.SGD(learning_rate=0.1)
    vg = nn.value_and_grad(ref, loss_fn)
    Xd, yd = loom.asarray(X, device=dev), loom.asarray(y, device=dev)
    for _ in range(5):
        _, g = vg(ref, Xd, yd)
        ref_opt.update(ref, g)
    # Data parallel: ranks start from different weights; DDP broadcasts rank 0's.
    net = nn.DistributedDataParallel(make(r), bucket_cap_mb=0.0005)  # several buckets
    opt = optim.SGD(learning_rate=0.1)
    step = net.value_and_grad(loss_fn)
    shard = slice(12 * r, 12 * (r + 1))
    xs, ys = loom.asarray(X[shard], device=dev), loom.asarray(y[shard], device=dev)
    for _ in range(5):
        _, g = step(net, xs, ys)
        opt.update(net.module, g)
    for (name, p), (_, q) in zip(net.module.named_parameters(), ref.named_parameters()):
        np.testing.assert_allclose(p.numpy(), q.numpy(), rtol=2e-5, atol=2e-6, err_msg=name)
        everyone = dist.all_gather(p).numpy()
        assert all(np.array_equal(everyone[0], everyone[k]) for k in range(w)), f"{name} differs between ranks"


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}

if __name__ == "__main__":
    case, where = sys.argv[1], sys.argv[2]
    device = loom.cpu() if where == "cpu" else loom.gpu(int(os.environ.get("LOCAL_RANK", "0")))
    if case == "uninitialised":
        CASES[case](device)
        sys.exit(0)
    dist.init(timeout=float(os.environ.get("DIST_TIMEOUT", "60")),
              device=device if where != "cpu" else None)
    CASES[case](device)
    dist.finalize()
