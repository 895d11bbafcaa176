"""Kernels whose source Python does not keep (exec() of a string, a REPL, `python -c`): loom
rebuilds the def from the bytecode (pykernel/bytecode.py) and translates that. Each kernel
here is made by exec(); the same function run by Python on NumPy arrays is the reference,
so every branch and loop shape CPython emits is checked against Python itself."""
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import loom
from loom import cuda
from loom.cuda import float64
from conftest import skip_cpu_kernels

# One thread runs each of these: plain Python control flow over arrays.
SERIAL = textwrap.dedent("""
def branches(out, a, n):
    # if/elif/else, a conditional expression, and/or, a chained comparison, not
    for i in range(n):
        v = a[i]
        if v > 0.5 and i % 2 == 0:
            out[i] = 1.0
        elif v < 0.1 or i == 3:
            out[i] = -1.0
        elif 0.2 < v <= 0.4:
            out[i] = 2.0
        else:
            out[i] = v if not i > 5 else -v

def loops(out, a, n):
    # a negative step, enumerate, zip, iteration over an array, while with break/continue
    s = 0.0
    for i in range(n - 1, -1, -2):
        s += a[i]
    out[0] = s
    for j, v in enumerate(a):
        out[1] += j * v
    for x, y in zip(a, out):
        out[2] += x * 2
    t = 0.0
    for v in a:
        t = t + v
    out[3] = t
    k = 0
    while True:
        k += 1
        if k % 3 == 0:
            continue
        if k > 10:
            break
        out[4] += k

def early_return(out, a, n):
    for i in range(n):
        if a[i] > 0.9:
            out[0] = i
            return
        out[1] += 1
    out[2] = 7

def unpack_and_swap(out, a, n):
    x, y = a[0], a[1]
    x, y = y, x
    out[0] = x
    out[1] = y
    r, c = out.size, a.shape[0]
    out[2] = r * 10 + c
    out[3] += a[2]
    out[n - 1] -= 1.5
""")


def _exec(src, **names):
    ns = {"cuda": cuda, "float64": float64, "np": np, **names}
    exec(src, ns)
    return ns


@pytest.mark.parametrize("name", ["branches", "loops", "early_return", "unpack_and_swap"])
def test_exec_kernels_match_python(device, rng, name):
    skip_cpu_kernels(device)
    dev = loom.Device(device)
    fn = _exec(SERIAL)[name]
    kernel = cuda.jit(fn)
    for _ in range(3):  # fresh data: different branches taken
        a = rng.random(9)
        want = np.zeros(9)
        fn(want, a.copy(), 9)
        out = loom.zeros(9, device=dev)
        kernel[1, 1](out, loom.array(a, device=dev), 9)
        np.testing.assert_allclose(out.to(loom.cpu()).numpy(), want, rtol=1e-12, atol=1e-15)


def test_exec_kernel_with_threads_shared_memory_and_atomics(device, rng):
    """Numba's test-suite shape (test_atomics.py): a kernel made by exec() of a template."""
    skip_cpu_kernels(device)
    dev = loom.Device(device)
    src = textwrap.dedent("""
    def kernel(res, ary):
        tid = cuda.threadIdx.x
        sm = cuda.shared.array(32, float64)
        sm[tid] = ary[tid]
        acc = cuda.shared.array(1, float64)
        if tid == 0:
            acc[0] = res[0]
        cuda.syncthreads()
        {op}(acc, 0, sm[tid])
        cuda.syncthreads()
        if tid == 0:
            res[0] = acc[0]
    """)
    ary = rng.standard_normal(32)
    for op, want in (("cuda.atomic.max", ary.max()), ("cuda.atomic.add", ary.sum())):
        kernel = cuda.jit(_exec(src.format(op=op))["kernel"])
        res = loom.zeros(1, device=dev)
        kernel[1, 32](res, loom.array(ary, device=dev))
        np.testing.assert_allclose(res.to(loom.cpu()).numpy()[0], max(want, 0.0) if "max" in op else want,
                                   rtol=1e-12)


def test_exec_device_function_and_grid(device, rng):
    skip_cpu_kernels(device)
    dev = loom.Device(device)
    ns = _exec(textwrap.dedent("""
    def helper(x, k):
        if x < 0:
            return -x * k
        return x * k
    def kernel(out, a):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = helper(a[i], 3.0)
    """))
    a = rng.standard_normal(100)
    out = loom.zeros(100, device=dev)
    cuda.jit(ns["kernel"])[4, 32](out, loom.array(a, device=dev))
    np.testing.assert_allclose(out.to(loom.cpu()).numpy(), np.abs(a) * 3.0, rtol=1e-13)


def test_exec_call_of_more_than_30_arguments(device, rng):
    """CPython builds a call of over 30 arguments as a list (LIST_APPEND, CALL_FUNCTION_EX)."""
    args = ", ".join(f"a[{k}]" for k in range(33))
    ns = _exec(f"def kernel(out, a):\n    out[0] = max({args})\n    out[1] = min({args})\n")
    a = rng.standard_normal(33)
    out = loom.zeros(2, device=device)
    cuda.jit(ns["kernel"])[1, 1](out, loom.array(a, device=device))
    np.testing.assert_array_equal(out.numpy(), [a.max(), a.min()])


def test_python_dash_c_kernel_runs():
    """`python -c` keeps no source either."""
    prog = textwrap.dedent("""
        import numpy as np, loom
        from loom import cuda
        @cuda.jit
        def k(out):
            i = cuda.grid(1)
            if i < out.size:
                out[i] = i * 2 if i % 2 else -i
        out = loom.zeros(10, device=loom.cpu())
        k[1, 16](out)
        print(out.numpy().tolist())
    """)
    r = subprocess.run([sys.executable, "-c", prog], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == str([float(i * 2 if i % 2 else -i) for i in range(10)])


@pytest.mark.parametrize("body, what", [
    ("    try:\n        out[0] = 1\n    except Exception:\n        pass\n", "try/except"),
    ("    out[0] = sum([v for v in range(3)])\n", "is not supported"),  # 3.12 inlines it (try)
])
def test_constructs_outside_the_kernel_language_name_the_problem(body, what):
    fn = _exec("def k(out):\n" + body)["k"]
    kernel = cuda.jit(fn)
    with pytest.raises(loom.cuda.UnsupportedError, match=r"\[k\] rebuilding the kernel from its bytecode.*" + what):
        kernel[1, 1](loom.zeros(1, device=loom.cpu()))
