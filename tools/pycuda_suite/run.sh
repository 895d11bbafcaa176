#!/usr/bin/env bash
# Runs PyCUDA's own tests (inducer/pycuda: test/test_driver.py, test_gpuarray.py,
# test_cumath.py) against loom.pycuda, with no PyCUDA installed: a shim package `pycuda`
# (tools/pycuda_suite/shim) resolves every `pycuda.X` to `loom.pycuda.X`, and names each module
# loom.pycuda lacks.
#
#   PYCUDA_DIR=/path/to/pycuda tools/pycuda_suite/run.sh [pytest args...]
#
# PYCUDA_DIR: a checkout of inducer/pycuda (its test/ folder is read; its pycuda package is
#   never imported).
# PYTHON: the interpreter (default: python3); it needs numpy and pytest, and must be the Python
#   loom's extension was built for. pytest-xdist, if present, runs `-n JOBS`; pytools (PyCUDA's
#   own dependency), if present, lets the test that imports it run.
# JOBS: xdist workers (default 2; 0 runs in one process).
# PYCUDA_SUITE_XFAIL=1: mark the known failures (tools/pycuda_suite/known_failures.txt, each
#   with its cause) xfail, so the run fails only on new failures; by default every failure counts.
# PYCUDA_SUITE_REPORT: where to write the outcomes, one JSON object a line (default:
#   build/pycuda_suite/report.jsonl); `tools/pycuda_suite/summarize.py REPORT` prints the
#   per-file counts, the pass rate and the causes ranked.
# PYCUDA_SUITE_TIMEOUT: seconds one test may run (default 600).
# Files are chosen by tools/pycuda_suite/scope.txt. Tests run on loom's default device: a GPU
# when there is one, else cpu() (LOOM_DEVICE=cpu tests cpu() on a GPU machine), where the
# tests gpu_only.txt lists (they need device memory a CPU does not have) are skipped.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$(dirname "$here")")
suite=$(cd "${PYCUDA_DIR:?set PYCUDA_DIR to a checkout of inducer/pycuda}" && pwd)
tests=$suite/test
if [[ ! -f "$tests/test_driver.py" ]]; then
  echo "run.sh: $suite is not a PyCUDA checkout (no test/test_driver.py)" >&2
  exit 2
fi
report=${PYCUDA_SUITE_REPORT:-$root/build/pycuda_suite/report.jsonl}
prefix=pycuda-suite
xfail=${PYCUDA_SUITE_XFAIL:-0}
timeout=${PYCUDA_SUITE_TIMEOUT:-600}
default_paths=(test_driver.py test_gpuarray.py test_cumath.py)
source "$root/tools/suite_common/run_suite.sh"
run_suite "$@"
