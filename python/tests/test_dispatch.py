"""The dispatch point is the only way from an op to a backend (issue 20, docs/ARCHITECTURE.md
§2): a recorder registered there sees every op of a sample program that touches each op
family and a user kernel, under the op's public name, on the device it ran on, and the
program still computes NumPy's answers."""
import numpy as np

import loom

SCALE = r"""
extern "C" __global__ void scale(float* x, float k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= k;
}
"""


class Recorded:
    """Runs one call with the recorder on and keeps what it saw."""

    def __init__(self):
        self.rec = loom._loom._DispatchRecorder()

    def __call__(self, fn):
        self.rec.clear()
        self.rec.start()
        try:
            result = fn()
        finally:
            self.rec.stop()
        self.events = self.rec.events()
        return result

    @property
    def names(self):
        return [e[0] for e in self.events]


def test_a_hook_at_the_dispatch_point_sees_every_op_of_a_program(device, rng):
    h = rng.standard_normal(12).astype(np.float32)
    x = loom.asarray(h.copy(), device=device)
    idx = loom.asarray(np.array([3, 1, 4]), device=device)
    run = Recorded()
    # (what the program calls, the dispatched ops it must show, NumPy's answer or None)
    steps = [
        (lambda: loom.arange(12, dtype=loom.float32, device=device), ["arange"], np.arange(12, dtype=np.float32)),
        (lambda: loom.hypot(x, 2.0), ["hypot"], np.hypot(h, np.float32(2))),
        (lambda: loom.exp(x) + 1, ["exp", "add"], np.exp(h) + 1),
        (lambda: loom.sum(x), ["sum"], np.sum(h)),
        (lambda: loom.cumsum(x), ["cumsum"], np.cumsum(h)),
        (lambda: loom.argmax(x), ["argmax"], np.argmax(h)),
        (lambda: loom.sort(x), ["sort"], np.sort(h)),
        (lambda: loom.argsort(x), ["argsort"], np.argsort(h, kind="stable")),
        (lambda: loom.unique(loom.round(x)), ["rint", "unique"], np.unique(np.round(h))),
        (lambda: loom.searchsorted(loom.sort(x), x), ["sort", "searchsorted"], np.searchsorted(np.sort(h), h)),
        (lambda: x[idx], ["getitem"], h[[3, 1, 4]]),  # bounds check and gather in one eval (eager)
        (lambda: loom.nonzero(x > 0)[0], ["greater", "nonzero", "nonzero"], np.nonzero(h > 0)[0]),
        (lambda: loom.concatenate([x, x]), ["copyto", "copyto"], np.concatenate([h, h])),
        (lambda: loom.matmul(x.reshape(3, 4), x.reshape(4, 3)), ["matmul"], h.reshape(3, 4) @ h.reshape(4, 3)),
        (lambda: x.astype(loom.float64), ["astype"], h.astype(np.float64)),
        (lambda: loom.where(x > 0, x, 0.5), ["greater", "where"], np.where(h > 0, h, np.float32(0.5))),
        (lambda: loom.random.normal(size=(4,), device=device), ["normal"], None),
    ]
    for fn, want, expect in steps:
        got = run(fn)
        names = run.names
        it = iter(names)
        assert all(w in it for w in want), f"expected {want} in order, the hook saw {names}"
        assert {e[2] for e in run.events} == {repr(device)}, run.events
        if expect is not None:
            # atol: a sum of 12 normals can cancel to near 0, where float32 rounding in
            # another order is a large relative error.
            np.testing.assert_allclose(np.asarray(got.numpy() if hasattr(got, "numpy") else got), expect,
                                       rtol=2e-6, atol=1e-5)


def test_unique_is_the_one_op_a_tracer_cannot_record(device, rng):
    x = loom.asarray(rng.integers(0, 5, 50), device=device)
    run = Recorded()
    run(lambda: loom.unique(x))
    assert [(e[0], e[3]) for e in run.events if e[0] == "unique"] == [("unique", False)]
    run(lambda: loom.sort(x))
    assert all(e[3] for e in run.events)


def test_a_user_kernel_launch_passes_the_dispatch_point(device, rng):
    # On cpu() the kernel emulator runs it, on a GPU the driver: both through the one point.
    h = rng.standard_normal(1000).astype(np.float32)
    x = loom.asarray(h.copy(), device=device)
    k = loom.RawKernel(SCALE, "scale")
    run = Recorded()
    run(lambda: k((4,), (256,), (x, np.float32(3), np.int32(1000))))
    assert run.names == ["kernel_launch"]
    assert run.events[0][1:3] == ("kernel", repr(device))
    np.testing.assert_allclose(x.numpy(), h * 3, rtol=1e-6)


def test_no_op_is_seen_once_the_recorder_stops(device):
    x = loom.ones(4, device=device)
    rec = loom._loom._DispatchRecorder()
    rec.start()
    rec.stop()
    _ = x + x
    assert rec.events() == []
