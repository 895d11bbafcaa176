"""Charts and a documentation page from the benchmark tables that `make bench` saved.

    python bench/plots.py [--data docs/site/benchmarks/data] [--out docs/site/benchmarks]

Reads every <script>-<n>.json that bench/table.py wrote (LOOM_BENCH_DATA), and writes for
each table with a loom column and at least one other library a PNG: per case, loom's speed
relative to each other library (above 1: loom is faster; a time is compared as its
inverse, a rate such as GB/s as it is). It also writes results.md, the tables and charts
that the site's benchmarks page includes (its image links are relative to the page,
which sits beside the output folder).
"""
import argparse
import json
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]
# Columns that are derived from the others or say whether a target was met: not libraries.
_NOT_A_LIBRARY = re.compile(r"vs|/|target|met|faster|speed|>=|ratio|unit|case", re.I)
# A rate (GB/s, GFLOP/s, samples/s) is better higher; anything else (ms, us) is a time.
_RATE_UNIT = re.compile(r"/s(ec)?$|per s(ec(ond)?)?$|FLOP", re.I)


def number(cell):
    """A cell's value as a float, or None for 'n/a', '', '-', text."""
    try:
        return float(str(cell).replace(",", "").strip())
    except ValueError:
        return None


def loom_column(header):
    """The column loom's own numbers are in: 'loom', else 'loom jit', else the first
    column that starts with 'loom'; None when there is none."""
    names = [h.lower() for h in header]
    for want in ("loom", "loom jit", "loom warm"):
        if want in names:
            return names.index(want)
    return next((i for i, h in enumerate(names) if h.startswith("loom")), None)


def unit_of(table, row):
    """The row's unit: its 'unit' cell, else the one in the first header, '(ms)'."""
    header = table["header"]
    if "unit" in header:
        return row[header.index("unit")]
    m = re.search(r"\(([^)]*)\)", header[0])
    return m.group(1) if m else ""


def higher_is_better(unit):
    return bool(_RATE_UNIT.search(unit.strip()))


def speedups(table):
    """{library: [(case, loom's speed relative to it), ...]} over the rows where both have a
    number; a library column is any numeric column that is not loom's or derived."""
    header, rows = table["header"], table["rows"]
    mine = loom_column(header)
    if mine is None:
        return {}
    libs = [i for i, h in enumerate(header)
            if i != mine and i > 0 and not _NOT_A_LIBRARY.search(h) and not h.lower().startswith("loom")]
    out = {}
    for i in libs:
        pairs = []
        for row in rows:
            a, b = number(row[mine]), number(row[i])
            if a and b and a > 0 and b > 0:
                pairs.append((row[0], a / b if higher_is_better(unit_of(table, row)) else b / a))
        if pairs:
            out[header[i]] = pairs
    return out


def plot(table, path):
    """One horizontal grouped bar chart of speedups(table) on a log axis; False when the
    table has nothing to compare."""
    data = speedups(table)
    if not data:
        return False
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker
    cases = []
    for pairs in data.values():
        cases += [c for c, _ in pairs if c not in cases]
    height = 0.8 / len(data)
    fig, ax = plt.subplots(figsize=(8, 0.45 * len(cases) * max(1, len(data) / 2) + 1.2))
    for k, (lib, pairs) in enumerate(data.items()):
        values = dict(pairs)
        ys = [j + k * height for j, c in enumerate(cases) if c in values]
        vs = [values[c] for c in cases if c in values]
        # Bars grow from 1 (parity) to the value, right for faster, left for slower.
        ax.barh(ys, [v - 1.0 for v in vs], left=1.0, height=height, label=f"vs {lib}")
    ax.set_yticks([j + height * (len(data) - 1) / 2 for j in range(len(cases))])
    ax.set_yticklabels(cases, fontsize=8)
    ax.invert_yaxis()
    ax.set_xscale("log")
    span = max(max(v, 1.0 / v) for pairs in data.values() for _, v in pairs) * 1.15
    ax.set_xlim(1.0 / span, span)
    ticks = [t for t in (0.1, 0.2, 0.5, 0.8, 1, 1.25, 2, 5, 10) if 1.0 / span <= t <= span]
    ax.set_xticks(ticks)
    ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}x"))
    ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_xlabel("loom's speed relative to the other library (> 1: loom is faster)")
    ax.set_title(title_of(table), fontsize=10)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


def title_of(table):
    t = table.get("title") or f"table {table['index']}"
    return f"{table['script']}: {t} ({table['machine']})"


def markdown_table(header, rows):
    esc = lambda c: str(c).replace("|", "\\|")  # noqa: E731
    lines = ["| " + " | ".join(esc(h) for h in header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(esc(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def load(data_dir):
    """The saved tables, by script then table number."""
    tables = [json.loads(p.read_text()) for p in pathlib.Path(data_dir).glob("*.json")]
    return sorted(tables, key=lambda t: (t["script"], t["index"]))


def write_all(data_dir, out_dir):
    """Writes one PNG per comparable table and results.md into out_dir; returns the paths."""
    out_dir = pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    for old in out_dir.glob("*.png"):
        old.unlink()
    written, parts = [], []
    try:
        import matplotlib  # noqa: F401
        can_plot = True
    except ImportError:  # a GPU machine's python3 without it: the tables still come out
        can_plot = False
        print("bench/plots.py: no matplotlib here: tables only, no charts")
    for table in load(data_dir):
        name = f"{pathlib.Path(table['script']).stem}-{table['index']}"
        parts.append(f"### {title_of(table)}\n\n{markdown_table(table['header'], table['rows'])}\n")
        png = out_dir / f"{name}.png"
        if can_plot and plot(table, png):
            written.append(png)
            parts.append(f"![{name}]({out_dir.name}/{png.name})\n")
    results = out_dir / "results.md"
    results.write_text("\n".join(parts) if parts else "")
    return written + [results]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(ROOT / "docs" / "site" / "benchmarks" / "data"))
    ap.add_argument("--out", default=str(ROOT / "docs" / "site" / "benchmarks"))
    args = ap.parse_args()
    paths = write_all(args.data, args.out)
    print(f"bench/plots.py: {len(paths) - 1} chart(s) and results.md in {args.out}")


if __name__ == "__main__":
    main()
