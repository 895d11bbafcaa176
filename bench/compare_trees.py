"""Two builds of loom against each other on bench/host_overhead.py's rows, in fresh processes
that alternate (a, b, b, a, ...) so that a drifting machine slows both alike; prints each row's
median over the rounds for each build and their ratio. For "behaviour and speed unchanged"
checks of a refactor (issue 41): build the older tree beside this one, e.g. on a GPU machine

    git archive REV | gzip > old.tar.gz        # where git is, then carry it
    mkdir /tmp/old && tar xzf old.tar.gz -C /tmp/old
    cmake -S /tmp/old -B /tmp/old/build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DLOOM_CUDA=ON \\
      -DPython_EXECUTABLE=$(command -v python3) && cmake --build /tmp/old/build-gpu --target _loom
    python3 bench/compare_trees.py /tmp/old/python python --rounds 4

Each argument is a folder whose `loom` package is imported (PYTHONPATH). The rows' code is
this tree's, so both builds run the same benchmark. A benchmark, never a test.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
from table import print_rows  # noqa: E402


def one_run(pythonpath, reps):
    env = dict(os.environ, PYTHONPATH=os.path.abspath(pythonpath))
    out = subprocess.run([sys.executable, os.path.join(here, "host_overhead.py"), "--json", "--reps", str(reps)],
                         env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", help="the first build's package folder (e.g. the older tree's python/)")
    ap.add_argument("b", help="the second build's package folder")
    ap.add_argument("--rounds", type=int, default=4, help="rounds of (a, b, b, a)")
    ap.add_argument("--reps", type=int, default=5, help="timing rounds inside each run")
    args = ap.parse_args()
    runs = {"a": [], "b": []}
    for r in range(args.rounds):
        for which in ("a", "b", "b", "a"):
            runs[which].append(one_run(getattr(args, which), args.reps))
            print(f"round {r + 1}: {which} done", file=sys.stderr, flush=True)
    lines = []
    for row in runs["a"][0]:
        ma = statistics.median(v[row] for v in runs["a"])
        mb = statistics.median(v[row] for v in runs["b"])
        lines.append([row, f"{ma:.3f}", f"{mb:.3f}", f"{mb / ma:.3f}"])
    print_rows(["row", "a", "b", "b/a"], lines, title=f"a = {args.a}, b = {args.b}, {2 * args.rounds} runs each")


if __name__ == "__main__":
    main()
