"""`python -m loom top`: the NVML wrapper against a fake library, its absence, the monitor's
cpu() row against /proc and loom's allocator, the command's frames and JSON; on a GPU, the
GPU rows against nvidia-smi (another NVML reader) and loom's own pool."""
import json
import os
import shutil
import subprocess
import sys
import time

import pytest

import loom
from loom.monitor import _nvml, _top
from loom.monitor import _sampler as _monitor

from fake_nvml import FakeNvml

TESTS = os.path.dirname(os.path.abspath(__file__))
PY_ROOT = os.path.dirname(TESTS)


def run_loom(*args, timeout=120):
    env = dict(os.environ, PYTHONPATH=PY_ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "loom", *args], capture_output=True, text=True,
                          timeout=timeout, env=env)


def gpu_rows(frame):
    return [d for d in frame["devices"] if d["kind"] == "cuda"]


# ---- the NVML wrapper ------------------------------------------------------------------
def test_monitor_reads_every_field_of_a_fake_nvml():
    fake = FakeNvml(n_gpus=3)
    mon = _monitor.Monitor(nvml=_nvml.Nvml(fake), warmup=0.01)
    t0 = time.time()
    step = [123_456_789, 987_654]  # KiB the NVLink counters move between the two readings
    real_fv = fake.nvmlDeviceGetFieldValues

    def moving_fv(h, n, fields):  # each reading returns the counters, then they advance
        rc = real_fv(h, n, fields)
        g = fake._gpu(h)
        g["nvlink_kib"] = [g["nvlink_kib"][0] + step[0], g["nvlink_kib"][1] + step[1]]
        return rc

    fake.nvmlDeviceGetFieldValues = moving_fv
    frame = mon.sample()
    elapsed = time.time() - t0
    assert frame["gpu_note"] is None and frame["driver"] == "999.12.34"
    rows = gpu_rows(frame)
    assert [r["nvml_index"] for r in rows] == [0, 1, 2]
    for r, g in zip(rows, fake.gpus):
        assert r["device"] == f"nvml:{r['nvml_index']}" and r["index"] is None  # no CUDA mapping
        assert (r["name"], r["uuid"]) == (g["name"], g["uuid"])
        assert (r["utilization"], r["memory_utilization"]) == g["util"]
        assert (r["memory_total"], r["memory_used"]) == g["mem"]
        assert r["temperature"] == g["temp"]
        assert r["power"] == pytest.approx(g["power_mw"] / 1000) and r["power_limit"] == 700.0
        assert (r["pcie_tx"], r["pcie_rx"]) == (g["pcie_kb"][0] * 1024, g["pcie_kb"][1] * 1024)
        # A rate over the time between the readings: at least the bytes over the elapsed time.
        assert step[0] * 1024 / elapsed <= r["nvlink_tx"] <= step[0] * 1024 / 0.01
        assert step[1] * 1024 / elapsed <= r["nvlink_rx"] <= step[1] * 1024 / 0.01
        assert r["pool"] is None
    expected = sorted((pid, used, f"nvml:{i}") for i, g in enumerate(fake.gpus) for pid, used in g["procs"])
    got = sorted((p["pid"], p["gpu_memory"], p["device"]) for p in frame["processes"])
    assert got == expected
    mon.close()
    mon.close()
    assert fake.shutdowns == 1


def test_gpus_without_nvlink_or_processes():
    fake = FakeNvml(n_gpus=1, nvlink=False)
    fake.gpus[0]["procs"] = []
    with _nvml.Nvml(fake) as nv:
        h = nv.handle(0)
        assert nv.nvlink_counters(h) is None
        assert nv.processes(h) == []
        frame = _monitor.Monitor(nvml=nv, warmup=0).sample()
    r = gpu_rows(frame)[0]
    assert r["nvlink_tx"] is None and r["nvlink_rx"] is None
    text = _top.render(frame)
    assert "NVLink tx/rx -" in text and "no processes on the GPUs" in text


def test_missing_functions_and_failed_init_degrade():
    fake = FakeNvml(n_gpus=1)
    del fake.gpus[0]["procs"][:]
    with _nvml.Nvml(fake) as nv:
        fake.nvmlDeviceGetTemperature = None  # an old driver lacks a query: None, not an error
        assert nv.temperature(nv.handle(0)) is None
        assert nv.memory(nv.handle(0)) == fake.gpus[0]["mem"][::-1]
    with pytest.raises(_nvml.NvmlUnavailable, match="nvmlInit_v2 failed: Driver Not Loaded"):
        _nvml.Nvml(FakeNvml(init_rc=9))


def test_absent_library_says_why():
    with pytest.raises(_nvml.NvmlUnavailable, match="NVML not found.*libnvidia-ml-absent"):
        _nvml.load_library("libnvidia-ml-absent.so.1")


def test_monitor_without_nvml_shows_cpu_and_the_reason(monkeypatch):
    def absent():
        raise _nvml.NvmlUnavailable("NVML not found (test)")

    monkeypatch.setattr(_nvml.Nvml, "open", staticmethod(absent))
    mon = _monitor.Monitor(warmup=0.01)
    frame = mon.sample()
    assert frame["gpu_note"] == "NVML not found (test)"
    assert [d["device"] for d in frame["devices"]] == ["cpu"] and frame["processes"] == []
    text = _top.render(frame)
    assert "no GPU rows: NVML not found (test)" in text and "PID" not in text


# ---- the cpu() row --------------------------------------------------------------------
def _meminfo_total():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) * 1024


@pytest.mark.skipif(not os.path.exists("/proc/stat"), reason="needs Linux's /proc")
def test_cpu_row_against_proc_and_loom_allocator():
    x = loom.ones((3, 1 << 17), dtype=loom.float64, device=loom.cpu())  # 3 MiB in loom's host memory
    mon = _monitor.Monitor(warmup=0.05)
    cpu = mon.sample()["devices"][0]
    expected = loom.memory.stats(loom.cpu())
    mon.close()
    assert cpu["device"] == "cpu" and cpu["kind"] == "cpu" and f"({os.cpu_count()} CPUs)" in cpu["name"]
    assert 0.0 <= cpu["utilization"] <= 100.0
    assert cpu["memory_total"] == _meminfo_total() and 0 < cpu["memory_used"] < cpu["memory_total"]
    assert cpu["pool"]["in_use"] == expected["in_use"] >= x.nbytes
    assert cpu["pool"]["cached"] == expected["cached"] and cpu["pool"]["peak"] == expected["peak"]
    del x


def test_stats_if_used_matches_stats_on_cpu():
    y = loom.zeros(12345, device=loom.cpu())
    s, t = loom._loom.memory._stats_if_used(loom.cpu()), loom.memory.stats(loom.cpu())
    assert s == t and s["in_use"] >= y.nbytes


def test_formatting():
    assert _top.fmt_bytes(None) == "-" and _top.fmt_bytes(512) == "512 B"
    assert _top.fmt_bytes(3 * 2**30 + 2**29) == "3.5 GiB" and _top.fmt_rate(2048) == "2.0 KiB/s"


# ---- the command ------------------------------------------------------------------------
def test_top_once_prints_one_plain_frame():
    r = run_loom("top", "--once")
    assert r.returncode == 0, r.stderr
    assert "\x1b[" not in r.stdout  # not a terminal: no escape codes
    assert r.stdout.count("loom top ") == 1
    lines = r.stdout.splitlines()
    assert any(line.startswith("cpu ") for line in lines) and "loom pool" in r.stdout
    if loom.num_gpus() == 0:
        assert "no GPU rows: " in r.stdout or "gpu(" in r.stdout or "nvml:" in r.stdout


def test_top_json_document():
    before = time.time()
    r = run_loom("top", "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert before <= doc["timestamp"] <= time.time()
    assert set(doc) >= {"timestamp", "devices", "processes", "gpu_note", "host"}
    cpu = doc["devices"][0]
    assert cpu["device"] == "cpu" and cpu["memory_total"] > 0 and cpu["pool"]["in_use"] >= 0
    assert (doc["gpu_note"] is None) == bool(gpu_rows(doc))


def test_top_count_frames_and_bad_interval():
    r = run_loom("top", "--count", "2", "--interval", "0.05")
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("loom top ") == 2
    bad = run_loom("top", "--interval", "0")
    assert bad.returncode == 2 and "--interval: must be > 0" in bad.stderr
    assert run_loom("nonsense").returncode == 2


# ---- on a GPU -----------------------------------------------------------------------------
def _smi(query):
    out = subprocess.run(["nvidia-smi", f"--query-gpu={query}", "--format=csv,noheader,nounits"],
                         capture_output=True, text=True, timeout=60, check=True).stdout
    return [[v.strip() for v in line.split(",")] for line in out.strip().splitlines()]


@pytest.mark.gpu
def test_gpu_rows_match_nvidia_smi(gpu):
    if shutil.which("nvidia-smi") is None:
        pytest.skip("nvidia-smi not found: no second NVML reader to compare with")
    r = run_loom("top", "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    rows = gpu_rows(doc)
    smi = _smi("index,name,memory.total,temperature.gpu,power.limit,uuid")
    assert doc["gpu_note"] is None and len(rows) == len(smi)
    for row in rows:
        idx, name, total_mib, temp, plimit, uuid = smi[row["nvml_index"]]
        assert row["name"] == name and row["uuid"] == uuid
        # nvidia-smi's MiB may be the _v2 query's total (less the driver's reservation).
        assert abs(row["memory_total"] / 2**20 - int(total_mib)) <= 0.02 * int(total_mib)
        assert abs(row["temperature"] - int(temp)) <= 5
        if row["power_limit"] is not None and plimit not in ("[N/A]", "[Not Supported]"):
            assert row["power_limit"] == pytest.approx(float(plimit), abs=1)
        assert 0 <= row["utilization"] <= 100 and 0 < row["memory_used"] <= row["memory_total"]
        assert row["pcie_tx"] is None or row["pcie_tx"] >= 0
    # loom numbers GPUs as CUDA does; each visible one maps to an NVML row.
    assert sorted(r["index"] for r in rows if r["index"] is not None) == list(range(loom.num_gpus()))


@pytest.mark.gpu
def test_gpu_pool_of_this_process(gpu):
    # _stats_if_used creates no allocator: a fresh process that never allocates sees None.
    code = "import loom; print(loom._loom.memory._stats_if_used(loom.gpu(0)))"
    env = dict(os.environ, PYTHONPATH=PY_ROOT)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert out.stdout.strip() == "None", out.stderr
    x = loom.ones(1 << 24, dtype=loom.float32, device=gpu)  # 64 MiB
    mon = _monitor.Monitor(warmup=0.01)
    frame = mon.sample()
    mon.close()
    row = next(r for r in gpu_rows(frame) if r["index"] == 0)
    expected = loom.memory.stats(gpu)
    assert row["pool"]["in_use"] == expected["in_use"] >= x.nbytes
    assert row["name"] == gpu.name


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs a pseudo-terminal")
def test_live_view_on_a_terminal_stops_cleanly_on_ctrl_c():
    import pty
    import select
    import signal

    pid, fd = pty.fork()
    if pid == 0:  # the child: loom top on the pseudo-terminal
        os.environ["PYTHONPATH"] = PY_ROOT
        # a run started in the background of a non-interactive shell ignores SIGINT, and an
        # ignored signal stays so across exec: give the child Ctrl-C's default
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.execv(sys.executable, [sys.executable, "-m", "loom", "top", "--interval", "0.1"])
    out = b""

    def read_for(seconds, until=None):
        nonlocal out
        end = time.time() + seconds
        while time.time() < end and not (until and until(out)):
            if select.select([fd], [], [], 0.1)[0]:
                try:
                    out += os.read(fd, 1 << 16)
                except OSError:  # the child closed the terminal
                    return

    read_for(60, until=lambda b: b.count(b"\x1b[H") >= 3)  # three frames redrawn in place
    os.kill(pid, signal.SIGINT)
    read_for(10)
    status = os.waitpid(pid, 0)[1]
    os.close(fd)
    assert out.count(b"\x1b[H") >= 3 and out.startswith(b"\x1b[?25l")  # cursor hidden
    assert out.rstrip().endswith(b"\x1b[?25h")  # and shown again on the way out
    assert b"Traceback" not in out and os.waitstatus_to_exitcode(status) == 0
