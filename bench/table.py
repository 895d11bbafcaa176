"""The aligned tables the benchmarks in this folder print, and the same tables as data.

When LOOM_BENCH_DATA names a folder (`make bench` sets it), every table printed through
print_rows (or handed to save_table) is also written there as <script>-<n>.json and .csv,
n counting the script's tables; bench/plots.py turns the folder into charts and a page of
the documentation site.
"""
import csv
import json
import os
import pathlib
import sys

_counts = {}


def print_rows(header, lines, title=None):
    """Prints `header` and `lines` (lists of cells) in left-aligned columns, and saves them
    as data when LOOM_BENCH_DATA is set."""
    widths = [max(len(str(x)) for x in col) for col in zip(header, *lines)]
    print("  ".join(str(h).ljust(w) for h, w in zip(header, widths)))
    print("  ".join("-" * w for w in widths))
    for line in lines:
        print("  ".join(str(x).ljust(w) for x, w in zip(line, widths)))
    save_table(header, lines, title)


def _machine():
    """The device the numbers come from: the first GPU's name, else the CPU's."""
    loom = sys.modules.get("loom")
    try:
        if loom is not None and loom.num_gpus() > 0:
            return loom.gpu(0).name
    except Exception:  # a broken driver must not lose the table
        pass
    import platform
    return f"CPU ({platform.processor() or platform.machine()}, {os.cpu_count()} cores)"


def save_table(header, lines, title=None, script=None):
    """Writes one table to $LOOM_BENCH_DATA as JSON (header, rows of strings, title, script,
    machine) and CSV; does nothing when the variable is unset. Returns the JSON path."""
    folder = os.environ.get("LOOM_BENCH_DATA")
    if not folder:
        return None
    script = script or pathlib.Path(sys.argv[0]).stem or "bench"
    _counts[script] = n = _counts.get(script, 0) + 1
    out = pathlib.Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    rows = [[str(x) for x in line] for line in lines]
    data = {"script": f"bench/{script}.py", "index": n, "title": title, "machine": _machine(),
            "header": [str(h) for h in header], "rows": rows}
    path = out / f"{script}-{n}.json"
    path.write_text(json.dumps(data, indent=1) + "\n")
    with open(out / f"{script}-{n}.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(data["header"])
        w.writerows(rows)
    return path
