"""loom.distributed: every collective with 2 and 3 processes under loom.launch, on cpu()
(Gloo) here and on GPUs (NCCL) where the machine has as many; the argument checks raising on
every rank; a hung rank making the others raise; the single-process group.

Each test launches dist_worker.py with a bounded timeout; a rank's failed check fails the job.
"""
import os
import re
import subprocess
import sys
import time

import numpy as np
import pytest

import loom
import loom.distributed as dist

HERE = os.path.dirname(os.path.abspath(__file__))
PKG_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(loom.__file__)))
WORKER = os.path.join(HERE, "dist_worker.py")

needs_gloo = pytest.mark.skipif(not dist.backends()["gloo"], reason="loom was built without Gloo (libgloo-dev)")


def launch(nproc, case, where, timeout=120, env=None):
    e = dict(os.environ, PYTHONPATH=PKG_ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""), **(env or {}))
    e.pop("LOOM_DEVICE", None)
    cmd = [sys.executable, "-m", "loom.launch", "--nproc", str(nproc), "--grace", "2"]
    if where == "cpu":
        cmd.append("--no-bind")
    t0 = time.monotonic()
    p = subprocess.run(cmd + [WORKER, case, where], env=e, capture_output=True, text=True, timeout=timeout)
    return p, time.monotonic() - t0


def gpu_params(n):
    ok = loom.num_gpus() >= n and "nccl " in dist.backends()["nccl"]
    why = f"needs {n} GPUs and NCCL (have {loom.num_gpus()} GPUs; {dist.backends()['nccl']})"
    return pytest.param("gpu", marks=pytest.mark.skipif(not ok, reason=why))


def where_params(n):
    return [pytest.param("cpu", marks=needs_gloo), gpu_params(n)]


@pytest.mark.parametrize("nproc", [2, 3])
@pytest.mark.parametrize("where", ["cpu", "gpu"])
def test_every_collective_matches_numpy(nproc, where):
    if where == "cpu" and not dist.backends()["gloo"]:
        pytest.skip("loom was built without Gloo (libgloo-dev)")
    if where == "gpu" and not (loom.num_gpus() >= nproc and "nccl " in dist.backends()["nccl"]):
        pytest.skip(f"needs {nproc} GPUs and NCCL")
    p, _ = launch(nproc, "collectives", where)
    assert p.returncode == 0, p.stdout + p.stderr


@pytest.mark.parametrize("where", where_params(2))
def test_mismatched_arguments_raise_on_every_rank(where):
    p, _ = launch(2, "errors", where)
    assert p.returncode == 0, p.stdout + p.stderr


@pytest.mark.parametrize("where", where_params(2))
def test_a_hung_rank_makes_the_others_raise(where):
    p, took = launch(2, "hang", where, env={"DIST_TIMEOUT": "2"})
    # rank 0 raised DistributedTimeoutError and exited 3; the launcher stopped the sleeper
    assert p.returncode == 3, p.stdout + p.stderr
    assert "raised after" in p.stdout and "did not arrive" in p.stdout, p.stdout + p.stderr
    assert took < 30, took


@pytest.mark.parametrize("nproc", [2, 3])
def test_data_parallel_equals_one_process_on_the_whole_batch(nproc):
    if not dist.backends()["gloo"]:
        pytest.skip("loom was built without Gloo (libgloo-dev)")
    p, _ = launch(nproc, "ddp", "cpu")
    assert p.returncode == 0, p.stdout + p.stderr


@pytest.mark.parametrize("where", [gpu_params(2)])
def test_data_parallel_on_gpus(where):
    p, _ = launch(2, "ddp", where)
    assert p.returncode == 0, p.stdout + p.stderr


def free_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("where", where_params(2))
@pytest.mark.parametrize("case", ["collectives", "ddp"])
def test_two_launchers_as_two_machines(where, case):
    """--nnodes 2: one launcher per "machine" (here both on the loopback, one process each;
    on GPUs each machine sees one GPU of its own), one rendezvous at node 0's address."""
    e = dict(os.environ, PYTHONPATH=PKG_ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    e.pop("LOOM_DEVICE", None)
    port = str(free_port())
    procs = []
    for node in (0, 1):
        cmd = [sys.executable, "-m", "loom.launch", "--nnodes", "2", "--node-rank", str(node), "--nproc", "1",
               "--master-addr", "127.0.0.1", "--master-port", port, "--grace", "2"]
        env = dict(e)
        if where == "cpu":
            cmd.append("--no-bind")
        else:
            env["CUDA_VISIBLE_DEVICES"] = str(node)
        procs.append(subprocess.Popen(cmd + [WORKER, case, where], env=env, stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, text=True))
    outs = []
    try:
        for p in procs:
            outs.append(p.communicate(timeout=120)[0])
    finally:
        for p in procs:
            p.kill()
    for node, (p, out) in enumerate(zip(procs, outs)):
        assert p.returncode == 0, f"node {node}:\n{out}"


@needs_gloo
def test_example_trains_under_the_launcher():
    example = os.path.join(os.path.dirname(os.path.dirname(HERE)), "examples", "distributed_train.py")
    e = dict(os.environ, PYTHONPATH=PKG_ROOT)
    e.pop("LOOM_DEVICE", None)
    p = subprocess.run([sys.executable, "-m", "loom.launch", "--nproc", "2", "--no-bind", example, "--cpu",
                        "--steps", "60"], env=e, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    # Two processes share the pipe: find the reports wherever their lines interleave.
    reports = re.findall(r"rank (\d)/2 on cpu\(\): loss [\d.]+, accuracy ([\d.]+), parameters identical on every "
                         r"rank: (True|False)", p.stdout)
    assert sorted(r[0] for r in reports) == ["0", "1"], p.stdout
    assert all(r[2] == "True" and float(r[1]) > 0.9 for r in reports), p.stdout


def test_collectives_before_init_raise():
    p, _ = launch(1, "uninitialised", "cpu")
    assert p.returncode == 0, p.stdout + p.stderr


def test_single_process_group_runs_without_peers(monkeypatch):
    for var in ("RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "MASTER_PORT"):
        monkeypatch.delenv(var, raising=False)
    dist.init(master_port=0, device=None)
    try:
        assert (dist.rank(), dist.world_size(), dist.local_rank()) == (0, 1, 0)
        x = loom.asarray(np.arange(6.0))
        assert dist.all_reduce(x) is x and np.array_equal(x.numpy(), np.arange(6.0))
        np.testing.assert_array_equal(dist.all_gather(x).numpy(), np.arange(6.0)[None])
        np.testing.assert_array_equal(dist.reduce_scatter(x).numpy(), np.arange(6.0))
        with pytest.raises(dist.DistributedError, match="already initialised"):
            dist.init(master_port=0)
    finally:
        dist.finalize()
    assert not dist.is_initialized()


def test_errors_are_typed():
    assert issubclass(dist.DistributedTimeoutError, dist.DistributedError)
    assert issubclass(dist.DistributedTimeoutError, TimeoutError)
    assert issubclass(dist.DistributedError, RuntimeError)
    with pytest.raises(ValueError, match="backend must be"):
        dist.init(backend="mpi", world_size=1, rank=0, master_port=0)
    with pytest.raises(ValueError, match="rank must be a rank"):
        dist.init(world_size=2, rank=2, master_port=0)


def _device_group_devices(where):
    return [loom.cpu()] * 3 if where == "cpu" else [loom.gpu(0), loom.gpu(1)]


@pytest.mark.parametrize("where", ["cpu", pytest.param("gpu", marks=pytest.mark.skipif(
    loom.num_gpus() < 2, reason="needs 2 GPUs"))])
def test_device_group_reduces_and_broadcasts_across_devices(where):
    devs = _device_group_devices(where)
    g = dist.DeviceGroup(devs)
    assert g.devices == devs
    if where == "gpu":
        assert g.uses_nccl == ("nccl " in dist.backends()["nccl"])
    rng = np.random.default_rng(5)
    for dtype, op in [("float32", "sum"), ("float64", "avg"), ("int32", "max"), ("int64", "prod"), ("float32", "min")]:
        data = [rng.integers(1, 5, size=(4, 3)).astype(dtype) for _ in devs]
        want = {"sum": np.sum, "avg": np.mean, "max": np.max, "prod": np.prod, "min": np.min}[op](np.stack(data), axis=0)
        xs = [loom.asarray(a, device=d) for a, d in zip(data, devs)]  # on cpu(), views of `data`
        assert g.all_reduce(xs, op=op) is xs
        for x, d in zip(xs, devs):
            assert x.device == d
            np.testing.assert_allclose(x.numpy(), want.astype(dtype), rtol=1e-6)
    # Complex: sum and avg (NCCL reduces the real and imaginary parts).
    data = [(rng.random((3, 2)) + 1j * rng.random((3, 2))).astype("complex64") for _ in devs]
    xs = [loom.asarray(a, device=d).copy() for a, d in zip(data, devs)]
    g.all_reduce(xs, op="avg")
    for x in xs:
        np.testing.assert_allclose(x.numpy(), np.mean(np.stack(data), axis=0), rtol=1e-6)
    xs = [loom.asarray(np.full(5, i, dtype="float32"), device=d) for i, d in enumerate(devs)]
    g.broadcast(xs, root=1)
    assert all((x.numpy() == 1).all() for x in xs)


def test_device_group_errors():
    c = loom.cpu()
    g = dist.DeviceGroup([c, c])
    with pytest.raises(ValueError, match="one array per device"):
        g.all_reduce([loom.ones(2, device=c)])
    with pytest.raises(ValueError, match="differs from array 0"):
        g.all_reduce([loom.ones(2, device=c), loom.ones(3, device=c)])
    with pytest.raises(TypeError, match="floating"):
        g.all_reduce([loom.ones(2, dtype="int32", device=c)] * 2, op="avg")
    with pytest.raises(TypeError, match="'sum' or 'avg' only"):
        g.all_reduce([loom.ones(2, dtype="complex64", device=c)] * 2, op="prod")
    with pytest.raises(ValueError, match="root must be"):
        g.broadcast([loom.ones(2, device=c)] * 2, root=2)
    with pytest.raises(ValueError, match="at least one device"):
        dist.DeviceGroup([])
