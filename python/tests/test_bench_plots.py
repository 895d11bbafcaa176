"""bench/table.py saves each printed table as data when LOOM_BENCH_DATA is set, and
bench/plots.py turns saved tables into charts and the site's results page."""
import json
import pathlib
import sys

import pytest

BENCH = pathlib.Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))
import plots  # noqa: E402
import table  # noqa: E402


def test_print_rows_saves_json_and_csv_only_when_asked(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("LOOM_BENCH_DATA", raising=False)
    table.print_rows(["case", "unit", "loom"], [["a", "ms", "1.0"]])
    assert "case" in capsys.readouterr().out and not list(tmp_path.iterdir())
    monkeypatch.setenv("LOOM_BENCH_DATA", str(tmp_path))
    table._counts.clear()
    table.print_rows(["case", "unit", "loom", "CuPy"], [["sum", "ms", 1.5, "3.0"]], title="t1", )
    table.save_table(["case", "loom"], [["x", "2"]], script="ops")
    first = json.loads((tmp_path / f"{pathlib.Path(sys.argv[0]).stem}-1.json").read_text())
    assert first["header"] == ["case", "unit", "loom", "CuPy"] and first["rows"] == [["sum", "ms", "1.5", "3.0"]]
    assert first["title"] == "t1" and first["machine"]
    assert (tmp_path / "ops-1.csv").read_text().splitlines() == ["case,loom", "x,2"]


def _table(header, rows, script="ops", index=1):
    return {"script": f"bench/{script}.py", "index": index, "title": None, "machine": "test",
            "header": header, "rows": rows}


def test_speedups_invert_times_keep_rates_and_skip_derived_columns():
    t = _table(["case", "unit", "loom", "CuPy", "PyTorch", "loom/best peer", "target", "met"],
               [["sum", "ms", "2.0", "4.0", "1.0", "0.50x", "1", "NO"],
                ["copy", "GB/s", "300", "150", "n/a", "2.00x", "", ""],
                ["none", "ms", "n/a", "1.0", "1.0", "", "", ""]])
    s = plots.speedups(t)
    assert s == {"CuPy": [("sum", 2.0), ("copy", 2.0)], "PyTorch": [("sum", 0.5)]}
    # A unit in the first header; "loom jit" is loom's column and "loom eager" not a peer.
    t = _table(["case (ms)", "loom eager", "loom jit", "JAX jit"], [["step", "9", "3", "6"]])
    assert plots.speedups(t) == {"JAX jit": [("step", 2.0)]}
    assert plots.speedups(_table(["case", "prefetch=0", "prefetch=2"], [["a", "1", "2"]])) == {}
    assert plots.higher_is_better("GB/s") and not plots.higher_is_better("us")
    assert not plots.higher_is_better("us/step")


def test_write_all_makes_pngs_and_the_results_page(tmp_path):
    pytest.importorskip("matplotlib")
    data, out = tmp_path / "data", tmp_path / "benchmarks"
    data.mkdir()
    t1 = _table(["case", "unit", "loom", "CuPy"], [["sum", "ms", "2.0", "4.0"], ["a|b", "ms", "1", "1"]])
    t2 = _table(["case", "prefetch=0", "prefetch=2"], [["x", "1", "2"]], script="nn", index=2)
    (data / "ops-1.json").write_text(json.dumps(t1))
    (data / "nn-2.json").write_text(json.dumps(t2))
    (out).mkdir()
    (out / "stale.png").write_bytes(b"old")
    paths = plots.write_all(data, out)
    assert sorted(p.name for p in paths) == ["ops-1.png", "results.md"]
    assert (out / "ops-1.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and not (out / "stale.png").exists()
    page = (out / "results.md").read_text()
    assert page.index("bench/nn.py") < page.index("bench/ops.py")     # by script, then number
    assert "| a\\|b | ms | 1 | 1 |" in page and "![ops-1](benchmarks/ops-1.png)" in page
    assert "nn-2.png" not in page
