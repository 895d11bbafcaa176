#!/usr/bin/env bash
# Runs CuPy's own tests (cupy/cupy: tests/cupy_tests, the folders scope.txt lists: creation,
# manipulation, math, logic, sorting, statistics, indexing, linalg, random, binary, padding)
# against loom, with no CuPy installed: a shim package `cupy` (tools/cupy_suite/shim) is loom
# under CuPy's name plus loom's own `cupy.testing`, and names each CuPy name loom lacks.
#
#   CUPY_DIR=/path/to/cupy tools/cupy_suite/run.sh [pytest args...]
#
# CUPY_DIR: a checkout of cupy/cupy (its tests/ folder is read; its cupy package is never
#   imported).
# PYTHON: the interpreter (default: python3); it needs numpy, scipy, packaging and pytest, and
#   must be the Python loom's extension was built for. pytest-xdist, if present, runs `-n JOBS`.
# JOBS: xdist workers (default 2; 0 runs in one process).
# CUPY_SUITE_XFAIL=1: mark the known failures (tools/cupy_suite/known_failures.txt, each with
#   its cause) xfail, so the run fails only on new failures; by default every failure counts.
# CUPY_SUITE_REPORT: where to write the outcomes, one JSON object a line (default:
#   build/cupy_suite/report.jsonl); `tools/cupy_suite/summarize.py REPORT` prints the per-file
#   and per-folder counts, the pass rate and the causes ranked.
# CUPY_SUITE_TIMEOUT: seconds one test may run (default 300).
# Files are chosen by tools/cupy_suite/scope.txt (what is out of scope is not collected).
# Tests run on loom's default device: a GPU when there is one, else cpu(); set LOOM_DEVICE=cpu
# to test cpu() on a GPU machine. Extra arguments go to pytest (a folder or file relative to
# tests/cupy_tests, such as math_tests/test_explog.py, a -k expression, -x, ...).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$(dirname "$here")")
suite=$(cd "${CUPY_DIR:?set CUPY_DIR to a checkout of cupy/cupy}" && pwd)
tests=$suite/tests/cupy_tests
if [[ ! -d "$tests/creation_tests" ]]; then
  echo "run.sh: $suite is not a CuPy checkout (no tests/cupy_tests/creation_tests)" >&2
  exit 2
fi
report=${CUPY_SUITE_REPORT:-$root/build/cupy_suite/report.jsonl}
prefix=cupy-suite
xfail=${CUPY_SUITE_XFAIL:-0}
timeout=${CUPY_SUITE_TIMEOUT:-300}
export CUPY_DIR=$suite
default_paths=(creation_tests manipulation_tests math_tests logic_tests sorting_tests statistics_tests
               indexing_tests linalg_tests random_tests binary_tests padding_tests)
source "$root/tools/suite_common/run_suite.sh"
run_suite "$@"
