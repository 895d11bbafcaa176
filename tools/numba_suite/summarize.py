"""Reads the outcomes tools/numba_suite/run.sh wrote (NUMBA_SUITE_REPORT) and prints the
per-file counts, the in-scope pass rate and the causes of failure ranked by the number of
tests each blocks.

    python tools/numba_suite/summarize.py REPORT [--suite NUMBA_CUDA_DIR] [--known FILE]
                                                 [--write-known FILE]

A test file that fails to import blocks all its tests: they are counted by reading the file
(test methods of its test classes, inherited ones from classes in the same file included),
so that count is approximate. A test with unittest subTests counts once: failed if any part
failed. Skipped tests are left out of the rate. --known compares with known_failures.txt
(new failures, and known ones that pass now); --write-known writes the failures grouped by
cause in that file's format.
"""
import argparse
import ast
import collections
import json
import os
import re
import sys
from pathlib import Path

here = Path(__file__).resolve().parent
sys.path.insert(0, str(here))
from numba_suite_plugin import read_known, read_scope  # noqa: E402

RANK = {"collect-error": 9, "error": 8, "failed": 7, "xfailed-known": 6, "xpassed": 5, "xpassed-known": 4,
        "xfailed": 3, "passed": 2, "skipped": 1, "collect-skipped": 0}


def static_test_ids(path):
    """The ids ("Class::test", "test") pytest would collect from a file, read from its source."""
    tree = ast.parse(Path(path).read_text())
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}

    def tests_of(cls, seen=()):
        names = {f.name for f in cls.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and f.name.startswith("test")}
        for b in cls.bases:
            bname = b.id if isinstance(b, ast.Name) else getattr(b, "attr", None)
            if bname in classes and bname not in seen:
                names |= tests_of(classes[bname], seen + (bname,))
        return names

    def is_test_class(cls):
        if cls.name.startswith("Test"):
            return True
        return any("TestCase" in (getattr(b, "id", None) or getattr(b, "attr", "") or "") for b in cls.bases)

    ids = [f"{c.name}::{t}" for c in classes.values() if is_test_class(c) for t in sorted(tests_of(c))]
    return ids + [f.name for f in tree.body if isinstance(f, ast.FunctionDef) and f.name.startswith("test")]


def blocked_count(tests_dir, f, scope):
    """How many in-scope tests a file that cannot be imported holds."""
    if tests_dir is None:
        return 1
    out = [k for k, (inn, _) in scope.items() if not inn and k.startswith(f + "::")]
    return sum(1 for t in static_test_ids(tests_dir / f)
               if not any(f"{f}::{t}" == k or f"{f}::{t}".startswith(k + "::") for k in out))


def fold(records):
    """{test id: (outcome, message)}: the worst outcome of an id's reports."""
    out = {}
    for r in records:
        cur = out.get(r["id"])
        if cur is None or RANK[r["outcome"]] > RANK[cur[0]]:
            out[r["id"]] = (r["outcome"], r.get("message", ""))
    return out


CATEGORIES = [
    # (pattern on the message, the cause it is counted under; \1 takes the pattern's group)
    (r"LoomHasNo: numba(\.cuda)?(\.types)?\.\w+: .*a Numba type object",
     "Numba type objects missing (numba.cuda.float32/int32/void/..., numba.cuda.types.*)"),
    (r"No module named '(numba\.cuda\.\w+)'", r"\1 (module) missing"),
    (r"No module named '(\w+)'", r"\1 (package) not installed"),
    (r"LoomHasNo: (numba\.cuda\.core\.config\.\w+)", r"\1 (a Numba setting) missing"),
    (r"LoomHasNo: (numba[\w.]+): loom has no equivalent", r"\1 missing"),
    (r"rebuilding the kernel from its bytecode .*?: (.*?) is not supported",
     r"a kernel rebuilt from bytecode (no source) uses \1"),
    (r"has no attribute '__cuda_array_interface__'", "cpu() arrays have no __cuda_array_interface__"),
    (r"cannot pass a \w+ to a kernel", "Enum members and record (structured) values as kernel arguments unsupported"),
    (r"'CUDADispatcher' object has no attribute '(\w+)'", r"kernel.\1 missing"),
    (r"only a plain `def` can be a kernel", "lambdas as kernels/reduce functions unsupported"),
    (r"Could not convert array\(", "a loom device array as a kernel global (ValueError: Could not convert array)"),
    (r"for loops in kernels go over range", "for loops over enumerate/zip/tuples unsupported (range only)"),
    (r"recursi(on|ve)", "recursive device functions unsupported"),
    (r"the statement 'Raise' is not supported", "raise inside kernels unsupported"),
    (r"a slice cannot be assigned to", "assigning to array slices inside kernels unsupported"),
    (r"a device function cannot take <(\w+)>", r"a \1 as a device-function argument unsupported"),
    (r"round\(\) takes one argument", "round(x, ndigits) unsupported"),
]


def cause(message):
    """A failure message as a cause: a CATEGORIES label, else its first line with kernel
    names, numbers and paths folded."""
    if (message or "").startswith("known failure: "):  # a listed import failure (NUMBA_SUITE_XFAIL=1)
        return message[len("known failure: "):]
    for pattern, label in CATEGORIES:
        found = re.search(pattern, message or "")
        if found:
            return found.expand(label)
    m = (message or "").strip().splitlines()[0] if message else "(no message)"
    m = re.sub(r"^E\s+", "", m)
    m = re.sub(r"^[\w.]+\.(\w+(Error|Exception|HasNo|Timeout)):", r"\1:", m)  # module path of the exception type
    m = re.sub(r"(\\n)?File \".*", "", m)  # a Python location, inside a quoted message
    m = re.sub(r"(/[\w.+-]+)+/([\w.-]+)", r"\2", m)  # paths: their last part
    m = re.sub(r"\[[A-Za-z_]\w*\]", "[fn]", m)
    m = re.sub(r"array\(\[.*?(\)\)|$)", "array(...)", m)  # an array's repr
    m = re.sub(r"line \d+", "line N", m)
    m = re.sub(r"0x[0-9a-f]+", "0x..", m)
    m = re.sub(r"(?<![\w.])\d+(\.\d+)?(?![\w.])", "N", m)
    return m[:200]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("report")
    ap.add_argument("--suite", default=os.environ.get("NUMBA_CUDA_DIR"))
    ap.add_argument("--scope", default=str(here / "scope.txt"))
    ap.add_argument("--known")
    ap.add_argument("--write-known")
    ap.add_argument("--top", type=int, default=25)
    a = ap.parse_args()

    records = [json.loads(line) for line in open(a.report) if line.strip()]
    results = fold(records)
    scope = read_scope(a.scope)
    tests_dir = Path(a.suite) / "numba_cuda" / "numba" / "cuda" / "tests" if a.suite else None

    per_file = collections.defaultdict(collections.Counter)
    causes = collections.defaultdict(lambda: [0, None, set()])  # cause -> [tests, example, files]
    failing = {}  # id -> cause
    for tid, (outcome, msg) in sorted(results.items()):
        f = tid.split("::")[0]
        if outcome == "collect-error":
            n = blocked_count(tests_dir, f, scope)
            per_file[f]["blocked"] += n
            c = cause(msg)
            causes[c][0] += n
            causes[c][1] = causes[c][1] or f"{f} (import): {msg.splitlines()[0] if msg else ''}"
            causes[c][2].add(f)
            failing[f] = c
            continue
        if outcome == "collect-skipped":  # a module-level skip, or a known import failure
            if "known failure" in (msg or ""):
                n = blocked_count(tests_dir, f, scope)
                per_file[f]["blocked"] += n
                failing[f] = cause(msg)
                causes[failing[f]][0] += n
                causes[failing[f]][1] = causes[failing[f]][1] or f"{f} (import): {msg}"
                causes[failing[f]][2].add(f)
                continue
            per_file[f]["skipped"] += blocked_count(tests_dir, f, scope)
            continue
        # xfailed: the suite's own expectedFailure, failing as on a GPU (a pass here); xpassed:
        # an expectedFailure that passed (unittest calls it a failure); -known: known_failures.txt.
        key = {"error": "failed", "xfailed": "passed", "xpassed": "failed", "xfailed-known": "failed",
               "xpassed-known": "passed"}.get(outcome, outcome)
        per_file[f][key] += 1
        if key == "failed":
            c = cause(msg)
            causes[c][0] += 1
            causes[c][1] = causes[c][1] or f"{tid}: {msg.splitlines()[0] if msg else ''}"
            causes[c][2].add(f)
            failing[tid] = c

    print(f"{'file':48} {'pass':>5} {'fail':>5} {'block':>5} {'skip':>5}")
    tot = collections.Counter()
    for f in sorted(per_file):
        c = per_file[f]
        tot.update(c)
        print(f"{f:48} {c['passed']:5} {c['failed']:5} {c['blocked']:5} {c['skipped']:5}")
    run = tot["passed"] + tot["failed"] + tot["blocked"]
    print(f"{'total':48} {tot['passed']:5} {tot['failed']:5} {tot['blocked']:5} {tot['skipped']:5}")
    print(f"\nin-scope pass rate: {tot['passed']}/{run} = {100.0 * tot['passed'] / max(run, 1):.1f}% "
          f"(passed / (passed + failed + blocked by an import error); {tot['skipped']} skipped)")
    files_in = [p for p, (inn, _) in scope.items() if inn and "::" not in p]
    missing = [p for p in files_in if p not in per_file]
    if missing:
        print(f"in scope but not in the report (not run): {', '.join(missing)}")

    print(f"\ncauses ranked by tests blocked (top {a.top}):")
    for c, (n, example, files) in sorted(causes.items(), key=lambda kv: -kv[1][0])[:a.top]:
        print(f"{n:5}  {c}\n       {len(files)} file(s); e.g. {example[:300]}")

    if a.known:
        known = read_known(a.known)
        new = [t for t in failing if t not in known and not any(t.startswith(k + "::") for k in known)]
        fixed = [k for k in known if k in results and results[k][0] in ("passed", "xpassed")]
        print(f"\n{len(new)} failing and not in {a.known}:" + "".join(f"\n  {t}" for t in new))
        print(f"{len(fixed)} in {a.known} that pass now:" + "".join(f"\n  {t}" for t in fixed))

    if a.write_known:
        groups = collections.defaultdict(list)
        for t, c in failing.items():
            groups[c].append(t)
        with open(a.write_known, "w") as out:
            for c, ids in sorted(groups.items(), key=lambda kv: -causes[kv[0]][0]):
                out.write(f"# {c}\n" + "".join(f"{t}\n" for t in sorted(ids)) + "\n")


if __name__ == "__main__":
    main()
