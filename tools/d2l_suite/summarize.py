"""Reads the d2l harness's report (suite.py: one JSON object a line) and prints per section the
cells in scope, those that ran, those left out, the verdict (runs: every cell in scope ran),
the last validation accuracy of a section that trained (and the epochs it ran), and, where
scope.txt gives the book's printed accuracy and the section ran the book's epochs on the real
Fashion-MNIST, whether it is within a point of it (with --reference, of PyTorch's on the same
data); then the share of sections in scope that run, and the failures by their cause in known_failures.txt. A failing section not listed
there is new (exit status 1); a listed one that runs now is reported so the list can shrink.

  python summarize.py REPORT [--known tools/d2l_suite/known_failures.txt] [--markdown] [--reference REF]
"""
import argparse
import json
import sys
from pathlib import Path

here = Path(__file__).resolve().parent
sys.path.insert(0, str(here.parent / "jax_docs_suite"))
from summarize import read_known  # noqa: E402  (the same file format: a cause, then its ids)


def accuracy(r, ref=None):
    """(shown accuracy, comparison) of one section's row; ref: the same section's row of a
    reference run (real PyTorch and the book's library on the same data, suite.py --reference)."""
    if "val_acc" not in r:
        return "", ""
    acc = f"{r['val_acc']:.3f} ({r['epochs']} ep)"
    if ref is not None and "val_acc" in ref:
        if ref.get("epochs") != r.get("epochs") or ref.get("full") != r.get("full"):
            return acc, f"PyTorch {ref['val_acc']:.3f} ({ref.get('epochs')} ep): not the same run"
        ok = abs(r["val_acc"] - ref["val_acc"]) <= 0.01
        return acc, f"PyTorch {ref['val_acc']:.3f}: {'within' if ok else 'NOT within'} a point"
    if r.get("stand_in_data"):
        return acc, "not compared: stand-in data"
    if "book_acc" not in r:
        return acc, "the book prints none"
    if not r.get("full"):
        return acc, "not compared: capped run"
    ok = abs(r["val_acc"] - r["book_acc"]) <= 0.01
    return acc, f"{'within' if ok else 'NOT within'} a point of {r['book_acc']:.3f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("report")
    ap.add_argument("--known", default=str(here / "known_failures.txt"))
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--reference", help="a report of suite.py --reference (real PyTorch on the same data)")
    a = ap.parse_args()
    rows = [json.loads(line) for line in Path(a.report).read_text().splitlines() if line.strip()]
    refs = {}
    if a.reference:
        for line in Path(a.reference).read_text().splitlines():
            if line.strip():
                r = json.loads(line)
                refs[r["section"]] = r
    known = read_known(a.known)
    scoped = [r for r in rows if r["verdict"] != "out"]
    runs = [r for r in scoped if r["verdict"] == "runs"]
    if a.markdown:
        print("| section | cells in scope | ran | left out | verdict | val acc (epochs) | accuracy vs the book |")
        print("|---|---|---|---|---|---|---|")
    else:
        print(f"{'section':62} {'scope':>5} {'ran':>4} {'out':>4}  {'verdict':8} accuracy")
    for r in rows:
        name = r["section"].replace("chapter_", "")
        if r["verdict"] == "out":
            line = ("| {} | - | - | all | out | | {} |" if a.markdown else "{:62}     -    -  all  out      {}")
            print(line.format(name, r["reason"][:90]))
            continue
        inscope = r["cells"] - r["out"]
        acc, cmp_ = accuracy(r, refs.get(r["section"]))
        if a.markdown:
            print(f"| {name} | {inscope} | {r['ran']} | {r['out']} | {r['verdict']} | {acc} | {cmp_} |")
        else:
            print(f"{name:62} {inscope:5} {r['ran']:4} {r['out']:4}  {r['verdict']:8} {acc} {cmp_}")
    rate = 100.0 * len(runs) / max(len(scoped), 1)
    print(f"\n{len(runs)}/{len(scoped)} = {rate:.1f} % of the sections in scope run "
          f"({len(rows) - len(scoped)} section(s) left out)")
    outs = {}
    for r in scoped:
        for reason in r.get("out_reasons", []):
            outs.setdefault(reason, []).append(r["section"])
    if outs:
        print("\nCells left out, by reason:")
        for reason, secs in outs.items():
            print(f"  {reason[:140]}\n      {', '.join(s.split('/')[-1] for s in secs)}")
    failing = [r for r in scoped if r["verdict"] != "runs"]
    by_cause, new = {}, []
    for r in failing:
        for f in r["failed"]:
            cid = f"{r['section']}#{f['cell']}"
            (by_cause.setdefault(known[cid], []) if cid in known else new).append((cid, f["error"]))
    if by_cause:
        print("\nKnown failures by cause (cells):")
        for cause, items in sorted(by_cause.items(), key=lambda kv: -len(kv[1])):
            print(f"  {len(items):3}  {cause[:150]}")
            for cid, err in items:
                print(f"         {cid}: {err[:110]}")
    ran = {f"{r['section']}#{n}" for r in scoped for n in range(1, r["cells"] + 1)
           if all(f["cell"] != n for f in r.get("failed", []))}
    fixed = sorted(k for k in known if k in ran)
    if fixed:
        print("\nListed in known_failures.txt but run now (remove them):")
        for k in fixed:
            print(f"  {k}")
    if new:
        print("\nNew failures (not in known_failures.txt):")
        for cid, err in new:
            print(f"  {cid}: {err[:160]}")
        sys.exit(1)


if __name__ == "__main__":
    main()
