"""loom.profiler's names and shapes: jit's fused kernels named by the ops they fuse, the input
shapes in the table and grouped by them (PyTorch's group_by_input_shape), and
`python -m loom profile script.py` (on every device; GPU runs skip without one)."""
import json
import os
import subprocess
import sys
import textwrap

import numpy as np

import loom
from loom import profiler


def _profiled_jit(device, rng, shapes):
    f = loom.jit(lambda v: loom.exp(v * 2.0 + 1.0))
    g = loom.jit(lambda v: loom.sqrt(loom.sum(loom.exp(v))))
    xs = [loom.asarray(rng.standard_normal(s).astype(np.float32), device=device) for s in shapes]
    for x in xs:
        f(x), g(x)  # compiled before the profile
    with profiler.profile() as p:
        for x in xs:
            f(x).block_until_ready(), g(x).block_until_ready()
    return p


def test_fused_kernels_are_named_by_their_ops(device, rng):
    p = _profiled_jit(device, rng, [(64,)])
    names = [e.name for e in p.events("kernel")]
    assert "fused[multiply,add,exp]" in names, names
    assert "fused_reduce[exp,sum,sqrt]" in names, names
    assert "fused" not in names and "fused_reduce" not in names
    fused = next(e for e in p.events("kernel") if e.name.startswith("fused["))
    assert fused.detail == "elementwise"


def test_table_shows_input_shapes_and_groups_by_them(device, rng):
    p = _profiled_jit(device, rng, [(64,), (8, 16), (8, 16)])
    text = p.table()
    assert "Input shapes" in text.splitlines()[1]
    row = next(line for line in text.splitlines() if line.startswith("fused[multiply,add,exp]"))
    assert "(2 shapes)" in row and " 3 " in row, text
    rows = [r for r in p.key_averages(group_by_input_shape=True) if r.name == "fused[multiply,add,exp]"]
    assert sorted((r.shapes, r.calls) for r in rows) == [("[64]", 1), ("[8, 16]", 2)]
    grouped = p.table(group_by_input_shape=True)
    lines = [line for line in grouped.splitlines() if line.startswith("fused[multiply,add,exp]")]
    assert len(lines) == 2 and any("[8, 16]" in line for line in lines), grouped


def test_ops_record_every_input_shape(device, rng):
    # The shapes the kernel receives: a broadcast operand counts with its broadcast shape.
    a = loom.asarray(rng.standard_normal((3, 4)).astype(np.float32), device=device)
    b = loom.asarray(rng.standard_normal((4,)).astype(np.float32), device=device)
    with profiler.profile() as p:
        loom.add(a, b).block_until_ready()
        loom.sum(a, axis=1).block_until_ready()
    shapes = {e.name: e.shapes for e in p.events("kernel")}
    assert shapes["add"] == "[3, 4], [3, 4]" and shapes["sum"] == "[3, 4]", shapes


def test_python_m_loom_profile_runs_a_script(tmp_path):
    script = tmp_path / "work.py"
    script.write_text(textwrap.dedent("""
        import sys
        import loom
        x = loom.ones((32, 8), device=loom.cpu())
        y = loom.jit(lambda v: loom.tanh(v) + 1.0)(x)
        assert sys.argv[1:] == ["--n", "3"], sys.argv
        print("script done", float(y.sum()))
    """))
    trace = tmp_path / "out.json"
    env = dict(os.environ, LOOM_DEVICE="cpu")
    r = subprocess.run([sys.executable, "-m", "loom", "profile", "--trace", str(trace), str(script), "--n", "3"],
                       capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "script done" in r.stdout
    assert "fused[tanh,add]" in r.stdout and "Input shapes" in r.stdout, r.stdout
    events = json.loads(trace.read_text())["traceEvents"]
    assert any(e.get("name") == "fused[tanh,add]" and e["args"].get("input_shapes") == "[32, 8]" for e in events)


def test_python_m_loom_profile_keeps_the_scripts_exit_status(tmp_path):
    script = tmp_path / "fails.py"
    script.write_text("import loom\nloom.ones(4, device=loom.cpu()) + 1\nraise SystemExit(3)\n")
    r = subprocess.run([sys.executable, "-m", "loom", "profile", str(script)], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 3
    assert "Total:" in r.stdout  # the table is printed all the same
