"""dask.array over loom chunks (python/loom/dask_backend.py, docs/site/guide/dask.md): from_array,
map_blocks and the "loom" backend make loom chunks; elementwise ops, reductions, matmul and
rechunk keep them; compute() returns a loom array on the chunks' device. The threaded scheduler
on every device, and one local cluster of two worker processes. Skipped where Dask is not
installed (requirements-dev.txt pins it; the GPU machine has none)."""
import os
import subprocess
import sys

import numpy as np
import pytest

da = pytest.importorskip("dask.array", reason="dask is not installed (requirements-dev.txt pins dask[array])")
import dask  # noqa: E402

import loom  # noqa: E402
import loom.dask_backend as ldb  # noqa: E402

from conftest import assert_matches, random_array  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(autouse=True)
def threads():
    with dask.config.set(scheduler="threads"):
        yield


def lo(host, device, chunks):
    """A dask array over loom chunks of `host` on `device`."""
    return da.from_array(loom.asarray(host, device=device), chunks=chunks)


def check_loom_chunks(x, device):
    assert isinstance(x._meta, loom.ndarray) and x._meta.device == device and x._meta.size == 0
    for block in x.to_delayed().ravel()[:2]:
        b = block.compute()
        assert isinstance(b, loom.ndarray) and b.device == device


def test_from_array_keeps_loom_chunks_and_compute_returns_loom(device, rng):
    host = random_array(rng, (9, 7), "float32")
    x = lo(host, device, (4, 3))
    assert x.chunks == ((4, 4, 1), (3, 3, 1)) and x.dtype == np.float32
    assert "loom" in repr(x)
    check_loom_chunks(x, device)
    assert_matches(x.compute(), host, device=device, exact=True)
    assert_matches(x[2:8, ::2].compute(), host[2:8, ::2], device=device, exact=True)
    assert_matches(x.T.compute(), host.T, device=device, exact=True)


def test_map_blocks_makes_loom_chunks_from_numpy_chunks(device, rng):
    host = random_array(rng, (8, 6), "float64")
    x = da.from_array(host, chunks=(3, 4)).map_blocks(loom.asarray, device=device,
                                                      meta=loom.empty((0, 0), device=device))
    check_loom_chunks(x, device)
    y = x.map_blocks(lambda b: loom.exp(b) * 2)
    check_loom_chunks(y, device)
    assert_matches(y.compute(), np.exp(host) * 2, device=device)


def test_elementwise(device, rng):
    a, b = random_array(rng, (10, 6), "float64"), random_array(rng, (10, 6), "float64", 1, 4)
    x, y = lo(a, device, (4, 3)), lo(b, device, (5, 2))
    assert_matches((x * 2 + y / 3 - 1).compute(), a * 2 + b / 3 - 1, device=device)
    assert_matches(np.sin(x).compute(), np.sin(a), device=device)
    assert_matches(da.sqrt(y).compute(), np.sqrt(b), device=device)
    assert_matches(da.where(x > 0, x, -y).compute(), np.where(a > 0, a, -b), device=device)
    assert_matches((x < y).compute(), a < b, device=device)
    row = random_array(rng, (6,), "float64")
    assert_matches((x + row).compute(), a + row, device=device)     # a NumPy operand: broadcast, copied
    assert_matches(x.astype(np.float32).compute(), a.astype(np.float32), device=device)


@pytest.mark.parametrize("name", ["sum", "mean", "std", "var", "min", "max", "prod"])
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
def test_reductions(device, rng, name, axis):
    host = random_array(rng, (11, 7), "float64", 0.5, 1.5)
    x = lo(host, device, (4, 3))
    got = getattr(x, name)(axis=axis).compute()
    assert_matches(got, getattr(np, name)(host, axis=axis), device=device, rtol=1e-10)
    kept = getattr(x, name)(axis=axis, keepdims=True).compute()
    assert_matches(kept, getattr(np, name)(host, axis=axis, keepdims=True), device=device, rtol=1e-10)


def test_integer_reductions_and_arg_and_nan_reductions(device, rng):
    ints = random_array(rng, (9, 5), "int32", -50, 50)
    x = lo(ints, device, (4, 2))
    assert_matches(x.sum(axis=0).compute(), ints.sum(axis=0), device=device)
    assert_matches(x.max().compute(), ints.max(), device=device)
    assert_matches(x.argmax(axis=0).compute(), ints.argmax(axis=0), device=device)
    assert_matches(x.mean(axis=1).compute(), ints.mean(axis=1), device=device)
    host = random_array(rng, (9, 5), "float64", 0.5, 1.5)  # positive: chunked sums never cancel
    host[rng.random(host.shape) < 0.2] = np.nan
    y = lo(host, device, (4, 2))
    assert_matches(da.nansum(y, axis=0).compute(), np.nansum(host, axis=0), device=device)
    assert_matches(da.nanmean(y, axis=1).compute(), np.nanmean(host, axis=1), device=device)
    assert_matches(da.nanmax(y).compute(), np.nanmax(host), device=device)


def test_matmul_tensordot_einsum(device, rng):
    # Positive operands: Dask's chunked sums never cancel, so rtol holds for every entry.
    a, b = random_array(rng, (12, 9), "float64", 0.5, 1.5), random_array(rng, (9, 5), "float64", 0.5, 1.5)
    x, y = lo(a, device, (5, 4)), lo(b, device, (3, 5))   # contraction chunks differ: Dask aligns them
    assert_matches((x @ y).compute(), a @ b, device=device, rtol=1e-10)
    assert_matches(da.matmul(x, y).compute(), a @ b, device=device, rtol=1e-10)
    assert_matches(da.dot(x, y).compute(), a @ b, device=device, rtol=1e-10)
    assert_matches(da.tensordot(x, x, axes=([0], [0])).compute(), np.tensordot(a, a, axes=([0], [0])),
                   device=device, rtol=1e-10)
    assert_matches(da.einsum("ij,ij->i", x, x).compute(), np.einsum("ij,ij->i", a, a), device=device, rtol=1e-10)
    assert_matches((x @ y).sum(axis=0).compute(), (a @ b).sum(axis=0), device=device, rtol=1e-10)


def test_rechunk_and_concatenate(device, rng):
    host = random_array(rng, (10, 8), "float32")
    x = lo(host, device, (3, 3))
    r = x.rechunk((5, 8))
    assert r.chunks == ((5, 5), (8,))
    check_loom_chunks(r, device)
    assert_matches(r.compute(), host, device=device, exact=True)
    # float32 partial sums in Dask's order: the error scales with the sum of magnitudes.
    got = x.rechunk({0: 10, 1: 2}).sum(axis=1).compute()
    assert got.dtype == np.float32 and got.device == device
    assert np.all(np.abs(got.numpy() - host.astype(np.float64).sum(axis=1)) <= 1e-6 * np.abs(host).sum(axis=1))
    assert_matches(da.concatenate([x, x], axis=1).compute(), np.concatenate([host, host], axis=1), device=device)
    assert_matches(da.stack([x, x]).compute(), np.stack([host, host]), device=device, exact=True)


def test_percentile_as_dask_computes_it_for_numpy(device, rng):
    host = random_array(rng, (40,), "float64")
    got = da.percentile(lo(host, device, 9), [10, 50, 90]).compute()
    want = da.percentile(da.from_array(host, chunks=9), [10, 50, 90]).compute()
    assert_matches(got, want, device=device)


def test_backend_creation_functions(device):
    with dask.config.set({"array.backend": "loom"}):
        x = da.ones((6, 4), chunks=(4, 3), dtype="float32", device=device)
        f = da.full((5,), 2.5, chunks=2, device=device)
        r = da.arange(0, 11, 2, chunks=2, device=device)
        z = da.zeros((3, 3), chunks=2)
    check_loom_chunks(x, device)
    assert_matches(x.compute(), np.ones((6, 4), np.float32), device=device)
    assert_matches(f.compute(), np.full(5, 2.5), device=device)
    assert_matches(r.compute(), np.arange(0, 11, 2), device=device)
    assert_matches(z.compute(), np.zeros((3, 3)), device=loom.default_device())


def test_backend_random_makes_loom_chunks_and_repeats(device):
    with dask.config.set({"array.backend": "loom"}):
        g = da.random.default_rng(7).standard_normal((300, 40), chunks=(100, 20), device=device)
        again = da.random.default_rng(7).standard_normal((300, 40), chunks=(100, 20), device=device)
        legacy = da.random.RandomState(3).uniform(2, 5, (50, 6), chunks=(20, 3))
        legacy_fn = da.random.random((4, 4), chunks=2)
    check_loom_chunks(g, device)
    a = g.compute()
    assert_matches(again.compute(), a.numpy(), device=device, exact=True)
    assert abs(float(g.mean().compute())) < 0.1 and abs(float(g.std().compute()) - 1) < 0.1
    u = legacy.compute()
    assert isinstance(u, loom.ndarray) and 2 <= float(u.min()) and float(u.max()) < 5
    assert isinstance(legacy_fn.compute(), loom.ndarray)


def test_to_backend_both_ways(device, rng):
    host = random_array(rng, (6, 5), "float64")
    x = da.from_array(host, chunks=3).to_backend("loom", device=device)
    check_loom_chunks(x, device)
    assert_matches(x.compute(), host, device=device, exact=True)
    back = x.to_backend("numpy")
    assert type(back._meta) is np.ndarray
    np.testing.assert_array_equal(back.compute(), host)


def test_sizeof_and_tokens(device, rng):
    from dask.base import tokenize
    from dask.sizeof import sizeof
    host = random_array(rng, (32, 8), "float64")
    x = loom.asarray(host, device=device)
    assert sizeof(x) == x.nbytes == host.nbytes
    assert tokenize(x) == tokenize(loom.asarray(host.copy(), device=device))     # the data decides
    assert tokenize(x) != tokenize(x + 1) and tokenize(loom.float32) != tokenize(loom.float64)
    assert tokenize(x) != tokenize(loom.asarray(host.astype(np.float32), device=device))


def test_registration_is_once_and_lazy():
    from dask.array.backends import array_creation_dispatch
    from dask.array.chunk_types import _HANDLED_CHUNK_TYPES
    ldb.register()
    assert _HANDLED_CHUNK_TYPES.count(loom.ndarray) == 1
    assert isinstance(array_creation_dispatch.dispatch("loom"), ldb.LoomBackendEntrypoint)
    assert "loom.dask_backend" in dask.config.get("distributed.worker.preload")
    assert dask.config.get("distributed.nanny.pre-spawn-environ.LOOM_NUM_THREADS") == 1
    # import loom alone imports no Dask.
    code = "import sys, loom; loom.ones(2); print(any(m == 'dask' or m.startswith('dask.') for m in sys.modules))"
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert out.stdout.strip() == "False"


def test_the_entry_point_names_the_backend_class():
    text = open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8").read()
    assert '[project.entry-points."dask.array.backends"]\nloom = "loom.dask_backend:LoomBackendEntrypoint"' in text
    import importlib.metadata
    ep = importlib.metadata.EntryPoint("loom", "loom.dask_backend:LoomBackendEntrypoint", "dask.array.backends")
    assert ep.load() is ldb.LoomBackendEntrypoint


def test_local_cluster_of_two_worker_processes(rng):
    distributed = pytest.importorskip("distributed", reason="distributed is not installed")
    a, b = random_array(rng, (120, 80), "float64", 0.5, 1.5), random_array(rng, (80, 60), "float64", 0.5, 1.5)
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        x, y = da.from_array(loom.asarray(a), chunks=(40, 40)), da.from_array(loom.asarray(b), chunks=(40, 30))
        got = (x @ y).sum(axis=0).compute()                           # chunks pickled to and from workers
        assert_matches(got, (a @ b).sum(axis=0), device=loom.default_device(), rtol=1e-10)
        assert_matches(x.std(axis=1).compute(), a.std(axis=1), device=loom.default_device())
        with dask.config.set({"array.backend": "loom"}):
            g = da.random.default_rng(1).random((200, 50), chunks=(50, 50))
        assert isinstance(g.mean(axis=0).compute(), loom.ndarray)
        workers = client.run(lambda: (os.getpid(), "loom.dask_backend" in sys.modules,
                                      os.environ.get("LOOM_NUM_THREADS")))
        assert len({pid for pid, _, _ in workers.values()} - {os.getpid()}) == 2   # two other processes
        assert all(imported for _, imported, _ in workers.values())       # preloaded: sizeof, dispatches
        assert all(threads == "1" for _, _, threads in workers.values())  # one loom thread per worker thread
        doubled = client.submit(lambda v: v * 2, loom.asarray(a[0])).result()
        assert_matches(doubled, a[0] * 2, device=loom.default_device())
