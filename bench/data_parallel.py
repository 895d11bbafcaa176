"""Several GPUs: loom against PyTorch in the same run (issue 17's targets).

One process: a 1 GiB gpu(0) -> gpu(1) copy (peer to peer), and two GPUs multiplying
matrices at once against one. Then, under `python -m loom.launch --nproc 2` (this script
starts it): all_reduce of 1 GiB (bus bandwidth, as nccl-tests count it: 2(n-1)/n x bytes /
time), and data-parallel training of the MLP 784-512-512-10 (Adam) with DDP on 2 GPUs
against one GPU, in samples per second at the same batch per GPU, loom's and PyTorch's
(the last column: loom's samples per second on 2 GPUs against PyTorch's).

    python3 bench/data_parallel.py [--quick]

Needs 2 GPUs; prints why not otherwise.
"""
import argparse
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import loom  # noqa: E402
from table import print_rows  # noqa: E402
from timing import timed  # noqa: E402

GIB = 2**30


def median_time(fn, sync, reps):
    """Median seconds of one synced call."""
    return timed(fn, sync, reps, 1)


def back_to_back(fn, sync, reps, calls=20):
    """Seconds per call of `calls` calls queued back to back, then one sync, as nccl-tests
    time collectives (median over reps)."""
    return timed(fn, sync, reps, calls)


def one_process(torch, reps):
    rows = []
    g0, g1 = loom.gpu(0), loom.gpu(1)
    sync01 = lambda: (g0.synchronize(), g1.synchronize())  # noqa: E731
    x = loom.ones(GIB // 4, dtype="float32", device=g0)
    t_loom = median_time(lambda: x.copy_to(g1), sync01, reps)
    tx = torch.ones(GIB // 4, dtype=torch.float32, device="cuda:0")
    tsync = lambda: (torch.cuda.synchronize(0), torch.cuda.synchronize(1))  # noqa: E731
    t_torch = median_time(lambda: tx.to("cuda:1"), tsync, reps)
    rows.append(["copy gpu(0) -> gpu(1), 1 GiB (GB/s)", f"{GIB / t_loom / 1e9:.0f}", f"{GIB / t_torch / 1e9:.0f}",
                 f"{t_torch / t_loom:.2f}x"])
    del x, tx

    n, k = 8192, 10
    a = [loom.ones((n, n), dtype="float32", device=d) for d in (g0, g1)]
    ta = [torch.ones((n, n), dtype=torch.float32, device=f"cuda:{i}") for i in (0, 1)]

    def loom_mm(devs):
        for _ in range(k):
            for i in devs:
                a[i] @ a[i]

    def torch_mm(devs):
        for _ in range(k):
            for i in devs:
                ta[i] @ ta[i]
    one = median_time(lambda: loom_mm([0]), sync01, reps)
    two = median_time(lambda: loom_mm([0, 1]), sync01, reps)
    tone = median_time(lambda: torch_mm([0]), tsync, reps)
    ttwo = median_time(lambda: torch_mm([0, 1]), tsync, reps)
    rows.append([f"2 GPUs at once vs 1: {k} matmuls {n}^2 f32 each (speed-up)", f"{2 * one / two:.3f}x",
                 f"{2 * tone / ttwo:.3f}x", ""])
    return rows


def ranks(reps, quick):
    """Runs in each of the 2 processes that loom.launch started; rank 0 prints."""
    import torch
    import torch.distributed as tdist

    import loom.distributed as dist
    dist.init()
    r, w = dist.rank(), dist.world_size()
    dev = loom.gpu(dist.local_rank())
    torch.cuda.set_device(dist.local_rank())
    tdist.init_process_group("nccl", init_method=f"tcp://{os.environ['MASTER_ADDR']}:"
                             f"{int(os.environ['MASTER_PORT']) + 1}", rank=r, world_size=w)
    rows = []
    x = loom.ones(GIB // 4, dtype="float32", device=dev)
    tx = torch.ones(GIB // 4, dtype=torch.float32, device="cuda")
    bus = 2 * (w - 1) / w * GIB
    t_loom = back_to_back(lambda: dist.all_reduce(x), dev.synchronize, reps)
    t_torch = back_to_back(lambda: tdist.all_reduce(tx), torch.cuda.synchronize, reps)
    rows.append(["all_reduce 1 GiB f32, bus bandwidth (GB/s)", f"{bus / t_loom / 1e9:.0f}",
                 f"{bus / t_torch / 1e9:.0f}", f"{t_torch / t_loom:.2f}x"])
    del x, tx

    rows += data_parallel_rows(r, w, dev, torch, reps, 10 if quick else 30)
    if r == 0:
        print_rows(["case (2 processes)", "loom", "PyTorch", "loom vs PyTorch"], rows)
    tdist.destroy_process_group()
    dist.finalize()


def data_parallel_rows(r, w, dev, torch, reps, steps):
    """The MLP 784-512-512-10 (Adam) trained on one GPU (rank 0 alone; the others wait at a
    barrier) and with DDP on every GPU, loom's and PyTorch's, at the same batch per GPU.
    Rounds alternate the four, so a drift of the shared host (clock speed, a neighbour's
    load) reaches each alike. Small batches are bound by the host's time per step (about
    0.6 to 1.2 ms on the lent machines, which varies within minutes); the largest is bound
    by the GPUs, as data-parallel training is meant to be."""
    import loom.distributed as dist
    import torch.nn.functional as F
    from loom import nn, optim
    from torch.nn.parallel import DistributedDataParallel as TorchDDP
    rows = []

    def loom_mlp():
        return nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(),
                             nn.Linear(512, 10)).to(dev)

    def torch_mlp():
        tn = torch.nn
        return tn.Sequential(tn.Linear(784, 512), tn.ReLU(), tn.Linear(512, 512), tn.ReLU(),
                             tn.Linear(512, 10)).cuda()

    def loss_fn(m, xb, yb):
        return nn.losses.cross_entropy(m(xb), yb)

    for batch in (256, 2048, 16384):
        rng = np.random.default_rng(r)
        xn = rng.standard_normal((batch, 784)).astype("float32")
        yn = rng.integers(0, 10, batch)
        X, y = loom.asarray(xn, device=dev), loom.asarray(yn, device=dev)
        tX, ty = torch.from_numpy(xn).cuda(), torch.from_numpy(yn).cuda()

        def loom_train(net, vg, opt):
            def run():
                for _ in range(steps):
                    _, g = vg(net, X, y)
                    opt.update(net.module if hasattr(net, "module") else net, g)
            return run

        def torch_train(net):
            opt = torch.optim.Adam(net.parameters(), lr=1e-3)

            def run():
                for _ in range(steps):
                    opt.zero_grad(set_to_none=True)
                    F.cross_entropy(net(tX), ty).backward()
                    opt.step()
            return run
        net1, ddp = loom_mlp(), nn.DistributedDataParallel(loom_mlp())
        sides = {
            "loom": (loom_train(net1, nn.value_and_grad(net1, loss_fn), optim.Adam(learning_rate=1e-3)),
                     loom_train(ddp, ddp.value_and_grad(loss_fn), optim.Adam(learning_rate=1e-3)),
                     dev.synchronize),
            "torch": (torch_train(torch_mlp()), torch_train(TorchDDP(torch_mlp(), device_ids=[dev.index])),
                      torch.cuda.synchronize),
        }
        times = {k: ([], []) for k in sides}
        for _ in range(reps + 1):  # the first round warms up
            for k, (one, two, sync) in sides.items():
                if r == 0:
                    times[k][0].append(median_time(one, sync, 1))
                dist.barrier()
                times[k][1].append(median_time(two, sync, 1))
                dist.barrier()
        if r == 0:
            cells, sps2 = [], {}
            for k, (t1s, t2s) in times.items():
                sps1 = batch * steps / float(np.median(t1s[1:]))
                sps2[k] = w * batch * steps / float(np.median(t2s[1:]))
                cells.append(f"{sps2[k] / sps1:.3f}x ({sps2[k]:,.0f} vs {sps1:,.0f})")
            rows.append([f"DDP MLP (Adam), batch {batch}/GPU: 2 GPUs vs 1 (samples/s)", *cells,
                         f"{sps2['loom'] / sps2['torch']:.2f}x"])
        del sides, net1, ddp, X, y, tX, ty
    return rows


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--quick", action="store_true")
    p.add_argument("--ranks", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    reps = 3 if args.quick else 10
    if args.ranks:
        return ranks(reps, args.quick)
    if loom.num_gpus() < 2:
        print(f"bench/data_parallel.py: needs 2 GPUs, this machine has {loom.num_gpus()}; skipped")
        return
    import torch
    print_rows(["case (one process)", "loom", "PyTorch", "loom vs PyTorch"], one_process(torch, reps))
    print()
    cmd = [sys.executable, "-m", "loom.launch", "--nproc", "2", os.path.abspath(__file__), "--ranks"]
    if args.quick:
        cmd.append("--quick")
    subprocess.run(cmd, check=True)


if __name__ == "__main__":
    main()
