#!/usr/bin/env bash
# Runs the PyTorch code of the d2l book's chapters 3-8 and 13 (scope.txt: linear regression,
# linear classification, MLPs, builders' guide, CNNs, modern CNNs, computational performance)
# section by section against loom, with `torch`, `torch.nn`, `torch.nn.functional`,
# `torchvision` and `d2l.torch` resolved to loom by a shim package (tools/d2l_suite/shim;
# docs/site/porting/d2l.md has the mapping), then prints the per-section table.
#
#   D2L_DIR=/path/to/d2l-en [D2L_DATA=/path/to/data] tools/d2l_suite/run.sh [SECTION...]
#
# D2L_DIR: a checkout of d2l-ai/d2l-en (its chapter_*/*.md and d2l/torch.py are read).
# D2L_DATA: a folder with FashionMNIST/raw/*-ubyte.gz (torchvision's files); without them a
#   stand-in of the same shapes is made (accuracies then say nothing about the book's).
# D2L_SUITE_MAX_EPOCHS, D2L_SUITE_MAX_BATCHES: caps on each fit's epochs and each epoch's
#   batches, for a quick run (accuracies are then not compared with the book's).
# PYTHON: the interpreter loom's extension was built for (default: python3); needs numpy, matplotlib.
# D2L_SUITE_REPORT: where the outcomes go (default build/d2l_suite/report.jsonl).
# SECTION: a section's name (lenet, dropout, ...) to run only that one. Each section runs in a
# fresh process (in the report's folder, where the book's files are written), its cells in
# order in one namespace; a cell after a failure still runs.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$(dirname "$here")")
book=$(cd "${D2L_DIR:?set D2L_DIR to a checkout of d2l-ai/d2l-en}" && pwd)
if [[ ! -f "$book/d2l/torch.py" || ! -d "$book/chapter_convolutional-modern" ]]; then
  echo "run.sh: $D2L_DIR is not a d2l-en checkout (no d2l/torch.py, chapter_convolutional-modern/)" >&2
  exit 2
fi
report=${D2L_SUITE_REPORT:-$root/build/d2l_suite/report.jsonl}
python=${PYTHON:-python3}
export PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}"
"$python" "$here/suite.py" --book "$book" --report "$report" "$@"
exec "$python" "$here/summarize.py" "$report" --known "$here/known_failures.txt"
