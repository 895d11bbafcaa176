#!/usr/bin/env python3
"""Checks that loom's layering holds (DESIGN.md §1): no file includes a higher layer, no
code outside a cuda/ folder includes one inside it, ops reach backends only through
dispatch(), the distributed layer picks transports through its table, and no source file
passes 500 lines; the Python package's subpackages keep their
order and hide no import cycle in a function (check_layers_python.py, which holds the order).
Prints each violation; exit status 1 if any.

Run from anywhere: python3 tools/check_layers.py. python/tests/test_layering.py runs it."""
import os
import re
import sys

import check_layers_python

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Lowest first. A file may include its own layer and lower ones.
LAYERS = ["common", "core", "cache", "runtime", "array", "graph", "backend", "dispatch", "ops", "kernel", "transforms"]
# Folders beside a layer, at its height: each may include what that layer may, but not the
# layer itself nor the other way round (collectives need no transform; transforms no rank).
SIBLINGS = {"distributed": "transforms"}
TOP = len(LAYERS)  # loom/*.h|cpp: the umbrella header and build info
MAX_LINES = 500
SOURCE_EXT = (".h", ".cpp", ".cuh", ".cu", ".py")
# Built at build time, not in the tree.
GENERATED = {"loom_embedded_kernels.h", "loom_emulator_header.h", "loom_blas_prefix.h"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer_of(rel):
    """The layer index of a path under loom/ (e.g. 'loom/ops/sorting.cpp' -> 8)."""
    parts = rel.split("/")
    if len(parts) == 2:
        return TOP
    name = SIBLINGS.get(parts[1], parts[1])
    return LAYERS.index(name) if name in LAYERS else None


def folder_of(rel):
    parts = rel.split("/")
    return parts[1] if len(parts) > 2 else ""


def is_test(rel):
    name = os.path.basename(rel)
    return name.endswith("_test.cpp") or name.startswith("test_") or "test_util" in name


def in_cuda_folder(rel):
    return "/cuda/" in rel


def tracked_files(sub):
    out = []
    for dirpath, _, names in os.walk(os.path.join(ROOT, sub)):
        for n in names:
            out.append(os.path.relpath(os.path.join(dirpath, n), ROOT))
    return sorted(out)


def bare_header_index(files):
    """Headers named bare ("loom_cast.cuh"), as the .cuh files and NVRTC name each other."""
    return {os.path.basename(f): f for f in files if f.endswith(".cuh")}


def resolve(inc, rel, bare):
    if inc.startswith("loom/"):
        return inc
    if inc in bare:
        return bare[inc]
    local = os.path.normpath(os.path.join(os.path.dirname(rel), inc))
    return local if os.path.exists(os.path.join(ROOT, local)) else None


def check_includes(files):
    bare = bare_header_index(files)
    errors = []
    for rel in files:
        if not rel.endswith(SOURCE_EXT[:-1]) or is_test(rel):
            continue
        mine = layer_of(rel)
        text = open(os.path.join(ROOT, rel), encoding="utf-8").read()
        for inc in INCLUDE.findall(text):
            if inc in GENERATED:
                continue
            target = resolve(inc, rel, bare)
            if target is None:
                errors.append(f"{rel}: includes \"{inc}\", which is not in the tree")
                continue
            theirs = layer_of(target)
            if mine is not None and theirs is not None and theirs > mine:
                errors.append(f"{rel} ({layer_name(mine)}) includes {target} ({layer_name(theirs)}), a higher layer")
            elif mine is not None and mine == theirs and folder_of(rel) != folder_of(target) and \
                    {folder_of(rel), folder_of(target)} & set(SIBLINGS):
                errors.append(f"{rel} ({folder_of(rel)}) includes {target} ({folder_of(target)}), a sibling layer")
            if in_cuda_folder(target) and not in_cuda_folder(rel):
                errors.append(f"{rel} includes {target}: only cuda/ folders may include cuda/ headers")
    return errors


def layer_name(i):
    return LAYERS[i] if i < TOP else "top"


# ops/ and the user-kernel front (kernel/*.cpp) reach an eval only through dispatch(); a
# primitive's row (ops/<family>_primitives.cpp) is where its evals are named.
BACKEND_NAME = re.compile(r"\b(cpu_backend|gpu_backend)::")
DEVICE_KIND = re.compile(r"\.is_(cpu|gpu)\(\)")


def rows_block_start(rel, lines):
    """The first line of a family's rows (ops/<family>_primitives.cpp ends with them, in the last
    `namespace loom {` block): the one place that names a primitive's evals. 1 + len(lines)
    (no such block) for every other file."""
    if not re.match(r"loom/ops/[a-z_]+_primitives\.cpp$", rel):
        return len(lines) + 1
    starts = [n for n, line in enumerate(lines, 1) if line == "namespace loom {"]
    return starts[-1] if starts else len(lines) + 1


# The distributed layer picks a transport by the array's device kind through one table
# (distributed/transports.*, its rows the one place that knows the kinds).
def check_transport_table(files):
    errors = []
    for rel in files:
        if is_test(rel) or not rel.endswith((".cpp", ".h")) or not re.match(r"loom/distributed/[^/]+$", rel):
            continue
        if os.path.basename(rel).startswith("transports."):
            continue
        for n, line in enumerate(open(os.path.join(ROOT, rel), encoding="utf-8"), 1):
            if DEVICE_KIND.search(line.split("//", 1)[0]):
                errors.append(f"{rel}:{n}: chooses by device kind; distributed/transports.h does that")
    return errors


def check_dispatch_only(files):
    errors = []
    for rel in files:
        if is_test(rel) or not rel.endswith((".cpp", ".h")):
            continue
        if not (rel.startswith("loom/ops/") or re.match(r"loom/kernel/[^/]+$", rel)):
            continue
        lines = open(os.path.join(ROOT, rel), encoding="utf-8").read().split("\n")
        rows_from = rows_block_start(rel, lines)
        for n, line in enumerate(lines, 1):
            code = line.split("//", 1)[0]
            if BACKEND_NAME.search(code) and n < rows_from:
                errors.append(f"{rel}:{n}: calls a backend directly instead of through dispatch()")
            if DEVICE_KIND.search(code):
                errors.append(f"{rel}:{n}: chooses by device kind; dispatch() does that")
    return errors


def check_lengths(files):
    errors = []
    for rel in files:
        if not rel.endswith(SOURCE_EXT):
            continue
        with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
            n = sum(1 for _ in f)
        if n > MAX_LINES:
            errors.append(f"{rel}: {n} lines (at most {MAX_LINES})")
    return errors


def main():
    loom_files = tracked_files("loom")
    python_files = [f for f in tracked_files("python") if "/_loom" not in f and "__pycache__" not in f]
    errors = check_includes(loom_files) + check_dispatch_only(loom_files) + check_transport_table(loom_files)
    errors += check_lengths(loom_files + python_files + tracked_files("bench") + tracked_files("examples"))
    errors += check_layers_python.check(ROOT)
    for e in errors:
        print(e)
    print(f"check_layers: {len(errors)} problem(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
