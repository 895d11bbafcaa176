"""The CPU kernel emulator's precompiled header (issue 19): a .gch truncated to half made every
later emulator compile fail, in every process, until someone deleted it. Damaged (truncated,
zeroed, junk), it is now found by the checksum its name carries, removed and rebuilt, and
the next compile in a new process succeeds. (pch_test.cpp: the same process, and a header
g++ cannot read although its checksum matches.)"""
import os
import subprocess
import sys
import uuid

import pytest

import loom

# Compiles a never-seen kernel on cpu() (so the compile needs the PCH) and checks its answer.
_CHILD = """
import sys
import numpy as np
import loom
c = int(sys.argv[1])
src = ('extern "C" __global__ void k(const float* x, float* y) {'
       f' y[threadIdx.x] = x[threadIdx.x] * {c}.0f; }}')
x = np.random.default_rng(c).standard_normal(16).astype(np.float32)
y = loom.zeros(16, dtype=loom.float32, device=loom.cpu())
loom.RawKernel(src, "k")((1,), (16,), (loom.asarray(x, device=loom.cpu()), y))
np.testing.assert_allclose(y.numpy(), x * np.float32(c), rtol=1e-6)
"""


def _compile_in_new_process(root):
    env = dict(os.environ, LOOM_CACHE_DIR=str(root))
    c = 1 + uuid.uuid4().int % 100000
    r = subprocess.run([sys.executable, "-c", _CHILD, str(c)], env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr


def _headers(root):
    folder = root / "host-pch"
    return sorted(folder / n for n in os.listdir(folder) if n.endswith(".gch")) if folder.is_dir() else []


def _gcc_host():
    r = subprocess.run([os.environ.get("CXX") or "g++", "--version"], capture_output=True, text=True)
    return r.returncode == 0 and ("GCC" in r.stdout or "g++" in r.stdout)


pytestmark = pytest.mark.skipif(not _gcc_host(), reason="precompiled headers are g++'s")


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    folder = tmp_path_factory.mktemp("pch-cache")
    _compile_in_new_process(folder)
    return folder


@pytest.mark.parametrize("damage", ["half", "zeros", "junk"])
def test_damaged_header_is_rebuilt_by_the_next_process(root, damage):
    (gch,) = _headers(root)
    good = gch.read_bytes()
    assert good[:4] == b"gpch"
    assert os.stat(gch).st_mode & 0o777 == 0o600
    assert os.stat(root / "host-pch").st_mode & 0o777 == 0o700
    bad = {"half": good[: len(good) // 2], "zeros": bytes(len(good)), "junk": b"junk" * 1000}[damage]
    gch.write_bytes(bad)
    _compile_in_new_process(root)
    (rebuilt,) = _headers(root)
    data = rebuilt.read_bytes()
    assert data[:4] == b"gpch" and len(data) > len(good) // 2 and data != bad
