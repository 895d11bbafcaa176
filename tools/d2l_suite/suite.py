"""Runs the d2l sections scope.txt names, each in a fresh process (run_section.py) with the
shim on the path, and writes one JSON object a line: {section, title, verdict, cells, ran,
failed: [{cell, error}], out, val_acc, epochs, stand_in_data, seconds}. verdict: runs (every
cell in scope ran), fails, or out (scope.txt leaves the whole section out).

  python suite.py --book D2L_DIR --report REPORT [SECTION...]
"""
import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

here = Path(__file__).resolve().parent
sys.path.insert(0, str(here))
from extract import cells  # noqa: E402


def _gpus():
    """GPUs this machine has (loom's count, in a child process: the harness imports no loom)."""
    global _GPUS
    if _GPUS is None:
        out = subprocess.run([sys.executable, "-c", "import loom; print(loom.num_gpus())"], capture_output=True,
                             text=True)
        _GPUS = int(out.stdout.strip() or 0) if out.returncode == 0 else 0
    return _GPUS


_GPUS = None


def read_scope(path):
    """sections: [(path, title)]; out_cells: {(path, n): reason}; out_sections: {path: reason};
    book: {path: (metric, value)} (the accuracy the book prints, where it prints one)."""
    sections, out_cells, out_sections, book = [], {}, {}, {}
    for line in Path(path).read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        kind, rest = line.split(None, 1)
        target, _, reason = rest.partition(" ")
        reason = reason.strip()
        if kind == "section":
            sections.append((target, reason))
        elif kind == "out-section":
            sections.append((target, reason))
            out_sections[target] = reason
        elif kind == "book-acc":
            book[target] = float(reason.split()[0])
        elif kind in ("out", "gpus"):
            if kind == "gpus":
                count, _, reason = reason.partition(" ")
                if _gpus() >= int(count):
                    continue
                reason = f"needs {count} GPUs, this machine has {_gpus()}: {reason.strip()}"
            page, _, nums = target.partition("#")
            for part in nums.split(","):
                lo, _, hi = part.partition("-")
                for n in range(int(lo), int(hi or lo) + 1):
                    out_cells[(page, n)] = reason
    return sections, out_cells, out_sections, book


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--book", required=True)
    ap.add_argument("--report", required=True)
    ap.add_argument("--scope", default=str(here / "scope.txt"))
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--reference", action="store_true",
                    help="run under real PyTorch and the book's d2l library (ref_shim/), for reference accuracies")
    ap.add_argument("sections", nargs="*")
    a = ap.parse_args()
    report = Path(a.report)
    report.parent.mkdir(parents=True, exist_ok=True)
    work = report.parent / "work"
    work.mkdir(exist_ok=True)
    sections, out_cells, out_sections, book = read_scope(a.scope)
    env = dict(os.environ, D2L_DIR=str(Path(a.book).resolve()), PYTHONHASHSEED="0", MPLBACKEND="Agg")
    env["PYTHONPATH"] = os.pathsep.join([str(here / ("ref_shim" if a.reference else "shim")),
                                         env.get("PYTHONPATH", "")])
    rows = []
    for sec, title in sections:
        if a.sections and not any(sec.endswith(s) or Path(sec).stem == s for s in a.sections):
            continue
        row = {"section": sec, "title": title}
        if sec in out_sections:
            rows.append(dict(row, verdict="out", reason=out_sections[sec]))
            continue
        n_cells = len(cells(Path(a.book) / sec))
        skip = sorted(n for (p, n) in out_cells if p == sec)
        row["out_reasons"] = sorted({out_cells[(sec, n)] for n in skip})
        out_json = work / (sec.replace("/", "__") + ".json")
        print(f"== {sec} ({title})", flush=True)
        t0 = time.time()
        proc = subprocess.run([a.python, str(here / "run_section.py"), str(Path(a.book) / sec), str(out_json),
                               "--skip", ",".join(map(str, skip))], env=env, cwd=work,
                              capture_output=True, text=True)
        seconds = round(time.time() - t0, 1)
        if proc.returncode != 0 or not out_json.exists():
            err = (proc.stderr.strip().splitlines() or ["(no output)"])[-1][:300]
            rows.append(dict(row, verdict="fails", cells=n_cells, ran=0, out=len(skip), seconds=seconds,
                             failed=[{"cell": 0, "error": f"the section's process died: {err}"}]))
            continue
        res = json.loads(out_json.read_text())
        recs = res["cells"]
        failed = [{"cell": r["cell"], "error": f"{r['exc_type']}: {r['exc_msg']}"} for r in recs
                  if r["status"] == "raised"]
        ran = sum(r["status"] == "ok" for r in recs)
        accs = [r for r in recs if "val_acc" in r]
        row.update(verdict="fails" if failed else "runs", cells=n_cells, ran=ran, out=len(skip), failed=failed,
                   seconds=seconds, stand_in_data=res.get("stand_in_data"))
        if accs:
            row.update(val_acc=accs[-1]["val_acc"], epochs=accs[-1]["epochs"])
        row["full"] = not (os.environ.get("D2L_SUITE_MAX_EPOCHS") or os.environ.get("D2L_SUITE_MAX_BATCHES"))
        if sec in book:
            row["book_acc"] = book[sec]
        rows.append(row)
        print(f"   {row['verdict']}: {ran}/{n_cells - len(skip)} cells" +
              "".join(f"\n   cell {f['cell']}: {f['error'][:200]}" for f in failed), flush=True)
    report.write_text("".join(json.dumps(r) + "\n" for r in rows))


if __name__ == "__main__":
    main()
