"""Every test file that launches kernels with barriers runs once more with the CPU emulator on
fibers (LOOM_EMULATOR_FISSION=0), in a child pytest on cpu() alone. The default run takes the
kernels' whole-block forms (loop fission), so the two runs together hold fission against the
fibers on every existing emulator test, each against its own NumPy reference (issue 42)."""
import os
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
BARRIER = re.compile(r"syncthreads|this_grid\(\)|syncwarp")


def barrier_test_files():
    """The test files whose source names a barrier, this one aside (it would run itself)."""
    return sorted(str(p) for p in HERE.glob("test_*.py")
                  if p.name != Path(__file__).name and BARRIER.search(p.read_text()))


def test_barrier_tests_pass_on_fibers():
    files = barrier_test_files()
    assert any(f.endswith("test_emulator_fission.py") for f in files), files
    env = dict(os.environ, LOOM_EMULATOR_FISSION="0", CUDA_VISIBLE_DEVICES="")
    env.pop("LOOM_REQUIRE_GPU", None)  # no GPU in the child: its GPU tests skip
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *files],
                         cwd=HERE.parent.parent, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-3000:]
    assert " passed" in run.stdout.splitlines()[-1], run.stdout[-2000:]
