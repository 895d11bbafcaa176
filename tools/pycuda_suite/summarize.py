"""Reads the outcomes tools/pycuda_suite/run.sh wrote (PYCUDA_SUITE_REPORT) and prints the
per-file counts, the in-scope pass rate and the causes of failure ranked by the number of
tests each blocks (tools/suite_common/summary.py; PyCUDA's causes below).

    python tools/pycuda_suite/summarize.py REPORT [--suite PYCUDA_DIR] [--known FILE]
                                                  [--write-known FILE]

--known compares with known_failures.txt (new failures, and known ones that pass now);
--write-known writes the failures grouped by cause in that file's format (keeping its header).
"""
import sys
from pathlib import Path

here = Path(__file__).resolve().parent
sys.path.insert(0, str(here.parent))
from suite_common.summary import arguments, summarize  # noqa: E402

CATEGORIES = [
    # (pattern on the message, the cause it is counted under; \1 takes the pattern's group)
    (r"loom\.pycuda has no module '(\w+)'", r"pycuda.\1 (module) missing"),
    (r"cannot import name '(\w+)' from '(loom\.pycuda[\w.]*)'", r"\2.\1 missing"),
    (r"No module named '(\w+)'", r"module \1 not installed"),
    (r"\[(DynamicSourceModule|DynamicModule)\]", r"\1: dynamic parallelism (relocatable device code)"),
    (r"loom does not support dtype \[", "arrays of structured dtypes"),
    (r"a structured result dtype", "arrays of structured dtypes"),
    (r"'loom\._loom\.ndarray' object has no attribute '(\w+)'", r"ndarray.\1 missing"),
    (r"texture and surface references", "texture references (removed in CUDA 12)"),
]


def main():
    a = arguments(__doc__.splitlines()[0], "PYCUDA_DIR", str(here / "scope.txt"))
    tests_dir = Path(a.suite) / "test" if a.suite else None
    summarize(a.report, a.scope, tests_dir, CATEGORIES, a.known, a.write_known, a.top)


if __name__ == "__main__":
    main()
