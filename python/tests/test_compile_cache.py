"""The compile cache seen from Python: `python -m loom info` names its folder, the folder
follows the environment, and a second process gets its kernels from the disk without
NVRTC (loom._loom._compile_for_testing compiles for an arch with no GPU needed). On cpu():
damaged, copied or foreign entries of the emulator's libraries are never loaded and the
kernel is rebuilt (issue 19)."""
import json
import os
import subprocess
import sys
import uuid

import numpy as np
import pytest

import loom
from loom import _loom

needs_cuda = pytest.mark.skipif(not loom.build_info()["cuda"], reason="loom built without CUDA")

# A script run in a fresh interpreter: compiles the kernel once and prints the counters.
_CHILD = """
import json, sys
import loom
print(json.dumps(loom._loom._compile_for_testing(sys.argv[1], "loom_scale", 90)))
"""


def _kernel_source():
    # A never-seen kernel (fresh constant), so the first compile is a real miss.
    c = uuid.uuid4().int % 100000
    return f'extern "C" __global__ void loom_scale(float* x) {{ x[threadIdx.x] *= {c}.0f; }}\n'


def _env(**overrides):
    env = dict(os.environ)
    for k, v in overrides.items():
        if v is None:
            env.pop(k, None)
        else:
            env[k] = v
    return env


def _run(args, env):
    r = subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    return r.stdout


def _entries(folder):
    return sorted(os.listdir(folder)) if os.path.isdir(folder) else []


def test_info_names_the_cache_folder(tmp_path):
    out = _run(["-m", "loom", "info"], _env(LOOM_CACHE_DIR=str(tmp_path / "kc")))
    line = next(ln for ln in out.splitlines() if "kernel cache:" in ln)
    assert str(tmp_path / "kc") in line


def test_info_follows_xdg_and_disable(tmp_path):
    out = _run(["-m", "loom", "info"], _env(LOOM_CACHE_DIR=None, XDG_CACHE_HOME=str(tmp_path)))
    assert os.path.join(str(tmp_path), "loom") in out
    out = _run(["-m", "loom", "info"], _env(LOOM_DISABLE_DISK_CACHE="1"))
    line = next(ln for ln in out.splitlines() if "kernel cache:" in ln)
    assert "memory only" in line and os.environ["LOOM_CACHE_DIR"] not in line


def test_cache_dir_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("LOOM_CACHE_DIR", str(tmp_path))
    assert _loom._compile_cache_dir() == str(tmp_path)
    monkeypatch.setenv("LOOM_CACHE_DIR", "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert _loom._compile_cache_dir() == str(tmp_path / "xdg" / "loom")
    monkeypatch.setenv("LOOM_DISABLE_DISK_CACHE", "1")
    assert _loom._compile_cache_dir() == ""


def test_tests_never_use_the_real_cache():
    assert _loom._compile_cache_dir() == os.environ["LOOM_CACHE_DIR"]
    assert not _loom._compile_cache_dir().startswith(os.path.expanduser("~/.cache"))


@needs_cuda
def test_second_process_hits_the_disk(tmp_path):
    env = _env(LOOM_CACHE_DIR=str(tmp_path))
    src = _kernel_source()
    first = json.loads(_run(["-c", _CHILD, src], env))
    assert first["misses"] == 1 and first["disk_hits"] == 0 and first["disk_writes"] == 1
    assert first["compile_seconds"] > 0
    assert len(_entries(tmp_path / "nvrtc")) == 1
    second = json.loads(_run(["-c", _CHILD, src], env))
    assert second["disk_hits"] == 1 and second["misses"] == 0, second
    assert second["compile_seconds"] == 0
    # Another arch is another entry.
    third = json.loads(_run(["-c", _CHILD.replace('"loom_scale", 90', '"loom_scale", 80'), src], env))
    assert third["misses"] == 1
    assert len(_entries(tmp_path / "nvrtc")) == 2


@needs_cuda
def test_memory_hits_and_clear_memory():
    src = _kernel_source()
    s0 = _loom._compile_cache_stats()
    _loom._compile_for_testing(src, "loom_scale", 90)
    s1 = _loom._compile_for_testing(src, "loom_scale", 90)
    assert s1["misses"] == s0["misses"] + 1
    assert s1["memory_hits"] == s0["memory_hits"] + 1
    _loom._compile_cache_clear_memory()
    s2 = _loom._compile_for_testing(src, "loom_scale", 90)
    assert s2["disk_hits"] == s1["disk_hits"] + 1 and s2["misses"] == s1["misses"]


@needs_cuda
def test_compile_errors_raise_and_are_not_cached(tmp_path, monkeypatch):
    monkeypatch.setenv("LOOM_CACHE_DIR", str(tmp_path))
    bad = 'extern "C" __global__ void loom_scale(float* x) { undeclared_thing(x); }'
    s0 = _loom._compile_cache_stats()
    for _ in range(2):
        with pytest.raises(loom.CompileError, match="undeclared_thing"):
            _loom._compile_for_testing(bad, "loom_scale", 90)
    assert _loom._compile_cache_stats()["failed_compiles"] == s0["failed_compiles"] + 2
    assert _entries(tmp_path / "nvrtc") == []


@needs_cuda
def test_unwritable_folder_still_compiles(tmp_path, monkeypatch):
    (tmp_path / "file").write_text("x")
    monkeypatch.setenv("LOOM_CACHE_DIR", str(tmp_path / "file" / "cache"))
    s0 = _loom._compile_cache_stats()
    s1 = _loom._compile_for_testing(_kernel_source(), "loom_scale", 90)
    assert s1["misses"] == s0["misses"] + 1
    assert s1["disk_write_errors"] == s0["disk_write_errors"] + 1


@pytest.mark.skipif(loom.build_info()["cuda"], reason="loom built with CUDA")
def test_without_cuda_compiling_is_unsupported():
    with pytest.raises(NotImplementedError):
        _loom._compile_for_testing(_kernel_source(), "loom_scale", 90)


# ---- damaged, copied and foreign entries of the host compiler's cache (kind "host", cpu()) ----

def _scale_kernel(c):
    src = ('extern "C" __global__ void k(const float* x, float* y, int n) {'
           f' int i = threadIdx.x; if (i < n) y[i] = x[i] * {c}.0f + 0.5f; }}')
    return loom.RawKernel(src, "k")


def _check(c, rng):
    """A fresh kernel object for constant c on cpu(), launched and compared with NumPy."""
    x = rng.standard_normal(29).astype(np.float32)
    expect = x * np.float32(c) + np.float32(0.5)
    y = loom.zeros(29, dtype=loom.float32, device=loom.cpu())
    _scale_kernel(c)((1,), (32,), (loom.asarray(x, device=loom.cpu()), y, np.int32(29)))
    np.testing.assert_allclose(y.numpy(), expect, rtol=1e-6)


@pytest.fixture(scope="module")
def _host_root(tmp_path_factory):
    # One folder for these tests: the emulator's precompiled header is built once.
    return tmp_path_factory.mktemp("host-cache")


@pytest.fixture
def host_cache(_host_root, monkeypatch):
    """The test's cache folder, a function that compiles constant c and gives its entry,
    and one that runs c again as a new process would."""
    tmp_path = _host_root
    monkeypatch.setenv("LOOM_CACHE_DIR", str(tmp_path))
    _loom._compile_cache_clear_memory()
    rng = np.random.default_rng(19)

    def entry_of(c):
        before = set(_entries(tmp_path / "host"))
        _check(c, rng)
        new = set(_entries(tmp_path / "host")) - before
        assert len(new) == 1, new
        return tmp_path / "host" / new.pop()

    def rerun(c):
        """Runs c again as a new process would see the disk; returns the counters' changes."""
        _loom._compile_cache_clear_memory()  # (no kernel object of c is alive: nothing loaded)
        s0 = _loom._compile_cache_stats()
        _check(c, rng)
        s1 = _loom._compile_cache_stats()
        return {k: s1[k] - s0[k] for k in ("disk_hits", "misses", "bad_entries", "foreign", "disk_writes")}

    yield tmp_path, entry_of, rerun
    _loom._compile_cache_clear_memory()
    os.chmod(tmp_path / "host", 0o700)


def _unique():
    return 1000 + uuid.uuid4().int % 100000


def test_host_entries_and_folders_are_owner_only(host_cache):
    root, entry_of, rerun = host_cache
    path = entry_of(_unique())
    assert os.stat(root / "host").st_mode & 0o777 == 0o700
    assert os.stat(path).st_mode & 0o777 == 0o600


@pytest.mark.parametrize("damage", ["truncated", "header", "key", "payload", "empty"])
def test_damaged_host_entry_is_rebuilt(host_cache, damage):
    _, entry_of, rerun = host_cache
    c = _unique()
    path = entry_of(c)
    b = bytearray(path.read_bytes())
    if damage == "truncated":
        b = b[: len(b) // 2]
    elif damage == "empty":
        b = b""
    else:
        b[{"header": 9, "key": 20, "payload": len(b) - 100}[damage]] ^= 0x10
    path.write_bytes(bytes(b))
    d = rerun(c)
    assert d["bad_entries"] == 1 and d["misses"] == 1 and d["disk_writes"] == 1, d
    assert rerun(c)["disk_hits"] == 1  # the rebuilt entry is good


def test_entry_copied_under_another_key_never_loads(host_cache):
    _, entry_of, rerun = host_cache
    a, b = _unique(), _unique() + 1
    pa, pb = entry_of(a), entry_of(b)
    # A's entry at B's path, with B's key in its header: the old checksum (of the payload
    # only) still matched, and B's kernel object ran A's code.
    planted = bytearray(pa.read_bytes())
    planted[16:32] = pb.read_bytes()[16:32]
    pb.write_bytes(bytes(planted))
    d = rerun(b)  # _check compares with B's constant
    assert d["bad_entries"] == 1 and d["misses"] == 1, d
    pb.write_bytes(pa.read_bytes())  # unpatched: its stored key is not B's
    assert rerun(b)["bad_entries"] == 1


@pytest.mark.parametrize("bits", [0o020, 0o002])
def test_host_entry_others_can_write_is_not_loaded(host_cache, bits):
    _, entry_of, rerun = host_cache
    c = _unique()
    path = entry_of(c)
    os.chmod(path, 0o600 | bits)
    d = rerun(c)
    assert d["disk_hits"] == 0 and d["misses"] == 1, d
    assert os.stat(path).st_mode & 0o777 == 0o600  # replaced by a private one


@pytest.mark.parametrize("bits", [0o020, 0o002])
def test_host_folder_others_can_write_is_refused(host_cache, bits):
    root, entry_of, rerun = host_cache
    c = _unique()
    path = entry_of(c)
    before = path.read_bytes()
    os.chmod(root / "host", 0o700 | bits)
    d = rerun(c)
    assert d["disk_hits"] == 0 and d["misses"] == 1 and d["foreign"] >= 1 and d["disk_writes"] == 0, d
    assert path.read_bytes() == before  # left alone


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to chown")
def test_host_entry_of_another_user_is_never_read_nor_overwritten(host_cache):
    _, entry_of, rerun = host_cache
    c = _unique()
    path = entry_of(c)
    before = path.read_bytes()
    os.chown(path, 65534, 65534)
    d = rerun(c)
    assert d["disk_hits"] == 0 and d["foreign"] == 1 and d["disk_writes"] == 0, d
    assert path.read_bytes() == before and os.stat(path).st_uid == 65534


# The lookup Python code keeps its artefacts through (the Python-kernel translations).
def test_python_lookup_compiles_once_and_keeps_failures_out(tmp_path, monkeypatch):
    monkeypatch.setenv("LOOM_CACHE_DIR", str(tmp_path))
    key = uuid.uuid4().bytes
    calls = []

    def compile():
        calls.append(1)
        return b"payload \xff"

    assert _loom._compile_cache_get_or_compile("pytest", key, compile) == b"payload \xff"
    assert _loom._compile_cache_get_or_compile("pytest", key, compile) == b"payload \xff"
    assert len(calls) == 1
    _loom._compile_cache_clear_memory()
    assert _loom._compile_cache_get_or_compile("pytest", key, compile) == b"payload \xff"  # from disk
    assert len(calls) == 1
    # A validator that refuses the disk payload: a bad entry, rebuilt.
    _loom._compile_cache_clear_memory()
    s0 = _loom._compile_cache_stats()
    assert _loom._compile_cache_get_or_compile("pytest", key, compile, lambda p: False) == b"payload \xff"
    assert len(calls) == 2 and _loom._compile_cache_stats()["bad_entries"] == s0["bad_entries"] + 1

    other = uuid.uuid4().bytes

    def fails():
        raise KeyError("no translation")

    for _ in range(2):
        with pytest.raises(KeyError, match="no translation"):
            _loom._compile_cache_get_or_compile("pytest", other, fails)
    with pytest.raises(TypeError, match="must return bytes"):
        _loom._compile_cache_get_or_compile("pytest", other, lambda: "text")
    assert len(_entries(tmp_path / "pytest")) == 1
    with pytest.raises(ValueError, match="kind"):
        _loom._compile_cache_get_or_compile("../escape", key, compile)


def test_python_lookup_from_threads_waits_for_one_compile(tmp_path, monkeypatch):
    # Each thread releases the GIL while it waits for the key another thread is compiling
    # (under the GIL, in its callback): a deadlock here would hang the test.
    import threading
    import time
    monkeypatch.setenv("LOOM_CACHE_DIR", str(tmp_path))
    key, calls, results = uuid.uuid4().bytes, [], []

    def compile():
        calls.append(1)
        time.sleep(0.2)
        return b"once"

    threads = [threading.Thread(target=lambda: results.append(
        _loom._compile_cache_get_or_compile("pytest", key, compile))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert results == [b"once"] * 4 and len(calls) == 1
