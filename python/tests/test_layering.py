"""The layering of loom's C++ tree holds (DESIGN.md §1): tools/check_layers.py reports every
include of a higher layer, every op that reaches a backend without dispatch(), and every
source file over 500 lines."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "tools", "check_layers.py")


def run_check():
    return subprocess.run([sys.executable, SCRIPT], capture_output=True, text=True)


def test_no_layer_includes_a_higher_one():
    r = run_check()
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.fixture
def check_layers(tmp_path, monkeypatch):
    """tools/check_layers.py as a module, looking at the tree planted under tmp_path."""
    sys.path.insert(0, os.path.dirname(SCRIPT))
    try:
        import check_layers as module
    finally:
        sys.path.pop(0)
    monkeypatch.setattr(module, "ROOT", str(tmp_path))
    return module


def test_the_check_catches_an_upward_include(tmp_path, check_layers):
    # The check itself must be able to fail: a core header that includes ops/ is reported.
    (tmp_path / "loom" / "core").mkdir(parents=True)
    (tmp_path / "loom" / "ops").mkdir(parents=True)
    (tmp_path / "loom" / "ops" / "sorting.h").write_text("#pragma once\n")
    (tmp_path / "loom" / "core" / "dtype.h").write_text('#include "loom/ops/sorting.h"\n')
    (tmp_path / "loom" / "ops" / "sorting.cpp").write_text("void f() { cpu_backend::sort(); }\n")
    errors = check_layers.check_includes(check_layers.tracked_files("loom"))
    assert any("loom/core/dtype.h (core) includes loom/ops/sorting.h (ops)" in e for e in errors), errors
    errors = check_layers.check_dispatch_only(check_layers.tracked_files("loom"))
    assert any("loom/ops/sorting.cpp:1" in e for e in errors), errors


def test_only_a_primitives_rows_name_its_evals(tmp_path, check_layers):
    # ops/<family>_primitives.cpp names the evals in its rows (its last `namespace loom {`
    # block); a rule above them that calls a backend directly is reported.
    (tmp_path / "loom" / "ops").mkdir(parents=True)
    (tmp_path / "loom" / "ops" / "sorting_primitives.cpp").write_text(
        "namespace loom::batch {\nvoid rule() { gpu_backend::sort_last_axis(); }\n}\n\n"
        "namespace loom {\nconst Primitive<F> primitives::sort{info, cpu_backend::sort_last_axis,\n"
        "    gpu_backend::sort_last_axis};\n}\n")
    errors = check_layers.check_dispatch_only(check_layers.tracked_files("loom"))
    assert [e.split(": ")[0] for e in errors] == ["loom/ops/sorting_primitives.cpp:2"], errors


def test_the_distributed_layer_picks_transports_through_its_table(tmp_path, check_layers):
    # process_group.cpp testing the device kind itself, and a collective that includes a
    # transform (its sibling layer), are reported; the table's own rows may know the kinds.
    d = tmp_path / "loom" / "distributed"
    d.mkdir(parents=True)
    (tmp_path / "loom" / "transforms").mkdir(parents=True)
    (tmp_path / "loom" / "transforms" / "jit.h").write_text("#pragma once\n")
    (d / "process_group.cpp").write_text('#include "loom/transforms/jit.h"\nbool f(const Array& x) { return x.device().is_cpu(); }\n')
    (d / "transports.cpp").write_text("bool g(const Device& d) { return d.is_gpu(); }\n")
    files = check_layers.tracked_files("loom")
    errors = check_layers.check_transport_table(files)
    assert [e.split(": ")[0] for e in errors] == ["loom/distributed/process_group.cpp:2"], errors
    errors = check_layers.check_includes(files)
    assert any("sibling layer" in e and "process_group.cpp" in e for e in errors), errors
