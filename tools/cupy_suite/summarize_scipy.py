"""Reads the outcomes tools/cupy_suite/run_scipy.sh wrote (CUPYX_SCIPY_SUITE_REPORT) and prints
the per-file and per-folder counts of CuPy's cupyx.scipy tests, the in-scope pass rate and the
causes of failure ranked by the number of tests each blocks (tools/suite_common/summary.py;
the CuPy suite's causes, summarize.py, and the SciPy ones below).

    python tools/cupy_suite/summarize_scipy.py REPORT [--suite CUPY_DIR] [--known FILE]
                                                      [--write-known FILE]

--known compares with scipy_known_failures.txt (new failures, and known ones that pass now);
--write-known writes the failures grouped by cause in that file's format (keeping its header).
A test runs every dtype (or order) its decorators give in one test: it fails if any fails.
"""
import collections
import json
import sys
from pathlib import Path

here = Path(__file__).resolve().parent
sys.path.insert(0, str(here.parent))
sys.path.insert(0, str(here))
from suite_common.plugin import lookup, read_scope  # noqa: E402
from suite_common.summary import COUNTS_AS, arguments, cause_of, fold, summarize  # noqa: E402
from summarize import CATEGORIES as CUPY_CATEGORIES  # noqa: E402

CATEGORIES = [
    # (pattern on the message, the cause it is counted under; \1 takes the pattern's group).
    # SciPy's functions take keywords by name: a keyword loom.scipy's function lacks.
    (r"^TypeError: (\w+)\(\) got an unexpected keyword argument '(\w+)'", r"\1(\2=) keyword not accepted"),
    (r"^TypeError: (\w+)\(\) takes .* positional arguments? but .* given", r"\1() takes fewer positional arguments than SciPy's"),
    (r"unknown type '(\w+)' of parameter", r"ReductionKernel/ElementwiseKernel: C type name '\1' not accepted"),
    # scipy.fft.set_backend(cupyx.scipy.fft): SciPy's backend protocol (__ua_domain__, __ua_function__).
    (r'Backend does not implement "numpy\.scipy\.fft"', "cupyx.scipy.fft as scipy.fft's backend (set_backend) missing"),
    (r"Invalid window name '(\w+)'", r"cupyx.scipy.signal.get_window('\1') missing"),
    # CuPy's test helper _maybe_promote_complex_output gives SciPy (the NumPy side) the result
    # of cupy.promote_types: loom's dtype is no numpy.dtype, so SciPy takes it for an output array.
    (r"only NumPy raised: RuntimeError: output shape not correct",
     "loom.promote_types returns a loom dtype, not a numpy.dtype (SciPy takes it for an output array)"),
    (r"^assert \(array\(.*\) is None or array\(.*\) is array\(",
     "ndimage interpolation, complex input with output=array: a new array is returned, output not written"),
] + CUPY_CATEGORIES


def implemented_rate(report, scope_path):
    """The pass rate over the tests of what loom.scipy has: a test failing because a name is
    missing (cupyx.scipy.signal.filtfilt, a file blocked on one) is left out. It tells the
    quality of the functions loom.scipy has apart from how many of cupyx.scipy's it has. A file
    that fails to import counts once here."""
    scope = read_scope(scope_path)
    results = fold(json.loads(line) for line in open(report) if line.strip())
    counts = collections.Counter()
    for tid, (outcome, msg) in results.items():
        entry = lookup(scope, tid)
        if (entry is not None and not entry[0]) or outcome in ("skipped", "collect-skipped"):
            continue
        failed = COUNTS_AS.get(outcome, outcome) in ("failed", "collect-error")
        missing = failed and cause_of(msg, CATEGORIES).endswith(("missing", "missing (a CuPy internal)"))
        counts["missing" if missing else "failed" if failed else "passed"] += 1
    run = counts["passed"] + counts["failed"]
    print(f"\nof what loom.scipy has: {counts['passed']}/{run} = {100.0 * counts['passed'] / max(run, 1):.1f}% "
          f"({counts['missing']} tests left out: they fail on a name loom lacks)")


def main():
    a = arguments(__doc__.splitlines()[0], "CUPY_DIR", str(here / "scipy_scope.txt"))
    tests_dir = Path(a.suite) / "tests" / "cupyx_tests" / "scipy_tests" if a.suite else None
    summarize(a.report, a.scope, tests_dir, CATEGORIES, a.known, a.write_known, a.top)
    implemented_rate(a.report, a.scope)


if __name__ == "__main__":
    main()
