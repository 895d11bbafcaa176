"""Faults in kernels run on cpu() (issue 19): an integer division by zero, INT_MIN / -1, a
NULL or wild pointer, printf("%s") of a bad pointer, a stack overflow raise
loom.KernelFaultError naming the kernel, the fault, the thread and the block (and in debug
mode the source line) instead of killing the process, which stays usable; Ctrl-C ends a
kernel that never ends (KeyboardInterrupt); debug mode reports a __syncthreads that some
threads skip by returning. Former crashes run in a child process.
"""
import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import loom
from test_emulator import raw

# Each case: a kernel `k(int* out, const T* a, const T* b, int n)` run on 64 threads, the
# dtype of a and b, the values that make thread 37 fault, and what the message must say.
FAULTS = {
    "div_int32": ("int", "out[i] = a[i] / b[i];", "integer division or remainder by zero"),
    "rem_int64": ("long long", "out[i] = (int)(a[i] % b[i]);", "integer division or remainder by zero"),
    "div_uint32": ("unsigned", "out[i] = (int)(a[i] / b[i]);", "integer division or remainder by zero"),
    "div_int16": ("short", "out[i] = a[i] / b[i];", "integer division or remainder by zero"),
    "div_const_zero": ("int", "out[i] = i == 37 ? a[i] / 0 : a[i];", "integer division or remainder by zero"),
    "intmin_int32": ("int", "out[i] = a[i] / b[i];", "most negative integer divided by -1"),
    "intmin_int64": ("long long", "out[i] = (int)(a[i] / b[i]);", "most negative integer divided by -1"),
    "null": ("int", "int* p = i == 37 ? (int*)0 : (int*)out; out[i] = p[i];", "NULL pointer dereference"),
    "wild": ("int", "if (i == 37) *(volatile int*)0x7f0000001230ull = 1; out[i] = a[i];", "invalid memory access"),
    "far_outside": ("int", "out[i + (i == 37 ? (1ll << 40) : 0)] = a[i];", "invalid memory access"),
    "printf_bad_string": ("int", 'if (i == 37) printf("%s\\n", (const char*)0x10); out[i] = a[i];',
                          "NULL pointer dereference"),
    "trap_ud2": ("int", "if (i == 37) __builtin_trap(); out[i] = a[i];", "illegal instruction"),
}

CHILD = r"""
import sys, numpy as np, loom
cases = __CASES__
names = sys.argv[1:]
dev = loom.cpu()
CHECK = r'''
extern "C" __global__ void check(const int* x, int* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 3 * x[i] + 1;
}
'''
def works():  # the device and the process are still usable: a fresh kernel gives NumPy's answer
    x = np.random.default_rng().integers(-1000, 1000, 300).astype(np.int32)
    y = loom.empty(300, dtype=loom.int32, device=dev)
    loom.RawKernel(CHECK, "check")((3,), (128,), (loom.asarray(x, device=dev), y, 300))
    return bool((y.numpy() == 3 * x + 1).all())
for name in names:
    ctype, body, _ = cases[name]
    src = ('extern "C" __global__ void k_%s(int* out, const %s* a, const %s* b, int n) {\n'
           '  int i = blockIdx.x * blockDim.x + threadIdx.x;\n'
           '  if (i >= n) return;\n  %s\n}\n') % (name, ctype, ctype, body)
    npt = {"int": np.int32, "long long": np.int64, "unsigned": np.uint32, "short": np.int16}[ctype]
    a = np.full(64, 7, npt); b = np.full(64, 2, npt)
    if "intmin" in name:
        a[37] = np.iinfo(npt).min; b[37] = -1
    else:
        b[37] = 0
    out = loom.empty(64, dtype=loom.int32, device=dev)
    debug = DEBUG
    try:
        loom.RawKernel(src, "k_" + name)((2,), (32,), (out, loom.asarray(a, device=dev),
                                                       loom.asarray(b, device=dev), 64), debug=debug)
        print(name, "NO ERROR", flush=True)
    except (loom.KernelFaultError, IndexError) as e:
        print(name, "|", type(e).__name__, str(e).replace("\n", " "), "|", works(), flush=True)
"""


def run_child(names, debug=False, timeout=600):
    code = CHILD.replace("__CASES__", repr(FAULTS)).replace("DEBUG", repr(debug))
    r = subprocess.run([sys.executable, "-c", code, *names], capture_output=True, text=True, timeout=timeout)
    assert r.returncode == 0, f"child died (rc {r.returncode}): {r.stdout[-2000:]} {r.stderr[-3000:]}"
    lines = {}
    for line in r.stdout.splitlines():
        if line.split(" ", 1)[0] in FAULTS:
            lines[line.split(" ", 1)[0]] = line
    return lines


@pytest.mark.parametrize("debug", [False, True], ids=["normal", "debug"])
def test_faults_in_a_kernel_raise_and_the_process_goes_on(debug):
    lines = run_child(list(FAULTS), debug)
    for name, (_, body, what) in FAULTS.items():
        line = lines.get(name, "")
        assert " | " in line, (name, line, lines)
        _, msg, still_works = line.split(" | ")
        if debug and name == "far_outside":  # debug mode's bounds check sees it first
            what = "IndexError [RawKernel k_far_outside] out-of-bounds access at line 4"
        else:
            assert msg.startswith(f"KernelFaultError [RawKernel k_{name}] "), msg
        assert what in msg, (name, msg)
        assert "in thread (5, 0, 0) of block (1, 0, 0)" in msg, (name, msg)
        assert still_works == "True", (name, msg)
        if debug:  # the line of the faulting statement (line 4 of the source)
            assert "at line 4 of the kernel source" in msg, (name, msg)
        else:
            assert "debug=True" in msg, (name, msg)


STACK_OVERFLOW_CHILD = r"""
import numpy as np, loom
SRC = r'''
__device__ int deep(volatile int* p, int d) {
  volatile int pad[256];
  pad[d & 255] = d;
  return d <= 0 ? *p : deep(p, d - 1) + pad[d & 255];
}
extern "C" __global__ void overflow(int* out, int depth) {
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = deep(s + threadIdx.x, threadIdx.x == 3 ? depth : 1);
}
'''
out = loom.zeros(64, dtype=loom.int32, device=loom.cpu())
try:
    loom.RawKernel(SRC, "overflow")((1,), (64,), (out, 100000000))
    print("NO ERROR")
except loom.KernelFaultError as e:
    print(e)
x = loom.zeros(64, dtype=loom.int32, device=loom.cpu())
loom.RawKernel(SRC, "overflow")((1,), (64,), (x, 2))
print("AFTER", x.numpy()[:4].tolist())
"""


@pytest.mark.parametrize("fibers", ["boost", "ucontext"])
def test_stack_overflow_on_a_fiber_raises(fibers):
    env = dict(os.environ)
    env.pop("LOOM_EMULATOR_FIBERS", None)
    if fibers == "ucontext":
        env["LOOM_EMULATOR_FIBERS"] = "ucontext"
    r = subprocess.run([sys.executable, "-c", STACK_OVERFLOW_CHILD], capture_output=True, text=True, timeout=600,
                       env=env)
    assert r.returncode == 0, r.stderr[-3000:]
    first, after = r.stdout.splitlines()[:2]
    assert first.startswith("[RawKernel overflow] stack overflow"), first
    assert "in thread (3, 0, 0) of block (0, 0, 0)" in first, first
    # deep(p, d) = s[t] + 1 + ... + d: d = 1, and 2 for thread 3
    assert after == "AFTER [1, 2, 3, 6]", after


def test_elementwise_and_reduction_kernels_raise_on_division_by_zero():
    code = textwrap.dedent(r"""
        import numpy as np, loom
        dev = loom.cpu()
        x = loom.asarray(np.arange(1, 101, dtype=np.int32), device=dev)
        y = np.full(100, 3, np.int32); y[57] = 0
        y = loom.asarray(y, device=dev)
        div = loom.ElementwiseKernel("int32 x, int32 y", "int32 z", "z = x / y", "int_div")
        try:
            div(x, y)
            print("NO ERROR")
        except loom.KernelFaultError as e:
            print(e)
        ok = div(x, loom.asarray(np.full(100, 3, np.int32), device=dev))
        print((ok.numpy() == np.arange(1, 101) // 3).all())
        red = loom.ReductionKernel("int32 x, int32 y", "int32 z", "x % y", "a + b", "z = a", "0", "mod_sum")
        try:
            red(x, y)
            print("NO ERROR")
        except loom.KernelFaultError as e:
            print(e)
    """)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    lines = r.stdout.splitlines()
    assert "int_div" in lines[0] and "integer division or remainder by zero" in lines[0], lines
    assert lines[1] == "True", lines
    assert "mod_sum" in lines[2] and "integer division or remainder by zero" in lines[2], lines


def test_kernel_fault_error_is_a_runtime_error():
    assert issubclass(loom.KernelFaultError, RuntimeError)
    with pytest.raises(loom.KernelFaultError, match="boom"):
        loom._loom._raise_for_testing("KernelFaultError", "boom")


SPIN_CHILD = r"""
import sys, numpy as np, loom
dev = loom.cpu()
SPIN = r'''
extern "C" __global__ void spin(int* out, int n) {
  volatile int k = 0;
  while (k == 0) {}
  out[threadIdx.x] = n;
}
extern "C" __global__ void spin_barrier(volatile int* flag, int* out) {
  __shared__ int s[32];
  if (threadIdx.x == 0) while (*flag == 0) {}
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[31 - threadIdx.x];
}
'''
mod = loom.RawModule(code=SPIN)
for name, args in (("spin", lambda: (loom.zeros(64, dtype=loom.int32, device=dev), 5)),
                   ("spin_barrier", lambda: (loom.zeros(1, dtype=loom.int32, device=dev),
                                             loom.zeros(32, dtype=loom.int32, device=dev)))):
    k = mod.get_function(name)
    a = args()
    print("ready", name, flush=True)
    try:
        k((4,), (32,), a)
        print("finished", name, flush=True)
    except KeyboardInterrupt:
        print("caught", name, flush=True)
x = np.arange(200, dtype=np.int32)
y = loom.empty(200, dtype=loom.int32, device=dev)
loom.RawKernel(r'''
extern "C" __global__ void inc(const int* x, int* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] + 1;
}''', "inc")((2,), (128,), (loom.asarray(x, device=dev), y, 200))
print("after", bool((y.numpy() == x + 1).all()), flush=True)
"""


def ctrl_c_reaches_the_child():
    """preexec_fn: Ctrl-C's default disposition in the child. A test run started in the
    background of a non-interactive shell (nohup ... &) ignores SIGINT, and an ignored signal
    stays ignored across exec: Python would then install no handler and no Ctrl-C would come."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run_and_interrupt(code, rounds, extra_env=None):
    env = dict(os.environ, **(extra_env or {}))
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=env, preexec_fn=ctrl_c_reaches_the_child)
    lines = []
    try:
        for _ in range(rounds):
            line = p.stdout.readline()
            lines.append(line.strip())
            assert line.startswith("ready"), (lines, p.stderr.read() if p.poll() is not None else "")
            time.sleep(1.0)  # the kernel runs (and never ends) by now
            p.send_signal(signal.SIGINT)
            lines.append(p.stdout.readline().strip())
        out, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            p.kill()
    return lines + out.splitlines(), p.returncode, err


def test_ctrl_c_ends_a_cpu_kernel_that_never_ends():
    lines, rc, err = run_and_interrupt(SPIN_CHILD, 2)
    assert rc == 0, err[-3000:]
    assert lines == ["ready spin", "caught spin", "ready spin_barrier", "caught spin_barrier", "after True"], \
        (lines, err[-2000:])


# Ctrl-C while a launch is still being prepared (a never-seen kernel is compiled and loaded
# first): the launch must end at the kernel's first instruction. Before the binding held an
# interrupt scope from its start, Python's handler took that SIGINT and the kernel then spun
# for ever.
EARLY_CHILD = r"""
import os, signal, threading, uuid, loom
dev = loom.cpu()
k = loom.RawKernel(r'''
extern "C" __global__ void spin(int* out) {
  volatile int k = 0;
  while (k == 0) {}
  out[threadIdx.x] = TAG;
}'''.replace("TAG", str(uuid.uuid4().int % 100000)), "spin")
out = loom.zeros(32, dtype=loom.int32, device=dev)
try:
    threading.Timer(DELAY, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
    k((1,), (32,), (out,))
    print("finished", flush=True)
except KeyboardInterrupt:
    print("caught", flush=True)
"""


@pytest.mark.parametrize("delay", [0.0, 0.05, 0.3])
def test_ctrl_c_while_a_launch_is_prepared_ends_it(delay):
    p = subprocess.run([sys.executable, "-c", EARLY_CHILD.replace("DELAY", str(delay))], capture_output=True,
                       text=True, timeout=120, preexec_fn=ctrl_c_reaches_the_child)
    assert p.returncode == 0 and p.stdout.split() == ["caught"], (p.stdout, p.stderr[-2000:])


GPU_SPIN_CHILD = r"""
import os, loom
dev = loom.gpu()
k = loom.RawKernel(r'''
extern "C" __global__ void spin(volatile int* flag, int* out) {
  while (*flag == 0) {}  // nobody sets it: a volatile load of global memory each time
  out[threadIdx.x] = 1;
}''', "spin")
flag = loom.zeros(1, dtype=loom.int32, device=dev)
out = loom.zeros(32, dtype=loom.int32, device=dev)
k((1,), (32,), (flag, out))
print("ready", flush=True)
try:
    SYNC
    print("finished", flush=True)
except KeyboardInterrupt:
    print("caught", flush=True)
# The kernel still spins on the GPU: nothing can stop a running kernel but the end of the
# process (the driver then destroys the context), so the child leaves at once.
os._exit(0)
"""


@pytest.mark.gpu
@pytest.mark.parametrize("sync", ["loom.synchronize(dev)", "loom.current_stream(dev).synchronize()",
                                  "e = loom.Event(dev); e.record(); e.synchronize()", "out.numpy()"])
def test_ctrl_c_ends_a_gpu_synchronize(gpu, sync):
    lines, rc, err = run_and_interrupt(GPU_SPIN_CHILD.replace("SYNC", sync), 1)
    assert rc == 0, err[-3000:]
    assert lines[:2] == ["ready", "caught"], (lines, err[-2000:])


DIVERGENT = r"""
extern "C" __global__ void divergent(const float* x, float* out, int n) {
  __shared__ float s[64];
  int t = threadIdx.x;
  if (t >= n) return;
  s[t] = x[t];
  __syncthreads();
  out[t] = s[n - 1 - t];
}
"""


def test_divergent_barrier_completes_normally_and_is_reported_in_debug_mode(rng):
    dev = loom.cpu()
    n = 40
    x = rng.standard_normal(64).astype(np.float32)
    out = loom.zeros(64, dtype=loom.float32, device=dev)
    k = raw(DIVERGENT, "divergent")
    k((1,), (64,), (loom.asarray(x, device=dev), out, n))  # as on Volta and later GPUs
    np.testing.assert_array_equal(out.numpy()[:n], x[:n][::-1])
    with pytest.raises(RuntimeError) as e:
        k((1,), (64,), (loom.asarray(x, device=dev), out, n), debug=True)
    msg = str(e.value)
    assert msg.startswith("[RawKernel divergent] divergent __syncthreads at line 7"), msg
    assert "40 threads wait there and 24 returned" in msg, msg
    k((1,), (64,), (loom.asarray(x, device=dev), out, 64), debug=True)  # every thread arrives: fine
    np.testing.assert_array_equal(out.numpy(), x[::-1])


def test_fault_is_caught_after_faulthandler_replaces_the_handlers():
    # pytest's faulthandler (or a user's faulthandler.enable()) installs its own SIGFPE and
    # SIGSEGV handlers; loom puts its own back at the next launch and chains to them.
    import faulthandler
    faulthandler.enable()
    dev = loom.cpu()
    k = raw(r"""
extern "C" __global__ void div_again(const int* a, const int* b, int* out) {
  out[threadIdx.x] = a[threadIdx.x] / b[threadIdx.x];
}""", "div_again")
    a = np.arange(1, 33, dtype=np.int32)
    b = np.full(32, 2, np.int32)
    b[9] = 0
    out = loom.empty(32, dtype=loom.int32, device=dev)
    with pytest.raises(loom.KernelFaultError, match=r"^\[RawKernel div_again\] integer division or remainder by zero"):
        k((1,), (32,), (loom.asarray(a, device=dev), loom.asarray(b, device=dev), out))
    b[9] = 3
    k((1,), (32,), (loom.asarray(a, device=dev), loom.asarray(b, device=dev), out))
    np.testing.assert_array_equal(out.numpy(), a // b)
