"""loom.nn training steps next to PyTorch eager in the same run, with the targets of issue 14.

    make bench                   # with the other benchmarks
    python3 bench/nn.py          # PYTHONPATH=python when loom is built in-tree
    python3 bench/nn.py --quick

Cases (on gpu(0) when there is one, else cpu(); PyTorch prints n/a when not installed):
  step MLP     784-512-512-10, batch 256: forward, backward, Adam update;  target <= 1.0x torch,
               under loom.jit <= 0.7x torch
  step LeNet   conv 1->6 5x5, pool, conv 6->16 5x5, pool, 120, 84, 10 on 256 28x28 images; same targets
  conv 64x56   Conv2d 64->64 3x3 pad 1 on 64x64x56x56 float32, forward + backward;  target <= 1.2x torch
               in exact float32 (loom's default; torch.backends.cudnn.allow_tf32 = False), and a
               second row with TF32 on both sides (loom.set_matmul_precision('tf32'), torch's default)
PyTorch runs its convolutions in exact float32 here too, as loom does by default.
  data         an epoch of DataLoader batches (NumPy, 32 x 3 x 224 x 224 float32) each used by a
               GPU matmul, prefetch=0 against prefetch=2 (pinned buffers, a copy stream); GPU only
Step timings are medians over rounds that run loom eager, loom jit and PyTorch in turn (5
steps each), so that a noisy host slows all three alike. A benchmark, never a test.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import loom  # noqa: E402
from loom import nn, optim  # noqa: E402
from table import print_rows  # noqa: E402
from timing import timed, timed_together  # noqa: E402


def lenet():
    return nn.Sequential(nn.Conv2d(1, 6, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(6, 16, 5), nn.ReLU(),
                         nn.MaxPool2d(2), nn.Flatten(), nn.Linear(400, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(),
                         nn.Linear(84, 10))


def mlp():
    return nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))


def torch_twin(torch, net):
    """The same architecture in PyTorch with loom's initial parameters."""
    layers = []
    for m in net:
        if isinstance(m, nn.Linear):
            t = torch.nn.Linear(m.in_features, m.out_features)
        elif isinstance(m, nn.Conv2d):
            t = torch.nn.Conv2d(m.in_channels, m.out_channels, m.kernel_size, m.stride, m.padding)
        elif isinstance(m, nn.ReLU):
            t = torch.nn.ReLU()
        elif isinstance(m, nn.MaxPool2d):
            t = torch.nn.MaxPool2d(m.kernel_size)
        else:
            t = torch.nn.Flatten()
        if hasattr(m, "weight"):
            with torch.no_grad():
                t.weight.copy_(torch.from_numpy(m.weight.numpy()))
                t.bias.copy_(torch.from_numpy(m.bias.numpy()))
        layers.append(t)
    return torch.nn.Sequential(*layers)


def loom_step(net, jit):
    """One training step as a user writes it: eager, value_and_grad then opt.update (whose
    Adam step loom compiles, as PyTorch's Adam runs foreach kernels); or the whole step,
    forward, backward and update, under loom.jit."""
    opt = optim.Adam(learning_rate=1e-3)
    vg = nn.value_and_grad(net, lambda m, x, y: nn.losses.cross_entropy(m(x), y))
    if not jit:
        def eager_step(x, y):
            loss, grads = vg(net, x, y)
            opt.update(net, grads)
        return eager_step

    def update(m, state, x, y):
        loss, grads = vg(m, x, y)
        params, state = opt.apply(dict(m.named_parameters()), grads, state)
        return loss, params, state
    run = loom.jit(update)
    state = [opt.init(dict(net.named_parameters()))]

    def step(x, y):
        loss, params, state[0] = run(net, state[0], x, y)
        net.update_parameters(params)
    return step


def data_row(dev, sync, reps):
    """Seconds per epoch of a loader whose batches each feed ~1 ms of GPU work: with prefetch
    the copies overlap that work, without it each copy waits for the one before."""
    import time
    from loom.data import DataLoader
    images = np.random.default_rng(0).standard_normal((512, 3, 224, 224), dtype=np.float32)
    w = loom.ones((224, 224), device=dev)

    def epoch(loader):
        for (xb,) in loader:
            for _ in range(3):
                xb = xb @ w
        sync()
    out = []
    for prefetch in (0, 2):
        loader = DataLoader(images, batch_size=32, device=dev, prefetch=prefetch)
        epoch(loader)
        times = []
        for _ in range(reps):
            t0 = time.perf_counter()
            epoch(loader)
            times.append(time.perf_counter() - t0)
        out.append(sorted(times)[len(times) // 2] * 1e3)
    return ("epoch of 16 batches 32x3x224x224", "ms", f"{out[0]:.1f}", f"{out[1]:.1f}",
            "yes" if out[1] < out[0] else "NO")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    reps = 5 if args.quick else 20
    dev = loom.gpu(0) if loom.num_gpus() else loom.cpu()
    try:
        import torch
        tdev = torch.device("cuda" if dev != loom.cpu() else "cpu")
        torch.backends.cudnn.allow_tf32 = False  # exact float32 convolutions, as loom's default
        tsync = torch.cuda.synchronize if dev != loom.cpu() else (lambda: None)
    except ImportError:
        torch = None
    sync = lambda: (loom.synchronize(dev), loom._loom._wait_for_background_compiles())  # noqa: E731
    rng = np.random.default_rng(0)
    rows = []
    for name, make, xshape in (("step MLP b256", mlp, (256, 784)), ("step LeNet b256", lenet, (256, 1, 28, 28))):
        loom.random.seed(0)
        net = make().to(dev)
        xh = rng.standard_normal(xshape).astype(np.float32)
        yh = rng.integers(0, 10, xshape[0])
        x, y = loom.asarray(xh, device=dev), loom.asarray(yh, device=dev)
        es, js = loom_step(net, False), loom_step(net, True)
        steps = {"eager": lambda: es(x, y), "jit": lambda: js(x, y)}  # noqa: B023
        syncs = {"eager": sync, "jit": sync}
        if torch is not None:
            tn = torch_twin(torch, make()).to(tdev)
            topt = torch.optim.Adam(tn.parameters(), lr=1e-3)
            tx, ty = torch.from_numpy(xh).to(tdev), torch.from_numpy(yh).to(tdev)

            def tstep():
                topt.zero_grad()
                torch.nn.functional.cross_entropy(tn(tx), ty).backward()
                topt.step()
            steps["torch"], syncs["torch"] = tstep, tsync
        ms = {k: v * 1e3 for k, v in timed_together(steps, syncs, reps, 5).items()}
        eager, jit, t = ms["eager"], ms["jit"], ms.get("torch")
        rows.append((name, "ms", f"{eager:.3f}", f"{jit:.3f}", "n/a" if t is None else f"{t:.3f}",
                     "<= 1.0x / jit <= 0.7x", "n/a" if t is None else ("yes" if eager <= t and jit <= 0.7 * t else "NO")))
    if dev != loom.cpu() or not args.quick:
        shape = (64, 64, 56, 56) if dev != loom.cpu() else (8, 64, 28, 28)
        conv = nn.Conv2d(64, 64, 3, padding=1).to(dev)
        xh = rng.standard_normal(shape).astype(np.float32)
        x = loom.asarray(xh, device=dev)
        vg = nn.value_and_grad(conv, lambda m, x: loom.sum(m(x)))
        for tf32 in (False, True):
            loom.set_matmul_precision("tf32" if tf32 else "float32")
            lc = timed(lambda: vg(conv, x), sync, reps, 3) * 1e3
            t = None
            if torch is not None:
                torch.backends.cudnn.allow_tf32 = tf32
                tc = torch.nn.Conv2d(64, 64, 3, padding=1).to(tdev)
                tx = torch.from_numpy(xh).to(tdev).requires_grad_(True)

                def tstep():
                    tc.zero_grad()
                    tc(tx).sum().backward()
                t = timed(tstep, tsync, reps, 3) * 1e3
            rows.append((f"conv 64->64 3x3 on {'x'.join(map(str, shape))}" + (" tf32" if tf32 else ""), "ms",
                         f"{lc:.3f}", "-", "n/a" if t is None else f"{t:.3f}", "<= 1.2x torch",
                         "n/a" if t is None else ("yes" if lc <= 1.2 * t else "NO")))
        loom.set_matmul_precision("float32")
        if torch is not None:
            torch.backends.cudnn.allow_tf32 = False
    print(f"\nloom.nn training on {dev!r}")
    print_rows(["case", "unit", "loom eager", "loom jit", "PyTorch", "target", "met"], rows)
    if dev != loom.cpu():
        print(f"\nloom.data.DataLoader on {dev!r}: NumPy batches, each feeding GPU matmuls")
        print_rows(["case", "unit", "prefetch=0", "prefetch=2", "faster"], [data_row(dev, sync, 3 if args.quick else 7)])


if __name__ == "__main__":
    main()
