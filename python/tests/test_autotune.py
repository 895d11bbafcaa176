"""loom.autotune: the report of block="auto" choices, the search's bookkeeping (with a
Python timer, no GPU needed), and a real block="auto" launch on the GPU."""
import itertools

import numpy as np
import pytest

import loom
import loom.autotune as at

_counter = itertools.count()


def unique(name):
    """A kernel name no earlier test (or earlier run in this process) has used."""
    return f"{name}_{next(_counter)}_{np.random.default_rng().integers(1 << 40)}"


@pytest.fixture(autouse=True)
def fresh_memory():
    at.clear()
    yield
    at.clear()


def test_module_and_docstrings():
    assert loom.autotune is at
    for f in (at.report, at.clear):
        assert f.__doc__ and len(f.__doc__) > 40


def test_report_structure_and_fastest_choice():
    name = unique("fake")
    timed = []

    def time(block):
        timed.append(block)
        return {(256, 1, 1): 0.5, (512, 1, 1): 0.75}.get(block, 2.0 + block[0] / 1e4)

    assert at.report() == []
    assert at._choose_for_testing(name, 1_000_000, 1024, time) == (256, 1, 1)
    assert sorted(timed) == [(64, 1, 1), (128, 1, 1), (256, 1, 1), (512, 1, 1), (1024, 1, 1)]
    (r,) = at.report()
    assert set(r) == {"kernel", "device", "size_class", "block", "best_ms", "candidates", "from_disk"}
    assert r["kernel"] == name
    assert r["device"] == "test device"
    assert r["size_class"] == "1048576x1x1"
    assert r["block"] == (256, 1, 1) and isinstance(r["block"], tuple)
    assert r["best_ms"] == 0.5
    assert r["candidates"] == 5
    assert r["from_disk"] is False

    # Same size class: remembered, nothing timed again.
    assert at._choose_for_testing(name, 600_000, 1024, time) == (256, 1, 1)
    assert len(timed) == 5 and len(at.report()) == 1


def test_clear_then_the_cache_answers_without_timing():
    name = unique("fake2d")
    timed = []

    def time(block):
        timed.append(block)
        return 0.1 if block == (32, 8, 1) else 1.0

    assert at._choose_for_testing(name, (3000, 2000), 1024, time) == (32, 8, 1)
    n = len(timed)
    assert n >= 6
    at.clear()
    assert at.report() == []
    assert at._choose_for_testing(name, (3000, 2000), 1024, time) == (32, 8, 1)
    assert len(timed) == n
    (r,) = at.report()
    assert r["from_disk"] is True and r["best_ms"] == 0.1 and r["candidates"] == n


def test_failing_candidates_are_skipped_and_all_failing_raises_the_first():
    name = unique("fails")

    def time(block):
        if block[0] >= 512:
            raise ValueError(f"block {block} needs too many registers")
        return 1.0 / block[0]

    assert at._choose_for_testing(name, 1 << 20, 1024, time) == (256, 1, 1)
    assert at.report()[0]["candidates"] == 3

    def never(block):
        raise ValueError(f"cannot run {block}")

    with pytest.raises(ValueError, match=r"cannot run \(64, 1, 1\)"):
        at._choose_for_testing(unique("never"), 1 << 20, 1024, never)
    assert len(at.report()) == 1


def test_candidate_blocks():
    assert at._candidate_blocks(1 << 20) == [(64, 1, 1), (128, 1, 1), (256, 1, 1), (512, 1, 1), (1024, 1, 1)]
    assert at._candidate_blocks(100) == [(64, 1, 1), (128, 1, 1)]
    assert at._candidate_blocks(5) == [(32, 1, 1)]
    for extent, mt in [((4096, 4096), 1024), ((100, 100, 100), 1024), ((4096, 4096), 256)]:
        blocks = at._candidate_blocks(extent, mt)
        assert 6 <= len(blocks) <= 10
        for b in blocks:
            assert len(b) == 3 and np.prod(b) <= mt and np.prod(b) % 32 == 0
            assert b[0] <= 1024 and b[1] <= 1024 and b[2] <= 64


INC = r"""
extern "C" __global__ void loom_test_autotune_inc(float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += 1.0f;
}
"""


def test_auto_block_launch(device, rng):
    if device.type == "cpu":
        pytest.skip("CUDA C kernels on the CPU need the kernel emulator (issue 5)")
    n = 100_003  # not a multiple of any block: the grid must round up and the kernel guard
    a = rng.standard_normal(n).astype(np.float32)
    x = loom.asarray(a, device=device)
    k = loom.RawKernel(INC, "loom_test_autotune_inc")
    # With block="auto" the grid is the extent. The kernel works in place: timing must use
    # scratch copies, or x would be incremented once per timed launch.
    k((n,), "auto", (x, n))
    k((n,), "auto", (x, n))
    np.testing.assert_array_equal(x.numpy(), (a + np.float32(1)) + np.float32(1))  # two float32 roundings
    mine = [r for r in at.report() if r["kernel"] == "loom_test_autotune_inc"]
    assert len(mine) == 1
    r = mine[0]
    bx, by, bz = r["block"]
    assert (by, bz) == (1, 1) and 32 <= bx <= 1024 and bx % 32 == 0
    assert r["size_class"] == "131072x1x1"
    assert r["candidates"] >= 1 and r["best_ms"] > 0
    assert r["device"].startswith(repr(device)) and "sm_" in r["device"]
