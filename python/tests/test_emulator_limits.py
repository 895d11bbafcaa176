"""A GPU's limits hold on cpu() too (issue 19): a kernel whose static __shared__ variables
pass 48 KiB fails to compile as NVRTC fails it (ptxas's words), static and dynamic shared
memory together may not pass the per-block limit, and a thread's local memory may not pass
CUDA's 512 KiB. What NVRTC says is checked here with NVRTC itself (no GPU needed)."""
import os
import subprocess
import sys

import numpy as np
import pytest

import loom

LIMIT = 48 * 1024



@pytest.fixture(autouse=True)
def _cpu_is_the_default_device():
    # These tests are about the CPU emulator's host compile: get_function compiles for the
    # default device, which is a GPU where there is one. Tests on other devices name them.
    with loom.cpu():
        yield

def nvrtc_error(src, name):
    """NVRTC's error log for `src` ("" when it compiles); skips without NVRTC."""
    try:
        loom._loom._compile_for_testing(src, name, 90, [], False)
        return ""
    except loom.CompileError as e:
        return e.log
    except NotImplementedError:
        pytest.skip("loom was built without NVRTC")


def own(n):  # a kernel with n floats of its own static shared memory
    return f'''extern "C" __global__ void k(float* x) {{
  __shared__ float t[{n}];
  t[{n} - 1 - threadIdx.x] = x[threadIdx.x]; __syncthreads();
  x[threadIdx.x] = t[{n} - 1 - (threadIdx.x + 1) % blockDim.x] + 1;
}}'''


def file_scope(n):
    return f'''__shared__ float t[{n}];
extern "C" __global__ void k(float* x) {{
  t[{n} - 1 - threadIdx.x] = x[threadIdx.x]; __syncthreads();
  x[threadIdx.x] = t[{n} - 1 - (threadIdx.x + 1) % blockDim.x] + 1;
}}'''


def in_helper(n):
    return f'''__device__ float helper(float v, int i) {{
  __shared__ float t[{n}];
  t[{n} - 1 - i] = v; __syncthreads(); return t[{n} - 1 - (i + 1) % blockDim.x];
}}
__device__ float outer(float v, int i) {{ return helper(v, i) + 1; }}
extern "C" __global__ void k(float* x) {{ x[threadIdx.x] = outer(x[threadIdx.x], threadIdx.x); }}'''


@pytest.mark.parametrize("make", [own, file_scope, in_helper])
@pytest.mark.parametrize("debug", ["0", "1"])
def test_static_shared_over_48_kib_fails_as_on_nvrtc(make, debug, monkeypatch):
    monkeypatch.setenv("LOOM_EMULATOR_DEBUG", debug)
    n = LIMIT // 4
    assert nvrtc_error(make(n), "k") == ""
    k = loom.RawModule(code=make(n)).get_function("k")
    assert k.attributes(loom.cpu())["shared_size_bytes"] == LIMIT
    x = loom.asarray(np.arange(n, dtype=np.float32), device=loom.cpu())
    k((1,), (n if n <= 1024 else 1024,), (x,))
    want = np.arange(n, dtype=np.float32)
    want[:1024] = (np.arange(1024) + 1) % 1024 + 1
    np.testing.assert_array_equal(x.numpy(), want)

    gpu_log = nvrtc_error(make(n + 1), "k")
    line = "ptxas error   : Entry function 'k' uses too much shared data (0xc004 bytes, 0xc000 max)"
    assert line in gpu_log
    with pytest.raises(loom.CompileError) as e:
        loom.RawModule(code=make(n + 1)).get_function("k")
    assert line in str(e.value) and line in e.value.log and "[RawKernel k]" in str(e.value)


def test_static_shared_is_counted_per_kernel():
    """Two kernels of 40 KiB each (one through a helper, with a file-scope array the other
    does not use): each is within the limit, on NVRTC and here; each reports its own."""
    src = '''
__shared__ float only_b[2048];
__device__ float helper(int i) { __shared__ float h[10240]; h[i] = i; __syncthreads(); return h[10239 - i]; }
extern "C" __global__ void a(float* x) { x[threadIdx.x] = helper(threadIdx.x); }
extern "C" __global__ void b(float* x) {
  __shared__ float own[8192];
  own[threadIdx.x] = 1; only_b[threadIdx.x] = 2; __syncthreads();
  x[threadIdx.x] = own[8191 - threadIdx.x] + only_b[2047 - threadIdx.x];
}
extern "C" __global__ void c(float* x) { x[0] = 5; }
'''
    assert nvrtc_error(src, "a") == ""
    m = loom.RawModule(code=src)
    got = {n: m.get_function(n).attributes(loom.cpu())["shared_size_bytes"] for n in "abc"}
    assert got == {"a": 40960, "b": 40960, "c": 0}
    x = loom.zeros(4, dtype=loom.float32, device=loom.cpu())
    m.get_function("c")((1,), (1,), (x,))
    assert x.numpy()[0] == 5


def test_dynamic_plus_static_shared_over_the_block_limit():
    src = own(1024)  # 4 KiB of static shared memory
    k = loom.RawModule(code=src).get_function("k")
    a = k.attributes(loom.cpu())
    assert a["shared_size_bytes"] == 4096
    assert a["max_dynamic_shared_size_bytes"] == 227 * 1024 - 4096
    x = loom.zeros(1024, dtype=loom.float32, device=loom.cpu())
    k((1,), (32,), (x,), shared_mem=227 * 1024 - 4096)  # fits
    with pytest.raises(ValueError, match=r"\[RawKernel k\].*dynamic shared memory.*227 \* 1024 - 4096|"
                                         r"\[RawKernel k\] asks for 228353 bytes of dynamic shared memory.*at most "
                                         r"228352.*232448 per block less its 4096 bytes of static"):
        k((1,), (32,), (x,), shared_mem=227 * 1024 - 4096 + 1)


def local(n):
    return f'''extern "C" __global__ void k(float* x, int n, int j) {{
  float t[{n}];
  for (int i = 0; i < n; ++i) t[i] = x[i % 1024] * i;
  x[0] = t[j];
}}'''


@pytest.mark.parametrize("barrier", [False, True])
def test_local_memory_within_cudas_limit_runs(barrier):
    n = 400 * 1024 // 4  # 400 KiB (a barrier once made it count twice)
    src = local(n).replace("x[0] = t[j];", "__syncthreads(); x[0] = t[j];" if barrier else "x[0] = t[j];")
    x = loom.asarray(np.full(1024, 2, np.float32), device=loom.cpu())
    k = loom.RawModule(code=src).get_function("k")
    assert 4 * n - 256 <= k.attributes(loom.cpu())["local_size_bytes"] < 4 * n + 1024
    k((1,), (4,), (x, np.int32(n), np.int32(n - 1)))
    assert x.numpy()[0] == 2 * (n - 1)


def test_local_memory_over_cudas_limit_is_refused_in_a_child_process():
    n = 600 * 1024 // 4  # 600 KiB: NVRTC compiles it, a GPU cannot launch it
    assert nvrtc_error(local(n), "k") == ""
    code = f"""
import numpy as np, loom
k = loom.RawModule(code={local(n)!r}).get_function("k")
x = loom.zeros(1024, dtype=loom.float32, device=loom.cpu())
try:
    k((1,), (4,), (x, np.int32({n}), np.int32(0)))
except loom.CudaError as e:
    print("refused:", e)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    assert "refused: [RawKernel k]" in out.stdout and "local memory" in out.stdout and "524288" in out.stdout
