"""loom as users install it (docs/PACKAGING.md): the wheel `pip install .` builds, with and
without CUDA, installed into a fresh venv and used from outside the checkout; and the C++
package `cmake --install` writes, used by a project outside the tree through
find_package(loom).

These build loom again (about a minute warm, each). They reuse the checkout's ccache: their
build folders sit beside build/ (build-wheel/, ...), so with CCACHE_BASEDIR every compile
line matches the main build's. Deselect them with `-m "not packaging"`; `make test` runs them.
"""
import importlib.metadata
import os
import re
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REQUIRE_GPU = os.environ.get("LOOM_REQUIRE_GPU", "") not in ("", "0")
SMOKE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "packaging_smoke.py")

pytestmark = pytest.mark.packaging


def build_env():
    """The environment of the builds: the checkout's ccache (as the Makefile sets it), and
    paths made relative to the checkout in its keys."""
    env = dict(os.environ)
    env.setdefault("CCACHE_BASEDIR", ROOT)
    if os.path.isdir(os.path.join(ROOT, ".ccache")):
        env.setdefault("CCACHE_DIR", os.path.join(ROOT, ".ccache"))
    env.pop("PYTHONPATH", None)
    return env


def main_build_compiler():
    """The C++ compiler of the checkout's build (build/, else build-gpu/). ccache keys on
    the compiler's name as called (c++ and g++ miss each other's entries), and CMake under
    scikit-build-core may pick the other name."""
    for folder in ("build", "build-gpu"):
        cache = os.path.join(ROOT, folder, "CMakeCache.txt")
        if os.path.exists(cache):
            m = re.search(r"^CMAKE_CXX_COMPILER:\w+=(.+)$", open(cache).read(), re.M)
            if m:
                return m.group(1).strip()
    return None


def reset_if_compiler_changed(build_dir, compiler):
    # CMake drops its cache when the compiler changes and configures again without the
    # settings scikit-build-core gave it (the Python found first): start afresh instead.
    cache = os.path.join(build_dir, "CMakeCache.txt")
    if compiler and os.path.exists(cache) and f"CMAKE_CXX_COMPILER:FILEPATH={compiler}\n" not in open(cache).read():
        shutil.rmtree(build_dir)


def run(cmd, **kw):
    r = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kw)
    assert r.returncode == 0, f"{' '.join(map(str, cmd))}\n{r.stdout[-6000:]}\n{r.stderr[-6000:]}"
    return r


def build_wheel(out_dir, build_folder, defines=()):
    # The GPU machine's python3 may lack the build backend (make gpu-test runs offline).
    pytest.importorskip("scikit_build_core", reason="the wheel is built with scikit-build-core, not installed here")
    pytest.importorskip("ensurepip", reason="python3 cannot make a venv here (Debian: python3-venv)")
    dependencies_reachable_or_skip(out_dir)
    build_dir = os.path.join(ROOT, build_folder)
    compiler = main_build_compiler()
    reset_if_compiler_changed(build_dir, compiler)
    args = [f"-Cbuild-dir={build_dir}"] + [f"-Ccmake.define.{d}" for d in defines]
    if compiler:
        args.append(f"-Ccmake.define.CMAKE_CXX_COMPILER={compiler}")
    run([sys.executable, "-m", "pip", "wheel", ROOT, "--no-deps", "--no-build-isolation", "--disable-pip-version-check",
         "-w", out_dir] + args, env=build_env(), cwd=ROOT)
    wheels = [f for f in os.listdir(out_dir) if f.startswith("loom-") and f.endswith(".whl")]
    assert len(wheels) == 1, wheels
    return os.path.join(out_dir, wheels[0])


def dependencies_reachable_or_skip(scratch):
    """Skips before any build (minutes) where the fresh venv could not be filled: the running
    Python lacks one of the wheel's dependencies (whose version the venv pins), or there is
    no LOOM_WHEELHOUSE and pip cannot fetch one (an offline machine, like the GPU machine)."""
    for d in ("numpy", "ml_dtypes", "scipy-openblas32"):
        try:
            importlib.metadata.version(d)
        except importlib.metadata.PackageNotFoundError:
            pytest.skip(f"the running Python lacks {d}, which the fresh venv installs at the same version")
    if os.environ.get("LOOM_WHEELHOUSE"):
        return
    r = subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--disable-pip-version-check", "--no-deps",
                        "--retries", "0", "--timeout", "10", "-d", os.path.join(scratch, "probe"),
                        f"ml_dtypes=={importlib.metadata.version('ml_dtypes')}"], capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip("pip cannot fetch the fresh venv's dependencies here (no network?): set LOOM_WHEELHOUSE to a "
                    "folder of their wheels")


def fresh_venv(tmp_path, wheel):
    """A venv of its own (no system site-packages, no checkout on its path) with the wheel
    and its dependencies, at the versions of the running Python's (pip's cache or PyPI; or
    LOOM_WHEELHOUSE, a folder of their wheels, where there is no network)."""
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", venv])
    py = venv / "bin" / "python"
    pins = tmp_path / "constraints.txt"
    pins.write_text("".join(f"{d}=={importlib.metadata.version(d)}\n" for d in ("numpy", "ml_dtypes", "scipy-openblas32")))
    source = ["--no-index", "--find-links", os.environ["LOOM_WHEELHOUSE"]] if os.environ.get("LOOM_WHEELHOUSE") else []
    r = subprocess.run([py, "-m", "pip", "install", "-q", "--disable-pip-version-check", "-c", pins, *source, wheel],
                       capture_output=True, text=True, env=build_env())
    if r.returncode != 0 and re.search(r"NewConnectionError|Name or service not known|name resolution|No matching "
                                       r"distribution found for (numpy|ml.dtypes|scipy.openblas32)", r.stderr):
        pytest.skip("the fresh venv cannot get numpy, ml_dtypes and scipy-openblas32 (no network): "
                    "set LOOM_WHEELHOUSE to a folder of their wheels")
    assert r.returncode == 0, r.stdout + r.stderr
    return py


def smoke(py, tmp_path, expect_cuda):
    """packaging_smoke.py run by the venv's Python from a folder outside the checkout."""
    work = tmp_path / "elsewhere"
    work.mkdir()
    shutil.copy(SMOKE, work / "smoke.py")
    env = build_env()
    env.pop("LOOM_DEVICE", None)
    r = run([py, "smoke.py", "cuda" if expect_cuda else "cpu"], cwd=work, env=env)
    if REQUIRE_GPU and expect_cuda:
        assert "gpu(0): ok" in r.stdout, r.stdout
    return r.stdout


def wheel_files(wheel):
    import zipfile
    with zipfile.ZipFile(wheel) as z:
        return z.namelist()


def test_cuda_wheel_installs_and_runs_in_a_fresh_venv(tmp_path):
    import loom
    if not loom.build_info()["cuda"]:
        pytest.skip("this checkout is built without CUDA (no toolkit): the CPU-only wheel is tested")
    wheel = build_wheel(tmp_path / "dist", "build-wheel")
    names = wheel_files(wheel)
    # One extension (the in-tree one stays out), the stubs and their marker, every subpackage.
    assert len([n for n in names if re.match(r"loom/_loom\..*\.so$", n)]) == 1, names
    for needed in ("loom/py.typed", "loom/__init__.pyi", "loom/_loom/__init__.pyi", "loom/_loom/linalg.pyi",
                   "loom/nn/__init__.py", "loom/pykernel/__init__.py"):
        assert needed in names
    assert not [n for n in names if "__pycache__" in n or n.endswith(".cpp")]
    py = fresh_venv(tmp_path, wheel)
    out = smoke(py, tmp_path, expect_cuda=True)
    assert "blas: scipy_openblas" in out, out


def test_cpu_only_wheel_installs_and_runs_in_a_fresh_venv(tmp_path):
    wheel = build_wheel(tmp_path / "dist", "build-wheel-cpu", ["LOOM_CUDA=OFF"])
    py = fresh_venv(tmp_path, wheel)
    out = smoke(py, tmp_path, expect_cuda=False)
    assert "cuda: False" in out, out


@pytest.mark.skipif("libasan" in os.environ.get("LD_PRELOAD", ""),
                    reason="make asan-test preloads the ASan runtime into every process, and CMake's "
                           "compiler checks (nvcc's among them) fail under it")
def test_find_package_gives_a_project_outside_the_tree_loom(tmp_path):
    build_dir = os.path.join(ROOT, "build-cmake-package")
    compiler = main_build_compiler()
    reset_if_compiler_changed(build_dir, compiler)
    generator = ["-G", "Ninja"] if shutil.which("ninja") else []
    defines = ["-DCMAKE_BUILD_TYPE=Release", "-DLOOM_PYTHON=OFF", "-DLOOM_TESTS=OFF", f"-DPython_EXECUTABLE={sys.executable}"]
    if compiler:
        defines.append(f"-DCMAKE_CXX_COMPILER={compiler}")
    env = build_env()
    run(["cmake", "-S", ROOT, "-B", build_dir, *generator, *defines], env=env)
    # `make test` passes its JOBS; elsewhere (the GPU machine's pytest) every core helps:
    # this is a whole build of the library in its own folder.
    run(["cmake", "--build", build_dir, "-j", os.environ.get("JOBS") or str(os.cpu_count() or 2)], env=env)
    prefix = tmp_path / "prefix"
    run(["cmake", "--install", build_dir, "--prefix", prefix], env=env)
    assert (prefix / "lib" / "cmake" / "loom" / "loomConfig.cmake").exists()
    assert (prefix / "lib" / "cmake" / "loom" / "loomConfigVersion.cmake").exists()
    assert (prefix / "include" / "loom" / "loom.h").exists()
    assert (prefix / "include" / "loom" / "common" / "loom_math.cuh").exists()
    assert not list(prefix.rglob("test_*.h")), "test helpers were installed"

    consumer = tmp_path / "consumer"
    run(["cmake", "-S", os.path.join(ROOT, "examples", "cmake_consumer"), "-B", consumer, *generator,
         f"-DCMAKE_PREFIX_PATH={prefix}"], env=env)
    run(["cmake", "--build", consumer], env=env)
    out = run([consumer / "loom_consumer"], cwd=tmp_path).stdout
    assert "on cpu()" in out and "worst relative error" in out, out

    # A version the installed package does not satisfy is refused.
    (tmp_path / "wrong").mkdir()
    (tmp_path / "wrong" / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.18)\nproject(w LANGUAGES CXX)\nfind_package(loom 1.0 REQUIRED)\n")
    r = subprocess.run(["cmake", "-S", tmp_path / "wrong", "-B", tmp_path / "wrong-build", f"-DCMAKE_PREFIX_PATH={prefix}"],
                       capture_output=True, text=True, env=env)
    assert r.returncode != 0 and "version: 0.1.0" in r.stderr, r.stderr
