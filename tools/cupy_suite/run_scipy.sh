#!/usr/bin/env bash
# Runs CuPy's tests of cupyx.scipy (cupy/cupy: tests/cupyx_tests/scipy_tests, the folders
# scipy_scope.txt lists: special, ndimage, signal, linalg, fft) against loom.scipy, with no CuPy
# installed: the CuPy suite's shim (tools/cupy_suite/shim) is loom as `cupy` and loom.scipy as
# `cupyx.scipy`, and names each CuPy name loom lacks. Same harness as run.sh (its plugin,
# pytest.ini and cupy.testing), with its own scope, known failures and report.
#
#   CUPY_DIR=/path/to/cupy tools/cupy_suite/run_scipy.sh [pytest args...]
#
# CUPY_DIR: a checkout of cupy/cupy (its tests/ folder is read; its cupy package is never
#   imported).
# PYTHON: the interpreter (default: python3); it needs numpy, scipy, packaging and pytest, and
#   must be the Python loom's extension was built for. pytest-xdist, if present, runs `-n JOBS`.
# JOBS: xdist workers (default 2; 0 runs in one process).
# CUPYX_SCIPY_SUITE_XFAIL=1: mark the known failures (tools/cupy_suite/scipy_known_failures.txt,
#   each with its cause) xfail, so the run fails only on new failures; by default every failure
#   counts.
# CUPYX_SCIPY_SUITE_REPORT: where to write the outcomes, one JSON object a line (default:
#   build/cupyx_scipy_suite/report.jsonl); `tools/cupy_suite/summarize_scipy.py REPORT` prints the
#   per-file and per-folder counts, the pass rate and the causes ranked.
# CUPYX_SCIPY_SUITE_TIMEOUT: seconds one test may run (default 300).
# Files are chosen by tools/cupy_suite/scipy_scope.txt (what is out of scope, sparse_tests among
# it until loom.scipy.sparse exists, is not collected). Tests run on loom's default device (a GPU
# when there is one, else cpu(); LOOM_DEVICE=cpu tests cpu() on a GPU machine). Extra arguments go
# to pytest (a folder or file relative to tests/cupyx_tests/scipy_tests, such as
# special_tests/test_erf.py, a -k expression, -x, ...).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$(dirname "$here")")
suite=$(cd "${CUPY_DIR:?set CUPY_DIR to a checkout of cupy/cupy}" && pwd)
tests=$suite/tests/cupyx_tests/scipy_tests
if [[ ! -d "$tests/special_tests" ]]; then
  echo "run_scipy.sh: $suite is not a CuPy checkout (no tests/cupyx_tests/scipy_tests/special_tests)" >&2
  exit 2
fi
report=${CUPYX_SCIPY_SUITE_REPORT:-$root/build/cupyx_scipy_suite/report.jsonl}
prefix=cupy-suite  # the CuPy suite's plugin (cupy_suite_plugin.py) and its options
xfail=${CUPYX_SCIPY_SUITE_XFAIL:-0}
timeout=${CUPYX_SCIPY_SUITE_TIMEOUT:-300}
scope_file=$here/scipy_scope.txt
known_file=$here/scipy_known_failures.txt
export CUPY_DIR=$suite
# Without arguments: the whole folder; scipy_scope.txt leaves out what is out of scope.
default_paths=(.)
source "$root/tools/suite_common/run_suite.sh"
run_suite "$@"
