"""Reads the JAX documentation harness's report (suite.py: one JSON object a line) and prints
per page the cells in scope, those that run (no unexpected error; a cell JAX shows raising
runs when loom raises too) and those that agree with JAX's printed results, the overall rate,
and the failures grouped by their cause in known_failures.txt; a failure not listed there is
new (exit status 1), and a listed cell that now agrees is reported so the list can shrink.

  python summarize.py REPORT [--known tools/jax_docs_suite/known_failures.txt] [--markdown]
"""
import argparse
import json
import sys
from pathlib import Path

here = Path(__file__).resolve().parent


def read_known(path):
    """{cell id: cause}: the cause is the comment block above a group of ids; the file's
    header (its first comment block) is no cause."""
    lines = Path(path).read_text().splitlines()
    n = 0
    while n < len(lines) and lines[n].startswith("#"):
        n += 1
    out, cause, prev_id = {}, [], False
    for line in lines[n:]:
        if line.startswith("#"):
            if prev_id:
                cause, prev_id = [], False
            cause.append(line.lstrip("# ").strip())
        elif line.strip():
            out[line.strip()] = " ".join(cause)
            prev_id = True
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("report")
    ap.add_argument("--known", default=str(here / "known_failures.txt"))
    ap.add_argument("--markdown", action="store_true", help="the per-page table as Markdown")
    a = ap.parse_args()
    rows = [json.loads(line) for line in Path(a.report).read_text().splitlines() if line.strip()]
    known = read_known(a.known)
    pages = {}
    for r in rows:
        p = pages.setdefault(r["page"], {"scope": 0, "run": 0, "agree": 0, "out": 0})
        if r["verdict"] == "out":
            p["out"] += 1
            continue
        p["scope"] += 1
        p["run"] += r["verdict"] in ("agree", "differs")
        p["agree"] += r["verdict"] == "agree"
    total = {k: sum(p[k] for p in pages.values()) for k in ("scope", "run", "agree", "out")}
    if a.markdown:
        print("| page | cells in scope | run | agree with JAX | left out |")
        print("|---|---|---|---|---|")
        for page, p in pages.items():
            print(f"| {page} | {p['scope']} | {p['run']} | {p['agree']} | {p['out']} |")
        print(f"| **all** | {total['scope']} | {total['run']} | {total['agree']} | {total['out']} |")
    else:
        print(f"{'page':58} {'scope':>5} {'run':>5} {'agree':>5} {'out':>4}")
        for page, p in pages.items():
            print(f"{page:58} {p['scope']:5} {p['run']:5} {p['agree']:5} {p['out']:4}")
        print(f"{'all':58} {total['scope']:5} {total['run']:5} {total['agree']:5} {total['out']:4}")
    rate = 100.0 * total["agree"] / max(total["scope"], 1)
    print(f"\n{total['agree']}/{total['scope']} = {rate:.1f} % of the cells in scope agree with JAX "
          f"({100.0 * total['run'] / max(total['scope'], 1):.1f} % run)")
    failing = [r for r in rows if r["verdict"] not in ("agree", "out")]
    by_cause = {}
    new = []
    for r in failing:
        cid = f"{r['page']}#{r['cell']}"
        if cid in known:
            by_cause.setdefault(known[cid], []).append(r)
        else:
            new.append(r)
    if by_cause:
        print("\nKnown failures by cause (cells):")
        for cause, rs in sorted(by_cause.items(), key=lambda kv: -len(kv[1])):
            print(f"  {len(rs):3}  {cause[:150]}")
            for r in rs:
                print(f"         {r['page']}#{r['cell']} {r['verdict']}: {r['reason'][:110]}")
    agreeing = {f"{r['page']}#{r['cell']}" for r in rows if r["verdict"] == "agree"}
    fixed = sorted(k for k in known if k in agreeing)
    if fixed:
        print("\nListed in known_failures.txt but agree now (remove them):")
        for k in fixed:
            print(f"  {k}")
    if new:
        print("\nNew failures (not in known_failures.txt):")
        for r in new:
            print(f"  {r['page']}#{r['cell']} {r['verdict']}: {r['reason'][:160]}")
        sys.exit(1)


if __name__ == "__main__":
    main()
