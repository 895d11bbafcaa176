"""loom.profiler: the summary table, raw events, the Chrome trace, ranges, compiles and
allocations, on every device (GPU runs skip without one)."""
import json
import os
import re
import subprocess
import sys
import textwrap
import threading
import uuid

import numpy as np
import pytest

import loom
from loom import profiler


def _sample_program(device, rng):
    """3 adds, 2 matmuls, one user ElementwiseKernel and one copy; checks every result."""
    an = rng.standard_normal((48, 48)).astype(np.float32)
    bn = rng.standard_normal((48, 48)).astype(np.float32)
    a, b = loom.asarray(an, device=device), loom.asarray(bn, device=device)
    k = loom.ElementwiseKernel("float32 x, float32 y", "float32 z", "z = 2.0f * x - y", "prof_axpy")
    with profiler.profile() as p:
        s = [loom.add(a, b) for _ in range(3)]
        m = [loom.matmul(a, b) for _ in range(2)]
        z = k(a, b)
        host = z.to_device(loom.cpu()) if device != loom.cpu() else z.copy()
    for x in s:
        np.testing.assert_allclose(np.asarray(x.to_device(loom.cpu())), an + bn, rtol=1e-6)
    for x in m:
        np.testing.assert_allclose(np.asarray(x.to_device(loom.cpu())), an @ bn, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(np.asarray(host), 2 * an - bn, rtol=1e-6, atol=1e-6)
    return p


def _rows(p):
    return {r.name: r for r in p.key_averages()}


def test_table_has_each_kernel_with_its_calls(device, rng):
    p = _sample_program(device, rng)
    rows = _rows(p)
    copy_name = "copy DtoH" if device != loom.cpu() else "copy"
    assert rows["add"].calls == 3 and rows["matmul"].calls == 2
    assert rows["prof_axpy"].calls == 1 and rows[copy_name].calls == 1
    assert rows[copy_name].category == "copy" and rows["add"].category == "kernel"
    for name in ("add", "matmul", "prof_axpy", copy_name):
        r = rows[name]
        assert r.device == repr(device)
        assert r.total_us > 0 and r.min_us > 0 and r.min_us <= r.mean_us <= r.max_us
        assert r.mean_us == pytest.approx(r.total_us / r.calls)
    assert sum(r.share for r in rows.values()) == pytest.approx(100.0)
    text = p.table()
    for name in ("add", "matmul", "prof_axpy", copy_name):
        assert any(line.startswith(name + " ") for line in text.splitlines()), text
    # Sorted by total time: the first row is the longest.
    # Names may hold a space ("copy DtoH"): take the longest name the line starts with.
    line = text.splitlines()[3]
    first = max((n for n in rows if line.startswith(n + " ")), key=len)
    assert rows[first].total_us == max(r.total_us for r in rows.values())


def test_table_sorting_and_row_limit(rng):
    p = _sample_program(loom.cpu(), rng)
    by_calls = p.table(sort_by="calls").splitlines()
    assert by_calls[3].startswith("add ")
    limited = p.table(sort_by="cpu_time_total", row_limit=2).splitlines()
    rule = limited[0]
    assert limited.index(rule, 3) == 5  # two rows between the header's rule and the closing one
    assert any("(2 rows not shown)" in line for line in limited)
    names = [line.split()[0] for line in p.table(sort_by="name").splitlines()[3:7]]
    assert names == sorted(names)
    with pytest.raises(ValueError, match="sort_by"):
        p.table(sort_by="bogus")
    with pytest.raises(ValueError, match="row_limit"):
        p.table(row_limit=-1)


def test_events_are_sorted_and_timed(device, rng):
    p = _sample_program(device, rng)
    events = p.events()
    assert [e.start_us for e in events] == sorted(e.start_us for e in events)
    kernels = p.events("kernel")
    assert [e.name for e in kernels].count("add") == 3
    assert all(e.dur_us > 0 and e.start_us >= 0 for e in kernels)
    assert {e.category for e in events} >= {"kernel", "copy", "alloc"}
    with pytest.raises(ValueError, match="category"):
        p.events("bogus")


def test_chrome_trace_parses_with_names_and_categories(device, rng, tmp_path):
    p = _sample_program(device, rng)
    path = tmp_path / "trace.json"
    p.export_chrome_trace(str(path))
    trace = json.loads(path.read_text())["traceEvents"]
    complete = [e for e in trace if e["ph"] == "X"]
    names = [e["name"] for e in complete]
    assert names.count("add") == 3 and names.count("matmul") == 2 and names.count("prof_axpy") == 1
    for e in complete:
        assert e["dur"] >= 0 and e["ts"] >= 0 and isinstance(e["pid"], int) and isinstance(e["tid"], int)
    assert {e["cat"] for e in complete} >= {"kernel", "copy"}
    processes = {e["args"]["name"] for e in trace if e["ph"] == "M" and e["name"] == "process_name"}
    assert {"host", repr(device)} <= processes
    allocs = [e for e in trace if e["ph"] == "i" and e["cat"] == "alloc"]
    assert allocs and all(e["args"]["bytes"] > 0 for e in allocs)
    # Every track that carries events is named.
    named = {(e["pid"], e["tid"]) for e in trace if e["ph"] == "M" and e["name"] == "thread_name"}
    assert {(e["pid"], e["tid"]) for e in complete} <= named


def test_chrome_trace_replaces_a_symbolic_link_instead_of_writing_through_it(rng, tmp_path):
    # In a shared folder someone may leave trace.json as a link to a file of the user's;
    # the export must not overwrite that file.
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    path = tmp_path / "trace.json"
    path.symlink_to(victim)
    with profiler.profile() as p:
        loom.add(loom.asarray(rng.standard_normal(64), device=loom.cpu()), 1.0)
    p.export_chrome_trace(path)
    assert victim.read_text() == "keep me"
    assert not path.is_symlink()
    assert any(e["name"] == "add" for e in json.loads(path.read_text())["traceEvents"])
    assert [f.name for f in tmp_path.iterdir() if f.name.endswith(".tmp")] == []


def test_ranges_nest_and_decorate(rng):
    # On cpu(), where an op runs inside the host's range: a GPU kernel's device timestamps
    # may fall after the range that queued it has ended.
    x = loom.asarray(rng.standard_normal(100), device=loom.cpu())

    @profiler.range("decorated")
    def step(v):
        return loom.multiply(v, 2.0)

    with profiler.profile() as p:
        with profiler.range("outer"):
            with profiler.range("inner"):
                y = loom.add(x, 1.0)
            r = step(y)
    np.testing.assert_allclose(np.asarray(r), (np.asarray(x) + 1.0) * 2.0)
    ranges = {e.name: e for e in p.events("range")}
    assert set(ranges) == {"outer", "inner", "decorated"}
    outer, inner = ranges["outer"], ranges["inner"]
    assert outer.depth == 0 and inner.depth == 1 and ranges["decorated"].depth == 1
    assert outer.start_us <= inner.start_us and inner.start_us + inner.dur_us <= outer.start_us + outer.dur_us
    add = next(e for e in p.events("kernel") if e.name == "add")
    assert inner.start_us <= add.start_us <= inner.start_us + inner.dur_us
    with pytest.raises(TypeError, match="range"):
        profiler.range(3)
    with profiler.range("outside a profile"):  # NVTX only, never an error
        loom.add(x, 1.0)


def test_allocations_carry_sizes(device):
    with profiler.profile() as p:
        a = loom.empty((1000,), dtype=loom.float32, device=device)
        b = loom.empty((37, 3), dtype=loom.int64, device=device)
        del a, b
    allocs = p.events("alloc")
    assert [e.bytes for e in allocs][:2] == [4000, 37 * 3 * 8]
    assert all(e.device == repr(device) for e in allocs)
    frees = sorted(e.bytes for e in p.events("free"))
    assert frees == [888, 4000]
    assert "Allocations: 2" in p.table()


def test_host_data_uploads_are_copies_with_sizes(device, rng):
    xn = rng.standard_normal(100).astype(np.float32)
    with profiler.profile() as p:
        x = loom.array(xn, device=device)
    np.testing.assert_array_equal(np.asarray(x.to_device(loom.cpu())), xn)
    assert [(e.name, e.bytes) for e in p.events("copy")] == [("from_host", 400)]
    assert _rows(p)["from_host"].category == "copy"


def test_compile_of_a_fresh_kernel_is_a_miss(device, rng):
    tag = uuid.uuid4().hex  # a source no cache has seen
    k = loom.ElementwiseKernel("float32 x", "float32 z", f"z = x * 3.0f + 1.0f; /* {tag} */", "prof_fresh")
    xn = rng.standard_normal(64).astype(np.float32)
    x = loom.asarray(xn, device=device)
    with profiler.profile() as p:
        z = k(x)
    np.testing.assert_allclose(np.asarray(z.to_device(loom.cpu())), xn * 3 + 1, rtol=1e-6, atol=1e-6)  # an fma
    compiles = [e for e in p.events("compile") if "prof_fresh" in e.name]
    assert compiles and compiles[0].detail == "miss" and compiles[0].dur_us > 0
    launch = next(e for e in p.events("kernel") if e.name == "prof_fresh")
    assert launch.detail == "user"
    assert re.search(r"Compiles: [1-9][0-9]* compiled", p.table())


def test_compile_cache_hits_are_marked(tmp_path):
    """A second process with the same cache folder reads the kernel back from disk."""
    script = textwrap.dedent(f"""
        import loom
        k = loom.ElementwiseKernel("float32 x", "float32 z", "z = x + 7.0f; /* {uuid.uuid4().hex} */", "prof_hit")
        x = loom.ones(8, dtype=loom.float32)
        with loom.profiler.profile() as p:
            k(x)
        print([e.detail for e in p.events("compile") if "prof_hit" in e.name])
    """)
    env = dict(os.environ, LOOM_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("LOOM_DISABLE_DISK_CACHE", None)
    runs = [subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300)
            for _ in range(2)]
    for r in runs:
        assert r.returncode == 0, r.stderr
    assert runs[0].stdout.strip() == "['miss']"
    assert runs[1].stdout.strip() == "['disk hit']"


def test_nothing_is_recorded_while_off(rng):
    x = loom.asarray(rng.standard_normal(10))
    assert not profiler.is_active()
    loom.add(x, x)
    with profiler.profile() as p:
        assert profiler.is_active()
    assert not profiler.is_active()
    for _ in range(3):
        loom.add(x, x)
    assert p.events() == []
    assert p.key_averages() == []


def test_profiles_do_not_nest_and_results_wait_for_the_end(rng):
    x = loom.asarray(rng.standard_normal(10))
    with profiler.profile() as p:
        with pytest.raises(RuntimeError, match="already active"):
            with profiler.profile():
                pass
        with pytest.raises(RuntimeError, match="still recording"):
            p.table()
        loom.add(x, x)
    assert [e.name for e in p.events("kernel")] == ["add"]
    with pytest.raises(RuntimeError, match="never started"):
        profiler.profile().events()


def test_other_threads_are_recorded_on_their_own_track(rng):
    x = loom.asarray(rng.standard_normal(1000))
    with profiler.profile() as p:
        loom.add(x, x)
        t = threading.Thread(target=lambda: loom.multiply(x, x))
        t.start()
        t.join()
    by_name = {e.name: e for e in p.events("kernel")}
    assert by_name["add"].thread != by_name["multiply"].thread


def test_fused_jit_kernel_is_recorded(device, rng):
    f = loom.jit(lambda v: loom.sin(v) * 2.0 + 1.0)
    xn = rng.standard_normal(256).astype(np.float32)
    x = loom.asarray(xn, device=device)
    f(x)
    with profiler.profile() as p:
        y = f(x)
    np.testing.assert_allclose(np.asarray(y.to_device(loom.cpu())), np.sin(xn) * 2 + 1, rtol=1e-5, atol=1e-6)
    # One fused kernel (on a GPU, while its compile runs in the background, its ops may run
    # one by one inside it).
    assert [e.name for e in p.events("kernel")].count("fused[sin,multiply,add]") == 1


@pytest.mark.gpu
def test_gpu_streams_get_their_own_tracks(gpu, rng, tmp_path):
    xn = rng.standard_normal(1 << 16).astype(np.float32)
    x = loom.asarray(xn, device=gpu)
    s = loom.Stream(gpu, non_blocking=True)
    with profiler.profile() as p:
        y = loom.add(x, x)
        with s:
            z = loom.multiply(x, x)
        s.synchronize()
    np.testing.assert_allclose(np.asarray(y.to_device(loom.cpu())), xn + xn)
    np.testing.assert_allclose(np.asarray(z.to_device(loom.cpu())), xn * xn, rtol=1e-6)
    by_name = {e.name: e for e in p.events("kernel")}
    assert by_name["add"].stream != by_name["multiply"].stream
    p.export_chrome_trace(str(tmp_path / "t.json"))
    trace = json.loads((tmp_path / "t.json").read_text())["traceEvents"]
    tids = {e["tid"] for e in trace if e["ph"] == "X" and e["name"] in ("add", "multiply")}
    assert len(tids) == 2


@pytest.mark.gpu
def test_every_gpu_lands_on_one_timeline(rng):
    devices = [loom.gpu(i) for i in range(loom.num_gpus())]
    xs = [loom.asarray(rng.standard_normal(1 << 12), device=d) for d in devices]
    with profiler.profile() as p:
        for x in xs:
            loom.add(x, x)
    adds = [e for e in p.events("kernel") if e.name == "add"]
    assert sorted(e.device for e in adds) == sorted(repr(d) for d in devices)
    # Issued one after another on the host: device times follow the host's order.
    assert [e.device for e in adds] == [repr(d) for d in devices]
