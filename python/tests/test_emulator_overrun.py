"""A kernel on cpu() that writes a little past the end of an array (issue 19) damages array
data at worst, as on a GPU, never the process: cpu() arrays live outside the C heap, so a
stray write cannot corrupt malloc's bookkeeping and abort the process later ("malloc():
corrupted top size"); a write that runs off a slab hits a guard page and raises
KernelFaultError. The case runs in a child process, where the old behaviour was an abort.
"""
import os
import subprocess
import sys

import pytest

OVERRUN_CHILD = r"""
import numpy as np, loom
dev = loom.cpu()
rng = np.random.default_rng(19)
SRC = r'''
extern "C" __global__ void overrun(float* a, int n, int extra, unsigned pattern) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n + extra) ((unsigned*)a)[i] = pattern ^ (unsigned)i * 2654435761u;
}
'''
k = loom.RawKernel(SRC, "overrun")
kept, faults, launches = [], 0, 0
for rep in range(40):
    for n in (1, 3, 16, 17, 100, 255, 1000, 4093, 16384, 70000):
        # Arrays of several sizes around the victim, some kept alive, so that the overrun
        # lands on live and freed neighbours alike.
        around = [loom.empty(int(m), dtype=loom.float32, device=dev) for m in rng.integers(1, 5000, 4)]
        a = loom.empty(n, dtype=loom.float32, device=dev)
        extra = int(rng.choice([1, 2, 3, 15, 16, 64, 255, 1024, int(rng.integers(1, 4097)), 4096]))
        pattern = int(rng.choice([0, 0xFFFFFFFF, 0x41, int(rng.integers(0, 2**32))]))
        try:
            launches += 1
            k(((n + extra + 127) // 128,), (128,), (a, n, extra, np.uint32(pattern)))
        except loom.KernelFaultError:  # ran into a guard page: caught, as a GPU reports it
            faults += 1
        kept += [x for x in around + [a] if rng.random() < 0.3]
        if len(kept) > 200:
            del kept[: len(kept) // 2]
del kept
# The process and the allocator go on: many allocations and frees, normal ops with NumPy's answers.
ok = True
for i in range(3000):
    m = int(rng.integers(1, 20000))
    x = rng.standard_normal(m).astype(np.float32)
    y = rng.standard_normal(m).astype(np.float32)
    lx, ly = loom.asarray(x, device=dev), loom.asarray(y, device=dev)
    ok &= bool(np.array_equal((lx + ly).numpy(), x + y))
    ok &= bool(np.array_equal((lx * ly).numpy(), x * y))
    if i % 100 == 0:
        ok &= bool(np.isclose(float(lx.sum()), float(x.astype(np.float64).sum()), rtol=1e-3, atol=1e-2))
big = [loom.empty(int(m), device=dev) for m in rng.integers(1, 1 << 20, 50)]
del big
import gc; gc.collect()
print("OK", ok, launches, faults, flush=True)
"""


@pytest.mark.skipif("libasan" in os.environ.get("LD_PRELOAD", ""),
                    reason="make asan-test's build puts cpu() arrays in malloc's blocks, so that ASan checks loom's "
                           "own accesses; the overruns of uninstrumented kernel code this test makes would write over "
                           "ASan's heap bookkeeping, which the guarded arena under test is there to prevent")
def test_small_overruns_past_cpu_arrays_do_not_corrupt_the_process():
    r = subprocess.run([sys.executable, "-c", OVERRUN_CHILD], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, f"child died (rc {r.returncode}): {r.stdout[-2000:]} {r.stderr[-3000:]}"
    words = r.stdout.split()
    assert words[:2] == ["OK", "True"], r.stdout[-2000:]
    launches, faults = int(words[2]), int(words[3])
    assert launches == 400 and faults < launches // 4, r.stdout  # most overruns stay in slab memory


GUARD_CHILD = r"""
import numpy as np, loom
dev = loom.cpu()
SRC = r'''
extern "C" __global__ void poke(float* a, long long at) {
  if (threadIdx.x == 0) a[at] = 1.0f;
}
'''
k = loom.RawKernel(SRC, "poke")
for n in (1 << 20, 3 << 20, 300000):  # 4 MiB, 12 MiB, 1.2 MiB: blocks with mappings of their own
    a = loom.zeros(n, dtype=loom.float32, device=dev)
    for at in (n + (327680 - 300000 if n == 300000 else 0), -1):  # 300000 floats take a 1.25 MiB block
        try:
            k((1,), (32,), (a, at))
            print(n, at, "NO ERROR", flush=True)
        except loom.KernelFaultError as e:
            print(n, at, "|", str(e).replace("\n", " "), flush=True)
    a[0:8] = 3.0
    print("intact", float(a.sum()) == 24.0, flush=True)
"""


def test_running_off_a_block_hits_a_guard_page_and_raises():
    r = subprocess.run([sys.executable, "-c", GUARD_CHILD], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, f"child died (rc {r.returncode}): {r.stdout[-2000:]} {r.stderr[-3000:]}"
    lines = r.stdout.splitlines()
    faults = [line for line in lines if not line.startswith("intact")]
    assert len(faults) == 6 and all("| [RawKernel poke] access to protected memory" in f for f in faults), lines
    assert lines.count("intact True") == 3, lines


SHARED_CHILD = r"""
import numpy as np, loom
dev = loom.cpu()
SRC = r'''
extern "C" __global__ void past_shared(float* out, int n, int extra) {
  extern __shared__ float s[];
  for (int i = threadIdx.x; i < n + extra; i += blockDim.x) s[i] = (float)i;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[threadIdx.x];
}
'''
k = loom.RawKernel(SRC, "past_shared")
out = loom.empty(4 * 64, dtype=loom.float32, device=dev)
for n in (16, 256, 1024, 12288):
    for extra in (16, 100, 1024, 4096):
        try:
            k((4,), (64,), (out, n, extra), shared_mem=4 * n)
            print(n, extra, "NO ERROR", flush=True)
        except loom.KernelFaultError as e:
            print(n, extra, "|", str(e).replace("\n", " "), flush=True)
k((4,), (64,), (out, 64, 0), shared_mem=256)
print("after", bool((out.numpy() == np.tile(np.arange(64, dtype=np.float32), 4)).all()), flush=True)
"""


def test_writes_past_dynamic_shared_memory_raise():
    # The block's dynamic shared memory ends at a guard page, as a GPU's ends at its window.
    r = subprocess.run([sys.executable, "-c", SHARED_CHILD], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, f"child died (rc {r.returncode}): {r.stdout[-2000:]} {r.stderr[-3000:]}"
    lines = r.stdout.splitlines()
    assert lines[-1] == "after True", lines
    # The fault guard may call it a stack overflow when the fault lies just above a fiber's
    # stack (it guesses from the stack pointer; see fault_guard.cpp's describe).
    assert len(lines) == 17, lines
    assert all(x.split(" | ")[1].startswith(("[RawKernel past_shared] access to protected memory",
                                             "[RawKernel past_shared] stack overflow")) for x in lines[:-1]), lines
