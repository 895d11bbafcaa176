"""The list of primitives (docs/PRIMITIVES.md) is generated from the records the extension
holds, and stays current; every traceable primitive states its transform rules (the C++
test ops/primitive_list_test.cpp checks the same from the records themselves)."""
import os
import subprocess
import sys

from loom import _loom

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_the_page_of_primitives_is_current():
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "gen_primitive_list.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, "docs/PRIMITIVES.md is stale: run tools/gen_primitive_list.py\n" + r.stderr


def test_every_traceable_primitive_states_its_rules():
    rows = _loom._primitives()
    names = {r["name"] for r in rows}
    assert {"add", "sort", "matmul", "conv2d", "fft_c2c", "kernel_launch"} <= names
    for r in rows:
        if r["traceable"]:
            assert r["vjp"] or r["no_vjp"], r
            assert r["batch"] or r["no_batch"], r
