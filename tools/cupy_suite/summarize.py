"""Reads the outcomes tools/cupy_suite/run.sh wrote (CUPY_SUITE_REPORT) and prints the
per-file and per-folder counts, the in-scope pass rate and the causes of failure ranked by the
number of tests each blocks (tools/suite_common/summary.py; CuPy's causes below).

    python tools/cupy_suite/summarize.py REPORT [--suite CUPY_DIR] [--known FILE]
                                                [--write-known FILE]

--known compares with known_failures.txt (new failures, and known ones that pass now);
--write-known writes the failures grouped by cause in that file's format (keeping its header).
A test runs every dtype (or order) its decorators give in one test: it fails if any fails.
"""
import sys
from pathlib import Path

here = Path(__file__).resolve().parent
sys.path.insert(0, str(here.parent))
from suite_common.summary import arguments, summarize  # noqa: E402

CATEGORIES = [
    # (pattern on the message, the cause it is counted under; \1 takes the pattern's group)
    (r"(cupy[\w.]*\.\w+): loom has no equivalent \((a CuPy internal)\)", r"\1 missing (\2)"),
    (r"(cupy[\w.]*\.\w+): loom has no equivalent", r"\1 missing"),
    (r"cannot import name '(\w+)' from '(cupy[\w.]*)'", r"\2.\1 missing"),
    (r"No module named '(cupy[\w.]*)'", r"\1 (module) missing"),
    (r"'loom\._loom\.ndarray' object has no attribute '(\w+)'", r"ndarray.\1 missing"),
    (r"module 'loom[\w.]*' has no attribute '(\w+)'", r"loom.\1 missing"),
    (r"\[(\w+)\] unexpected keyword argument '(\w+)'", r"\1(\2=) keyword not accepted"),
    (r"dtypes differ: loom (\w+), NumPy (\w+)", r"result dtype differs from NumPy's (loom \1, NumPy \2)"),
    (r"shapes differ", "result shape differs from NumPy's"),
    (r"only NumPy raised: (\w+)", r"NumPy raises \1, loom does not"),
    (r"loom raised (\w+): .*; NumPy raised (\w+)", r"loom raises \1 where NumPy raises \2"),
    (r"(Not equal to tolerance|Arrays are not (almost )?equal)", "values differ from NumPy's"),
    (r"the NumPy result is (\w+), the loom result is not", r"result not \1 as NumPy's is"),
    (r"different kinds of results: loom (\w+), NumPy (\w+)", r"loom returns \1 where NumPy returns \2"),
]


def main():
    a = arguments(__doc__.splitlines()[0], "CUPY_DIR", str(here / "scope.txt"))
    tests_dir = Path(a.suite) / "tests" / "cupy_tests" if a.suite else None
    summarize(a.report, a.scope, tests_dir, CATEGORIES, a.known, a.write_known, a.top)


if __name__ == "__main__":
    main()
