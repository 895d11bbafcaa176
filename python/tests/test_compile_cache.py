"""The compile cache seen from Python: `python -m loom info` names its folder, the folder
follows the environment, and a second process gets its kernels from the disk without
NVRTC (loom._loom._compile_for_testing compiles for an arch with no GPU needed)."""
import json
import os
import subprocess
import sys
import uuid

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
