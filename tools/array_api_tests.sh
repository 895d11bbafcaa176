#!/usr/bin/env bash
# Runs the Python Array API standard's own test suite (data-apis/array-api-tests) against
# `loom`, for the standard's version loom implements (loom.__array_api_version__).
#
#   ARRAY_API_TESTS_DIR=/path/to/array-api-tests tools/array_api_tests.sh [pytest args...]
#
# ARRAY_API_TESTS_DIR: a checkout of array-api-tests with its `array-api` submodule (the
#   spec) in place (`git submodule update --init`).
# PYTHON: the interpreter (default: python3). It needs numpy, ml_dtypes and the suite's
#   requirements (pytest, pytest-json-report, hypothesis, ndindex), and must be the Python
#   loom's extension was built for.
# MAX_EXAMPLES: hypothesis examples per test (default 20).
# ARRAY_API_TESTS_XFAIL=1: mark the known diversions (tools/array_api_xfails.txt, each with
#   its reason) as expected failures; by default every failure counts.
# The suite runs on loom's default device: a GPU when there is one, else cpu(); set
# LOOM_DEVICE=cpu to test cpu() on a GPU machine. Extra arguments go to pytest (a file or
# test id to run, -x, --disable-deadline, ...).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
suite=${ARRAY_API_TESTS_DIR:?set ARRAY_API_TESTS_DIR to a checkout of data-apis/array-api-tests}
if [[ ! -d "$suite/array_api_tests" || ! -d "$suite/array-api/spec" ]]; then
  echo "array_api_tests.sh: $suite is not an array-api-tests checkout with its array-api submodule" >&2
  exit 2
fi
python=${PYTHON:-python3}
version=$(PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}" "$python" -c 'import loom; print(loom.__array_api_version__)')

# --rootdir: test ids relative to the suite, which the xfails file is written in.
args=(-p no:cacheprovider -q --disable-warnings --max-examples="${MAX_EXAMPLES:-20}" -rfE --rootdir="$suite")
if [[ "${ARRAY_API_TESTS_XFAIL:-0}" == 1 ]]; then
  args+=(--xfails-file="$here/array_api_xfails.txt")
fi
if [[ $# -eq 0 ]]; then
  set -- array_api_tests
fi

cd "$suite"
export ARRAY_API_TESTS_MODULE=loom ARRAY_API_TESTS_VERSION="$version"
export PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}"
exec "$python" -m pytest "${args[@]}" "$@"
