"""Every user kernel launch passes loom's dispatch point as the "kernel_launch" primitive
(loom/kernel/kernel_launch.h): a recorder registered there sees each RawKernel,
SourceModule, ElementwiseKernel and ReductionKernel launch on cpu()."""
import numpy as np

import loom
from loom import _loom

DOUBLIFY = r"""
extern "C" __global__ void doublify(float* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= 2.0f;
}
"""


def launches(recorder):
    return [e for e in recorder.events() if e[0] == "kernel_launch"]


def test_every_user_kernel_launch_is_dispatched_on_cpu():
    rec = _loom._DispatchRecorder()
    with loom.device(loom.cpu()):
        a = loom.asarray(np.arange(8, dtype=np.float32), device=loom.cpu())
        k = loom.RawKernel(DOUBLIFY, "doublify")
        f = loom.SourceModule("""
        __global__ void add_one(float *a) { a[threadIdx.x] += 1; }""").get_function("add_one")
        twice = loom.ElementwiseKernel("T x", "T y", "y = 2 * x", "twice")
        total = loom.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "total")
        host = np.zeros(4, dtype=np.float32)
        rec.start()
        try:
            k((1,), (32,), (a, 8))
            assert len(launches(rec)) == 1
            f(loom.InOut(host), block=(4, 1, 1))
            assert len(launches(rec)) == 2
            y = twice(a)
            assert len(launches(rec)) == 3
            s = total(a)
            assert len(launches(rec)) >= 4  # one pass or two
        finally:
            rec.stop()
    np.testing.assert_array_equal(host, np.ones(4, dtype=np.float32))
    np.testing.assert_array_equal(y.numpy(), np.arange(8, dtype=np.float32) * 4)
    assert float(s.numpy()) == 56.0
    assert all(e == ("kernel_launch", "kernel", "cpu()", True) for e in launches(rec))
