"""Reads a suite harness's JSONL report (plugin.Recorder) and prints the per-file (and
per-folder) counts, the in-scope pass rate and the causes of failure ranked by the number of
tests each blocks; compares with known_failures.txt and writes it (a harness's summarize.py
gives its own cause patterns and paths).

A test file that fails to import blocks all its tests: they are counted by reading the file
(test methods of its test classes, inherited ones from classes in the same file included;
parameterized classes count once), so that count is approximate. A test with unittest
subTests counts once: failed if any part failed. Skipped tests are left out of the rate.
"""
import argparse
import ast
import collections
import json
import re
from pathlib import Path

from suite_common.plugin import lookup, parse_known, read_known, read_scope

RANK = {"collect-error": 9, "error": 8, "failed": 7, "xfailed-known": 6, "xpassed": 5, "xpassed-known": 4,
        "xfailed": 3, "passed": 2, "skipped": 1, "collect-skipped": 0}
# xfailed: the suite's own expected failure, failing as it expects (a pass here); xpassed: an
# expected failure that passed (unittest calls it a failure); -known: known_failures.txt.
COUNTS_AS = {"error": "failed", "xfailed": "passed", "xpassed": "failed", "xfailed-known": "failed",
             "xpassed-known": "passed"}


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
    if tests_dir is None or not (tests_dir / f).exists():
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


def plain_cause(message):
    """A failure message's first line with numbers, paths, addresses and reprs folded."""
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


def cause_of(message, categories):
    """A failure message as a cause: the label of the first (pattern, label) of categories
    that matches (label may take the pattern's groups, \\1), else plain_cause."""
    if (message or "").startswith("known failure: "):  # a listed import failure (xfail mode)
        return message[len("known failure: "):]
    for pattern, label in categories:
        found = re.search(pattern, message or "")
        if found:
            return found.expand(label)
    return plain_cause(message)


def compress(failing, results):
    """failing {id: cause} as the fewest ids that name the same tests: a file, class or test
    (without its parameters) stands for all its ids when every test under it failed with one
    cause."""
    under = collections.defaultdict(set)  # prefix -> ids of all results under it
    for tid in results:
        for p in _parents(tid):
            under[p].add(tid)
    out = {}
    for tid, c in failing.items():
        best = tid
        for p in reversed(_parents(tid)):  # widest first
            ids = under[p]
            if all(failing.get(t) == c for t in ids):
                best = p
                break
        out[best] = c
    return out


def _parents(tid):
    parts = tid.split("::")
    out = ["::".join(parts[:i]) for i in range(len(parts) - 1, 0, -1)]
    bare = "::".join(parts[:-1] + [re.sub(r"\[.*\]$", "", parts[-1])])
    return ([bare] if bare != tid else []) + out


def summarize(report, scope_path, tests_dir, categories, known_path=None, write_known=None, top=25,
              known_header=""):
    records = [json.loads(line) for line in open(report) if line.strip()]
    results = fold(records)
    scope = read_scope(scope_path)

    per_file = collections.defaultdict(collections.Counter)
    causes = collections.defaultdict(lambda: [0, None, set()])  # cause -> [tests, example, files]
    failing = {}  # id -> cause

    def count(c, n, f, example):
        causes[c][0] += n
        causes[c][1] = causes[c][1] or example
        causes[c][2].add(f)

    for tid, (outcome, msg) in sorted(results.items()):
        entry = lookup(scope, tid)
        if entry is not None and not entry[0]:
            continue  # run before scope.txt left it out
        f = tid.split("::")[0]
        first = msg.splitlines()[0] if msg else ""
        if outcome in ("collect-error", "collect-skipped") and (outcome == "collect-error" or "known failure" in msg):
            n = blocked_count(tests_dir, f, scope)
            per_file[f]["blocked"] += n
            failing[f] = cause_of(msg, categories)
            count(failing[f], n, f, f"{f} (import): {first}")
            continue
        if outcome == "collect-skipped":  # a module-level skip
            per_file[f]["skipped"] += blocked_count(tests_dir, f, scope)
            continue
        key = COUNTS_AS.get(outcome, outcome)
        per_file[f][key] += 1
        if key == "failed":
            failing[tid] = cause_of(msg, categories)
            count(failing[tid], 1, f, f"{tid}: {first}")

    _table(per_file, "file", 56)
    per_dir = collections.defaultdict(collections.Counter)
    for f, c in per_file.items():
        per_dir[f.split("/")[0] if "/" in f else "."].update(c)
    if len(per_dir) > 1:
        print()
        tot = _table(per_dir, "folder", 56)
    else:
        tot = sum(per_file.values(), collections.Counter())
    run = tot["passed"] + tot["failed"] + tot["blocked"]
    print(f"\nin-scope pass rate: {tot['passed']}/{run} = {100.0 * tot['passed'] / max(run, 1):.1f}% "
          f"(passed / (passed + failed + blocked by an import error); {tot['skipped']} skipped)")
    files_in = [p for p, (inn, _) in scope.items() if inn and "::" not in p]
    missing = [p for p in files_in if p not in per_file]
    if missing:
        print(f"in scope but not in the report (not run): {', '.join(missing)}")

    print(f"\ncauses ranked by tests blocked (top {top}):")
    for c, (n, example, files) in sorted(causes.items(), key=lambda kv: -kv[1][0])[:top]:
        print(f"{n:5}  {c}\n       {len(files)} file(s); e.g. {example[:300]}")

    if known_path:
        known = read_known(known_path)
        new = [t for t in failing if lookup(known, t) is None]
        fixed = [t for t, (o, _) in results.items() if lookup(known, t) is not None and o in ("passed", "xpassed-known")]
        print(f"\n{len(new)} failing and not in {known_path}:" + "".join(f"\n  {t}" for t in new[:200]))
        print(f"{len(fixed)} listed in {known_path} that pass now:" + "".join(f"\n  {t}" for t in fixed[:200]))

    if write_known:
        kept = ""
        if Path(write_known).exists():
            blocks = Path(write_known).read_text().split("\n\n")
            head = blocks[0].splitlines()
            if not known_header:  # keep the file's header block
                known_header = "\n".join(head) + "\n\n" if head and all(h.startswith("#") for h in head) else ""
            # Groups written by hand under a cause starting "# flaky" (tests whose outcome varies
            # between runs, listed whole) stay, and the ids they cover are not listed again.
            kept = "".join(b.strip("\n") + "\n\n" for b in blocks if b.lstrip("\n").startswith("# flaky"))
        flaky = parse_known(kept)
        groups = collections.defaultdict(list)
        for t, c in compress(failing, results).items():
            if lookup(flaky, t) is None:
                groups[c].append(t)
        with open(write_known, "w") as out:
            out.write(known_header + kept)
            for c, ids in sorted(groups.items(), key=lambda kv: -causes[kv[0]][0]):
                out.write(f"# {c}\n" + "".join(f"{t}\n" for t in sorted(ids)) + "\n")


def _table(rows, title, width):
    print(f"{title:{width}} {'pass':>6} {'fail':>6} {'block':>6} {'skip':>6}")
    tot = collections.Counter()
    for f in sorted(rows):
        c = rows[f]
        tot.update(c)
        print(f"{f:{width}} {c['passed']:6} {c['failed']:6} {c['blocked']:6} {c['skipped']:6}")
    print(f"{'total':{width}} {tot['passed']:6} {tot['failed']:6} {tot['blocked']:6} {tot['skipped']:6}")
    return tot


def arguments(description, suite_env, scope_default):
    """The command line both summarize.py scripts take."""
    import os
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("report")
    ap.add_argument("--suite", default=os.environ.get(suite_env), help=f"the suite's checkout (default ${suite_env})")
    ap.add_argument("--scope", default=scope_default)
    ap.add_argument("--known", help="known_failures.txt: list new failures and listed ones that pass now")
    ap.add_argument("--write-known", help="write the failures grouped by cause in known_failures.txt's format")
    ap.add_argument("--top", type=int, default=25)
    return ap.parse_args()
