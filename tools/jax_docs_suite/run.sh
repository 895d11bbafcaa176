#!/usr/bin/env bash
# Runs JAX's documentation pages (scope.txt: the quickstart "How to think in JAX", "Automatic
# differentiation", the autodiff cookbook, custom derivative rules, "Control flow and logical
# operators with JIT") cell by cell against loom, with `jax`, `jax.numpy`, `jax.lax`,
# `jax.random`, ... resolved to loom's names by a shim package (tools/jax_docs_suite/shim), and
# compares each cell's printed results with real JAX's. Then prints the per-page counts.
#
#   JAX_DIR=/path/to/jax [JAX_REF_PYTHON=/path/to/python-with-jax] tools/jax_docs_suite/run.sh [PAGE...]
#
# JAX_DIR: a checkout of jax-ml/jax (its docs/ folder is read; its jax package is never imported).
# JAX_REF_PYTHON: an interpreter with real JAX installed (kept outside the repository, e.g. a
#   venv with `pip install jax`): runs the pages under JAX for the reference outputs, which are
#   kept under build/jax_docs_suite/jax_reference/; without it the kept ones are read.
# PYTHON: the interpreter loom's extension was built for (default: python3); needs numpy.
# JAX_DOCS_REPORT: where the outcomes go (default build/jax_docs_suite/report.jsonl);
#   tools/jax_docs_suite/summarize.py REPORT prints the table and the failures by cause.
# PAGE: a page's name (thinking_in_jax, control-flow, ...) to run only that one.
# Each page runs in a fresh process, its cells in order in one namespace; a cell after a
# failure still runs. Cells run on loom's default device (LOOM_DEVICE=cpu picks the CPU).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$(dirname "$here")")
docs=$(cd "${JAX_DIR:?set JAX_DIR to a checkout of jax-ml/jax}" && pwd)/docs
if [[ ! -f "$docs/control-flow.md" ]]; then
  echo "run.sh: $JAX_DIR is not a JAX checkout (no docs/control-flow.md)" >&2
  exit 2
fi
report=${JAX_DOCS_REPORT:-$root/build/jax_docs_suite/report.jsonl}
python=${PYTHON:-python3}
export PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}"
args=(--docs "$docs" --report "$report")
if [[ -n "${JAX_REF_PYTHON:-}" ]]; then
  args+=(--ref-python "$JAX_REF_PYTHON")
fi
"$python" "$here/suite.py" "${args[@]}" "$@"
exec "$python" "$here/summarize.py" "$report" --known "$here/known_failures.txt"
