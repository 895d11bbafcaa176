"""Every examples/*.py runs on its own, as `python examples/NAME.py`, on cpu() (LOOM_DEVICE=cpu),
exits with status 0 and prints something. examples/nn_digits.py runs on its own in
test_examples_nn.py (20 epochs, on cpu() and a GPU); here, without scikit-learn, it must say so
in one line and exit with status 2. distributed_train.py runs as a job of one process (test_distributed.py
runs it under the launcher)."""
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))
ELSEWHERE = {"nn_digits.py": "test_examples_nn.py runs it (20 epochs, about 10 s on 2 cores)"}
# What each example prints when it has run to its end.
LAST_WORDS = {"tour.py": "tour done.", "nn_basics.py": "error in estimating w",
              "distributed_train.py": "parameters identical on every rank: True"}


def run(example, *args, **env):
    env = dict(os.environ, LOOM_DEVICE="cpu", **env)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "python"), os.environ.get("PYTHONPATH", "")])
    for name in ("RANK", "WORLD_SIZE", "LOCAL_RANK", "MASTER_ADDR", "MASTER_PORT"):
        env.pop(name, None)  # a standalone run, not a rank of some outer job
    return subprocess.run([sys.executable, "-X", "faulthandler", "-u", str(example), *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("example", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_runs_on_its_own(example):
    if example.name in ELSEWHERE:
        pytest.skip(ELSEWHERE[example.name])
    r = run(example)
    assert r.returncode == 0, f"{example.name} exited with {r.returncode}:\n{r.stdout}\n{r.stderr}"
    assert r.stdout.strip(), f"{example.name} printed nothing"
    if example.name in LAST_WORDS:
        assert LAST_WORDS[example.name] in r.stdout, r.stdout


def test_digits_without_scikit_learn_says_so_in_one_line(tmp_path):
    # A folder early on the path whose `sklearn` cannot be imported stands for a missing package.
    (tmp_path / "sklearn").mkdir()
    (tmp_path / "sklearn" / "__init__.py").write_text("raise ImportError('No module named sklearn')\n")
    env = {"PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT / "python")])}
    r = subprocess.run([sys.executable, str(ROOT / "examples" / "nn_digits.py")], cwd=ROOT, capture_output=True,
                       text=True, timeout=120, env=dict(os.environ, LOOM_DEVICE="cpu", **env))
    assert r.returncode == 2, r.stdout + r.stderr
    assert r.stderr.strip() == "nn_digits.py needs scikit-learn: pip install scikit-learn" and not r.stdout
