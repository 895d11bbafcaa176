"""The CPU kernel emulator's robustness (issue 5): a kernel with big local arrays and
barriers runs on fibers whose stacks fit them (boost.context and ucontext), a failed
assert or __trap() raises RuntimeError naming the kernel, line, thread and block and the
next launch works, RawKernel.attributes answers on every device, and printf prints.
"""
import subprocess
import sys

import numpy as np
import pytest

import loom
from test_emulator import DOUBLIFY_1D, cdiv, cpu_only, on, raw, to

BIG_LOCAL = r"""
extern "C" __global__ void big_local(const int* x, int* out, int n) {
  __shared__ int s[128];
  int buf[LOCAL_INTS];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  int v = i < n ? x[i] : 0;
  for (int j = 0; j < LOCAL_INTS; ++j) buf[j] = v + (j & 7);
  s[t] = buf[(t * 7) % LOCAL_INTS] + buf[LOCAL_INTS - 1];
  __syncthreads();
  if (i < n) out[i] = s[(t + 1) % blockDim.x];
}
"""


def expected_big_local(x, threads):
    n = len(x)
    blocks = cdiv(n, threads)
    xp = np.zeros(blocks * threads, np.int64)
    xp[:n] = x
    t = np.arange(threads)
    s = 2 * xp.reshape(blocks, threads) + ((t * 7) & 7) + 7
    return s[:, (t + 1) % threads].reshape(-1)[:n]


def run_big_local(device, rng, local_ints):
    n, threads = 1000, 128
    x = rng.integers(-1000, 1000, n).astype(np.int32)
    out = loom.empty(n, dtype=loom.int32, device=device)
    k = raw(BIG_LOCAL.replace("LOCAL_INTS", str(local_ints)), "big_local")
    k((cdiv(n, threads),), (threads,), (to(device, x), out, n))
    np.testing.assert_array_equal(out.numpy(), expected_big_local(x, threads))
    return k


def test_local_array_with_barriers(device, rng):
    on(device)
    run_big_local(device, rng, 4096)  # 16 KiB per thread: fine on any GPU


@pytest.mark.parametrize("fibers", ["boost", "ucontext"])
def test_big_local_array_with_barriers_gets_a_big_enough_stack(device, rng, monkeypatch, fibers):
    cpu_only(device, "512 KiB of locals per thread is a GPU's whole local-memory limit")
    if fibers == "ucontext":
        monkeypatch.setenv("LOOM_EMULATOR_FIBERS", "ucontext")  # read at each launch
    else:
        monkeypatch.delenv("LOOM_EMULATOR_FIBERS", raising=False)
    k = run_big_local(device, rng, 131072)
    assert k.attributes(loom.cpu())["local_size_bytes"] >= 512 * 1024


ASSERTS = r"""
extern "C" __global__ void loop_assert(int* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(i < n);
  a[i] = 1;
}
extern "C" __global__ void fiber_assert(int* a, int n) {
  __shared__ int s[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i;
  __syncthreads();
  assert(s[threadIdx.x] < n);
  a[i] = 1;
}
extern "C" __global__ void loop_trap(int* a, int n) {
  if (blockIdx.x * blockDim.x + threadIdx.x == n) __trap();
}
"""


@pytest.mark.parametrize("fibers", ["boost", "ucontext"])
@pytest.mark.parametrize("name, n, message", [
    ("loop_assert", 200, "device-side assert `i < n` failed at line 4 of the kernel source, "
                         "in thread (8, 0, 0) of block (3, 0, 0)"),
    ("fiber_assert", 200, "device-side assert `s[threadIdx.x] < n` failed at line 12 of the kernel source, "
                          "in thread (8, 0, 0) of block (3, 0, 0)"),
    ("loop_trap", 70, "the kernel called __trap() at line 16 of the kernel source, "
                      "in thread (6, 0, 0) of block (1, 0, 0)"),
])
def test_failed_assert_or_trap_raises_and_the_next_launch_works(device, rng, monkeypatch, fibers, name, n, message):
    cpu_only(device, "a device-side assert or trap loses the GPU context (CudaError)")
    if fibers == "ucontext":
        monkeypatch.setenv("LOOM_EMULATOR_FIBERS", "ucontext")
    else:
        monkeypatch.delenv("LOOM_EMULATOR_FIBERS", raising=False)
    a = loom.zeros(256, dtype=loom.int32, device=device)
    with pytest.raises(RuntimeError) as e:
        raw(ASSERTS, name)((4,), (64,), (a, n))
    assert not isinstance(e.value, loom.CompileError), e.value
    assert f"[RawKernel {name}] {message}" in str(e.value), str(e.value)
    host = rng.standard_normal(1000).astype(np.float32)
    b = to(device, host)
    raw(DOUBLIFY_1D, "doublify")((4,), (256,), (b, 1000))
    np.testing.assert_array_equal(b.numpy(), host * np.float32(2))
    if name != "loop_trap":
        raw(ASSERTS, name)((4,), (64,), (a, 256))  # every assert holds: no error
        np.testing.assert_array_equal(a.numpy(), np.ones(256, np.int32))


ATTRS = r"""
extern "C" __global__ void attrs(const float* x, double y, char c, float* out) {
  __shared__ float tile[256];
  tile[threadIdx.x] = x[threadIdx.x] * (float)y + (float)c;
  __syncthreads();
  out[threadIdx.x] = tile[255 - threadIdx.x];
}
"""


def test_attributes_on_every_device(device):
    on(device)
    k = raw(ATTRS, "attrs")
    a = k.attributes(device)
    assert set(a) == {"max_threads_per_block", "num_regs", "shared_size_bytes", "max_dynamic_shared_size_bytes",
                      "local_size_bytes", "const_size_bytes", "ptx_version", "binary_version", "param_sizes"}
    assert a["param_sizes"] == [8, 8, 1, 8]
    assert 0 < a["max_threads_per_block"] <= 1024
    assert a["shared_size_bytes"] >= 256 * 4
    assert a["max_dynamic_shared_size_bytes"] > 0
    if device == loom.cpu():
        assert a["max_threads_per_block"] == 1024 and a["num_regs"] == 0
        assert a["shared_size_bytes"] < 256 * 4 + 256  # an upper bound: the module's __shared__ variables
        assert a["max_dynamic_shared_size_bytes"] == 227 * 1024 - a["shared_size_bytes"]
        assert a["ptx_version"] == 0 and a["binary_version"] == 0 and a["const_size_bytes"] == 0
    else:
        assert a["num_regs"] > 0 and a["binary_version"] >= 50
    # And the kernel those facts describe runs.
    x = np.arange(256, dtype=np.float32)
    out = loom.empty(256, dtype=loom.float32, device=device)
    k((1,), (256,), (to(device, x), 2.0, np.int8(3), out))
    np.testing.assert_array_equal(out.numpy(), (x * np.float32(2) + np.float32(3))[::-1])


# printf from kernels: every thread's line, formatted as C does, on every device.
PRINTF = r"""
extern "C" __global__ void say(const float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) printf("thread %d of block %d: x=%.3f i=%lld %s\n", (int)threadIdx.x, (int)blockIdx.x, x[i],
                    (long long)i, "ok");
}
"""
PRINTF_CHILD = r"""
import sys
import numpy as np
import loom
device = loom.cpu() if sys.argv[2] == "cpu" else loom.gpu(0)
x = loom.asarray(np.arange(10, dtype=np.float32) / 4, device=device)
loom.RawKernel(sys.argv[1], "say")((3,), (4,), (x, 10))
loom.synchronize(device)
"""


def printf_lines(n):
    return {f"thread {i % 4} of block {i // 4}: x={i / 4:.3f} i={i} ok" for i in range(n)}


def test_printf_in_a_kernel_prints_each_threads_line(device):
    on(device)
    r = subprocess.run([sys.executable, "-c", PRINTF_CHILD, PRINTF, "cpu" if device == loom.cpu() else "gpu"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    assert set(r.stdout.splitlines()) == printf_lines(10), r.stdout
    assert len(r.stdout.splitlines()) == 10, r.stdout


def test_printf_is_flushed_when_the_launch_returns(capfd):
    # The emulator flushes C's stdout after a launch (a GPU's printf shows at the next
    # synchronisation), so the lines are there before the process ends.
    x = loom.asarray(np.arange(6, dtype=np.float32) / 4, device=loom.cpu())
    raw(PRINTF, "say")((2,), (4,), (x, 6))
    assert set(capfd.readouterr().out.splitlines()) == printf_lines(6)
