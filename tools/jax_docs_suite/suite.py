"""Runs the JAX documentation pages scope.txt names under loom (the shim's `jax`) and under
real JAX, compares them cell by cell and writes one JSON object a line:
{page, cell, verdict, reason}. verdict: agree (ran, and printed what JAX printed or raised
where JAX raises), differs (ran, printed otherwise), raised (raised where JAX does not), ran-on
(JAX raises here, loom did not), out (scope.txt leaves it out, with its reason).

  python suite.py --docs JAX_DIR/docs --report REPORT [--ref-python PY] [--ref-dir DIR] [PAGE...]

--ref-python: an interpreter with real JAX installed; the reference outputs are written to
--ref-dir (kept, so later runs can leave --ref-python out and read them).
"""
import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

here = Path(__file__).resolve().parent
sys.path.insert(0, str(here))
from compare import comparable, differs  # noqa: E402


def read_scope(path):
    """pages: [(path, title)]; cells: {(page, n): (kind, reason)}, kind 'out' or 'runs-only'."""
    pages, cells = [], {}
    for line in Path(path).read_text().splitlines():
        line = line.split(" #", 1)[0].rstrip() if not line.startswith("#") else ""
        if not line.strip():
            continue
        kind, rest = line.split(None, 1)
        target, _, reason = rest.partition(" ")
        if kind == "page":
            pages.append((target, reason.strip()))
        else:
            page, _, nums = target.partition("#")
            for part in nums.split(","):
                lo, _, hi = part.partition("-")
                for n in range(int(lo), int(hi or lo) + 1):
                    cells[(page, n)] = (kind, reason.strip())
    return pages, cells


def run_page(python, page_path, out, shim):
    env = dict(os.environ, JAX_PLATFORMS="cpu", PYTHONHASHSEED="0")
    if shim:
        env["PYTHONPATH"] = os.pathsep.join([str(here / "shim"), env.get("PYTHONPATH", "")])
    else:
        env.pop("PYTHONPATH", None)
    subprocess.run([python, str(here / "run_cells.py"), str(page_path), str(out)], env=env,
                   check=True, stdout=subprocess.DEVNULL if not shim else None)
    return json.loads(Path(out).read_text())


def verdict(ref, got, kind):
    expect_raise = ref["status"] == "raised"
    if got["status"] == "raised" and not expect_raise:
        return "raised", f"{got['exc_type']}: {got['exc_msg']}"
    if expect_raise:
        if got["status"] == "raised":
            return "agree", f"raises as JAX does ({got['exc_type']}; JAX: {ref['exc_type']})"
        return "ran-on", f"runs where JAX raises {ref['exc_type']}: {ref['exc_msg']}"
    if kind == "runs-only":
        return "agree", "runs (output not compared)"
    ref_text = (ref["stdout"] or "") + "\n" + (ref["display"] or "")
    got_text = (got["stdout"] or "") + "\n" + (got["display"] or "")
    if not comparable(ref_text):
        return "agree", "runs (JAX's output holds no numbers)"
    why = differs(ref_text, got_text)
    return ("differs", why) if why else ("agree", "")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--docs", required=True)
    ap.add_argument("--report", required=True)
    ap.add_argument("--scope", default=str(here / "scope.txt"))
    ap.add_argument("--ref-python")
    ap.add_argument("--ref-dir")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("pages", nargs="*")
    a = ap.parse_args()
    report = Path(a.report)
    report.parent.mkdir(parents=True, exist_ok=True)
    ref_dir = Path(a.ref_dir or report.parent / "jax_reference")
    ref_dir.mkdir(parents=True, exist_ok=True)
    pages, scoped = read_scope(a.scope)
    lines = []
    for page, title in pages:
        if a.pages and not any(page.endswith(p) or Path(page).stem == p for p in a.pages):
            continue
        stem = Path(page).stem
        ref_json = ref_dir / f"{stem}.json"
        if a.ref_python:
            run_page(a.ref_python, Path(a.docs) / page, ref_json, shim=False)
        if not ref_json.exists():
            sys.exit(f"suite.py: no JAX reference for {page}: pass --ref-python (an interpreter with jax)")
        ref = {r["cell"]: r for r in json.loads(ref_json.read_text())}
        print(f"== {page} ({title})", flush=True)
        got = {r["cell"]: r for r in run_page(a.python, Path(a.docs) / page, report.parent / f"loom_{stem}.json", shim=True)}
        for n in sorted(ref):
            kind, why = scoped.get((page, n), (None, ""))
            if kind == "out":
                v, reason = "out", why
            else:
                v, reason = verdict(ref[n], got[n], kind)
                if kind == "runs-only" and v == "agree":
                    reason = f"runs ({why})"
            lines.append({"page": page, "cell": n, "verdict": v, "reason": reason})
    report.write_text("".join(json.dumps(r) + "\n" for r in lines))


if __name__ == "__main__":
    main()
