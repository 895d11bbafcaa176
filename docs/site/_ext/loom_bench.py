"""The benchmarks page shows the latest `make bench` results when they are there.

`make bench` saves every table (bench/table.py) and bench/plots.py writes
benchmarks/results.md and the charts beside it. This extension appends results.md to the
benchmarks page as it is read, so the page builds (without warnings) whether or not a run
has been committed.
"""
import pathlib

_NONE_YET = """
No `make bench` results are in this tree yet. On the GPU machine run `make gpu-build` then
`make bench`, and commit `docs/site/benchmarks/` (the tables as JSON and CSV under `data/`,
the charts and `results.md`).
"""


def _append_results(app, docname, source):
    if docname != "benchmarks":
        return
    results = pathlib.Path(app.srcdir) / "benchmarks" / "results.md"
    text = results.read_text() if results.exists() else ""
    source[0] += "\n" + (text if text.strip() else _NONE_YET)


def setup(app):
    app.connect("source-read", _append_results)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
