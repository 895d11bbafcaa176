"""Reads the outcomes tools/numba_suite/run.sh wrote (NUMBA_SUITE_REPORT) and prints the
per-file counts, the in-scope pass rate and the causes of failure ranked by the number of
tests each blocks (tools/suite_common/summary.py; Numba's causes below).

    python tools/numba_suite/summarize.py REPORT [--suite NUMBA_CUDA_DIR] [--known FILE]
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


def main():
    a = arguments(__doc__.splitlines()[0], "NUMBA_CUDA_DIR", str(here / "scope.txt"))
    tests_dir = Path(a.suite) / "numba_cuda" / "numba" / "cuda" / "tests" if a.suite else None
    summarize(a.report, a.scope, tests_dir, CATEGORIES, a.known, a.write_known, a.top)


if __name__ == "__main__":
    main()
