#!/usr/bin/env bash
# Runs Numba-CUDA's own test suite (NVIDIA/numba-cuda: numba_cuda/numba/cuda/tests/cudapy
# and doc_examples) against loom, with no Numba installed: a shim package `numba`
# (tools/numba_suite/shim) resolves numba.cuda to loom.cuda and Numba's names to loom's
# equivalents, and raises an ImportError naming each one loom has no equivalent of.
#
#   NUMBA_CUDA_DIR=/path/to/numba-cuda tools/numba_suite/run.sh [pytest args...]
#
# NUMBA_CUDA_DIR: a checkout of NVIDIA/numba-cuda (its numba_cuda/ folder is read, never
#   imported as a package).
# PYTHON: the interpreter (default: python3); it needs numpy and pytest, and must be the
#   Python loom's extension was built for. pytest-xdist, if present, runs `-n JOBS`; cffi, if
#   present, lets the files that import it load (the suite's own test requirement).
# JOBS: xdist workers (default 2; 0 runs in one process).
# NUMBA_SUITE_XFAIL=1: mark the known failures (tools/numba_suite/known_failures.txt, each
#   with its cause) xfail, so the run fails only on new failures; by default every failure
#   counts.
# NUMBA_SUITE_REPORT: where to write the outcomes, one JSON object a line (default:
#   build/numba_suite/report.jsonl); `tools/numba_suite/summarize.py REPORT` prints the
#   per-file counts, the pass rate and the causes ranked.
# NUMBA_SUITE_TIMEOUT: seconds one test may run (default 600).
# Files are chosen by tools/numba_suite/scope.txt (what is out of scope is not collected).
# Tests run on loom's default device: a GPU when there is one, else cpu(); set
# LOOM_DEVICE=cpu to test cpu() on a GPU machine. Extra arguments go to pytest (a file such
# as cudapy/test_atomics.py, relative to the suite's tests folder, a -k expression, -x, ...).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$(dirname "$here")")
suite=$(cd "${NUMBA_CUDA_DIR:?set NUMBA_CUDA_DIR to a checkout of NVIDIA/numba-cuda}" && pwd)
tests=$suite/numba_cuda/numba/cuda/tests
if [[ ! -d "$tests/cudapy" ]]; then
  echo "run.sh: $suite is not a numba-cuda checkout (no numba_cuda/numba/cuda/tests/cudapy)" >&2
  exit 2
fi
report=${NUMBA_SUITE_REPORT:-$root/build/numba_suite/report.jsonl}
prefix=numba-suite
xfail=${NUMBA_SUITE_XFAIL:-0}
timeout=${NUMBA_SUITE_TIMEOUT:-600}
export NUMBA_CUDA_DIR=$suite
default_paths=(cudapy doc_examples)
source "$root/tools/suite_common/run_suite.sh"
run_suite "$@"
