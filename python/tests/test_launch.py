"""python -m loom.launch: the variables each rank gets, argument passing, and stopping the job
when a rank fails or the launcher is signalled.

Every launcher runs in a fresh temp folder with a bounded timeout; the ranks report through
files (rank-<RANK>.json, written once their signal handlers are in place), and a fixture kills
any process a test left behind, so a launcher bug fails a test instead of hanging the run.
"""
import json
import os
import signal
import subprocess
import sys
import time

import pytest

import loom
from loom import launch

PKG_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(loom.__file__)))
TIMEOUT = 20  # seconds; a healthy test needs 1 to 3

# One script for every rank; argv: out-folder mode [extra args...]
CHILD = r'''
import json, os, signal, subprocess, sys, time
out, mode = sys.argv[1], sys.argv[2]
rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])

def write(name, data):
    tmp = os.path.join(out, name + ".tmp")
    with open(tmp, "w") as f:
        json.dump(data, f)
    os.replace(tmp, os.path.join(out, name))  # readers never see half a file

def on_term(signum, frame):
    write(f"term-{rank}", signum)
    sys.exit(0)

if mode == "term":
    signal.signal(signal.SIGTERM, on_term)
if mode == "ignore":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
info = {k: os.environ.get(k) for k in ("RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE",
        "NODE_RANK", "MASTER_ADDR", "MASTER_PORT", "LOOM_DEVICE", "NCCL_DEBUG")}
info.update(argv=sys.argv[3:], pid=os.getpid(), name=__name__)
if mode == "fail":  # a grandchild in the rank's process group, which must stop with it
    info["grandchild"] = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"]).pid
write(f"rank-{rank}.json", info)
if mode == "report":
    sys.exit(0)
if rank == 1 and mode in ("fail", "sigkill"):
    deadline = time.monotonic() + 10  # fail only once every rank is up
    while len([n for n in os.listdir(out) if n.startswith("rank-")]) < world:
        if time.monotonic() > deadline:
            break
        time.sleep(0.02)
    if mode == "sigkill":
        os.kill(os.getpid(), signal.SIGKILL)
    sys.exit(3)
time.sleep(60)
'''


def clean_env(**extra):
    """The test run's environment without any launcher's variables (the suite may itself run
    under Slurm or mpirun), with this loom importable from anywhere."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("SLURM_", "OMPI_", "PMI_", "MPI_LOCAL"))
           and k not in ("RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "NODE_RANK",
                         "GROUP_RANK", "MASTER_ADDR", "MASTER_PORT", "LOOM_DEVICE")}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (PKG_ROOT, os.environ.get("PYTHONPATH")) if p)
    env.update(extra)
    return env


def alive(pid):
    """True while pid runs; a zombie (exited, not yet reaped by its adopter) counts as gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


def wait_until(pred, timeout=TIMEOUT):
    deadline = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


class Job:
    """A temp folder with the child script; runs launchers there and reads the ranks' files."""

    def __init__(self, path):
        self.path, self.out = path, path / "out"
        self.out.mkdir()
        (path / "child.py").write_text(CHILD)

    def argv(self, *opts, mode="report", extra=()):
        return [sys.executable, "-m", "loom.launch", *opts, "child.py", str(self.out), mode, *extra]

    def run(self, *opts, mode="report", extra=(), env=None):
        p = self.start(*opts, mode=mode, extra=extra, env=env)
        try:
            p.wait(timeout=TIMEOUT)
        finally:
            p.kill()
        return p

    def start(self, *opts, mode, extra=(), env=None):
        """The launcher, its stderr going to a file (read back with stderr()): a pipe
        held open by a leftover grandchild would turn a launcher bug into a hang."""
        with open(self.path / "stderr.txt", "w") as err:
            p = subprocess.Popen(self.argv(*opts, mode=mode, extra=extra), cwd=self.path,
                                 env=env or clean_env(), stdin=subprocess.DEVNULL,
                                 stdout=subprocess.DEVNULL, stderr=err)
        return p

    def stderr(self):
        return (self.path / "stderr.txt").read_text()

    def ranks(self):
        files = sorted(self.out.glob("rank-*.json"))
        return {int(json.loads(f.read_text())["RANK"]): json.loads(f.read_text()) for f in files}

    def pids(self):
        return [p for r in self.ranks().values() for p in (r["pid"], r.get("grandchild")) if p]

    def wait_ready(self, n):
        assert wait_until(lambda: len(list(self.out.glob("rank-*.json"))) == n), "ranks not up"


@pytest.fixture
def job(tmp_path):
    j = Job(tmp_path)
    yield j
    for pid in j.pids():  # only what this test's ranks reported: never a stranger's process
        if alive(pid):
            os.kill(pid, signal.SIGKILL)


def test_three_ranks_get_distinct_ranks_and_one_rendezvous(job):
    r = job.run("--nproc", "3", env=clean_env(NCCL_DEBUG="INFO"))
    assert r.returncode == 0, job.stderr()
    ranks = job.ranks()
    assert sorted(ranks) == [0, 1, 2]
    assert {v["WORLD_SIZE"] for v in ranks.values()} == {"3"}
    assert {v["LOCAL_WORLD_SIZE"] for v in ranks.values()} == {"3"}
    assert sorted(v["LOCAL_RANK"] for v in ranks.values()) == ["0", "1", "2"]
    assert len({(v["MASTER_ADDR"], v["MASTER_PORT"]) for v in ranks.values()}) == 1
    assert ranks[0]["MASTER_ADDR"] == "127.0.0.1" and 0 < int(ranks[0]["MASTER_PORT"]) < 65536
    assert {v["NCCL_DEBUG"] for v in ranks.values()} == {"INFO"}  # environment inherited
    assert len({v["pid"] for v in ranks.values()}) == 3


def test_second_node_gets_the_upper_ranks(job):
    r = job.run("--nnodes", "2", "--node-rank", "1", "--nproc", "2", "--master-addr", "10.1.2.3")
    assert r.returncode == 0, job.stderr()
    ranks = job.ranks()
    assert sorted(ranks) == [2, 3]
    assert {v["WORLD_SIZE"] for v in ranks.values()} == {"4"}
    assert [ranks[2]["LOCAL_RANK"], ranks[3]["LOCAL_RANK"]] == ["0", "1"]
    assert {(v["NODE_RANK"], v["MASTER_ADDR"], v["MASTER_PORT"]) for v in ranks.values()} == {
        ("1", "10.1.2.3", "29500")}  # several machines: the fixed default port


def test_master_port_from_env(job):
    r = job.run("--nproc", "2", env=clean_env(MASTER_PORT="23456", MASTER_ADDR="h0"))
    assert r.returncode == 0, job.stderr()
    assert {(v["MASTER_ADDR"], v["MASTER_PORT"]) for v in job.ranks().values()} == {("h0", "23456")}


def test_script_arguments_pass_through(job):
    r = job.run("--nproc", "2", extra=("--nproc", "7", "-m", "x y"))
    assert r.returncode == 0, job.stderr()
    assert [v["argv"] for v in job.ranks().values()] == [["--nproc", "7", "-m", "x y"]] * 2


def test_module_mode(job):
    (job.path / "childmod.py").write_text(CHILD)
    argv = [sys.executable, "-m", "loom.launch", "--nproc", "2", "-m", "childmod",
            str(job.out), "report", "--flag"]
    r = subprocess.run(argv, cwd=job.path, env=clean_env(), capture_output=True, text=True,
                       timeout=TIMEOUT)
    assert r.returncode == 0, r.stderr
    ranks = job.ranks()
    assert sorted(ranks) == [0, 1]
    assert {v["name"] for v in ranks.values()} == {"__main__"}
    assert ranks[1]["argv"] == ["--flag"]


def test_failing_rank_stops_the_others(job):
    t0 = time.monotonic()
    r = job.run("--nproc", "3", "--grace", "2", mode="fail")
    assert r.returncode == 3, job.stderr()
    assert time.monotonic() - t0 < 8
    pid1 = job.ranks()[1]["pid"]
    assert f"[loom.launch] rank 1 (pid {pid1}) exited with status 3; " \
           "stopping the other 2 processes" in job.stderr()
    # the sleepers and the sleepers' own children are gone
    assert wait_until(lambda: not any(alive(p) for p in job.pids()), 3), job.pids()


def test_rank_killed_by_signal_gives_137(job):
    r = job.run("--nproc", "2", mode="sigkill")
    assert r.returncode == 137, job.stderr()
    assert "rank 1" in job.stderr() and "status 137 (killed by SIGKILL)" in job.stderr()
    assert not alive(job.ranks()[0]["pid"])


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_signal_to_launcher_reaches_every_rank(job, sig):
    p = job.start("--nproc", "3", mode="term")
    try:
        job.wait_ready(3)
        p.send_signal(sig)
        p.wait(timeout=TIMEOUT)
    finally:
        p.kill()
    err = job.stderr()
    # Chosen: 128+N for signal N, though each rank exited 0 (the job did not complete)
    assert p.returncode == 128 + sig, err
    assert f"got {signal.Signals(sig).name}; forwarding it to 3 processes" in err
    if sig == signal.SIGTERM:  # the ranks' handler writes the file; SIGINT raises in them
        for rank in range(3):
            assert json.loads((job.out / f"term-{rank}").read_text()) == signal.SIGTERM
    assert not any(alive(p) for p in job.pids())


def test_rank_ignoring_sigterm_is_killed_after_grace(job):
    p = job.start("--nproc", "2", "--grace", "0.5", mode="ignore")
    try:
        job.wait_ready(2)
        t0 = time.monotonic()
        p.send_signal(signal.SIGTERM)
        p.wait(timeout=TIMEOUT)
        elapsed = time.monotonic() - t0
    finally:
        p.kill()
    err = job.stderr()
    assert p.returncode == 128 + signal.SIGTERM, err
    assert 0.4 < elapsed < 5, elapsed
    assert "sending SIGKILL to 2 processes" in err
    assert not any(alive(p) for p in job.pids())


def test_bad_arguments_exit_2(job):
    for opts in (["--nproc", "0", "child.py"], ["--nnodes", "2", "--node-rank", "2", "child.py"],
                 [], ["--nproc", "2"], ["missing.py"], ["--master-port", "70000", "child.py"]):
        r = subprocess.run([sys.executable, "-m", "loom.launch", *opts], cwd=job.path,
                           env=clean_env(), capture_output=True, text=True, timeout=TIMEOUT)
        assert r.returncode == 2, (opts, r.stderr)
        assert "usage: python -m loom.launch" in r.stderr
    assert not job.ranks()


@pytest.mark.parametrize("opts", [["--nproc", "x"], ["--nproc", "-1"], ["--nnodes", "0"],
                                  ["--node-rank", "-1"], ["--grace", "-1"], ["--master-port", "0"]])
def test_bad_arguments_in_process(tmp_path, monkeypatch, capsys, opts):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.py").write_text("")
    with pytest.raises(SystemExit) as e:
        launch.main([*opts, "s.py"])
    assert e.value.code == 2
    assert opts[0] in capsys.readouterr().err


def test_nproc_gpu_without_gpus_is_an_error(tmp_path, monkeypatch):
    if loom.num_gpus() > 0:
        pytest.skip("this machine has GPUs")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.py").write_text("")
    with pytest.raises(SystemExit) as e:
        launch.main(["--nproc", "gpu", "s.py"])
    assert e.value.code == 2


def test_slurm_supplies_the_defaults(tmp_path):
    (tmp_path / "s.py").write_text("")
    parser = launch.build_parser()
    env = {"SLURM_NNODES": "2", "SLURM_NODEID": "1", "SLURM_JOB_NODELIST": "node[01-02]"}
    args = parser.parse_args(["--nproc", "2", "--no-bind", str(tmp_path / "s.py")])
    a = launch.resolve(parser, args, env)
    e = launch.child_env(a, 1, {"NCCL_SOCKET_IFNAME": "eth0"})
    assert (e["RANK"], e["WORLD_SIZE"], e["LOCAL_RANK"], e["NODE_RANK"]) == ("3", "4", "1", "1")
    assert (e["MASTER_ADDR"], e["MASTER_PORT"]) == ("node01", "29500")
    assert e["NCCL_SOCKET_IFNAME"] == "eth0" and "LOOM_DEVICE" not in e


def test_device_binding():
    assert launch.device_for(1, 4) == "gpu(1)"
    assert launch.device_for(5, 2) == "gpu(1)"  # fewer GPUs than ranks: shared round-robin
    assert launch.device_for(0, 0) is None


@pytest.mark.parametrize("opts", [["--no-bind"], []])
def test_no_loom_device_without_gpus_or_with_no_bind(job, opts):
    if not opts and loom.num_gpus() > 0:
        pytest.skip("this machine has GPUs: ranks are bound")
    r = job.run("--nproc", "2", *opts)
    assert r.returncode == 0, job.stderr()
    assert [v["LOOM_DEVICE"] for v in job.ranks().values()] == [None, None]
