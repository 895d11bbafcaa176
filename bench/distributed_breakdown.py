"""Where data-parallel training's time goes, per rank: a diagnostic beside bench/data_parallel.py.

    python3 bench/distributed_breakdown.py [--batch 256] [--steps 30] [--rounds 5] [--own-gpu-only]

Starts itself under `python -m loom.launch --nproc 2` (GPUs when the machine has 2, else
cpu() over Gloo) and trains the MLP 784-512-512-10 (Adam) of bench/data_parallel.py. For each
rank it prints, in milliseconds per step (medians over --rounds rounds of --steps steps,
the ranks lined up by a barrier before each round):
  plain host / total   one process's own training, no communication: the host's time to
                       queue a step, and the time until its device has finished it
  DDP host / total     the same under nn.DistributedDataParallel
  all-reduce alone     the gradients' all-reduce with the ranks lined up and the devices
                       idle: what the communication itself costs
  all-reduce in loop   device time of the same all-reduce inside the training loop (CUDA
                       events around it), which includes waiting for the other rank
A rank whose host is slower than the other's makes the faster one's all-reduce wait: the
"in loop" figure then exceeds "alone" by that difference. A benchmark, never a test.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

import numpy as np

# --own-gpu-only: each rank sees only its own GPU (set before loom touches CUDA), so no
# process can hold a context on the other rank's GPU.
if "--ranks" in sys.argv and os.environ.get("LOOM_BREAKDOWN_OWN_GPU") == "1":
    os.environ["CUDA_VISIBLE_DEVICES"] = os.environ["LOCAL_RANK"]
    os.environ["LOOM_DEVICE"] = "gpu(0)"
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import loom  # noqa: E402
from table import print_rows  # noqa: E402


def mlp(nn, dev):
    return nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(),
                         nn.Linear(512, 10)).to(dev)


def ms(seconds):
    return f"{seconds * 1e3:.3f}"


def ranks(args):
    import loom.distributed as dist
    from loom import nn, optim
    dist.init()
    r, w = dist.rank(), dist.world_size()
    own = os.environ.get("LOOM_BREAKDOWN_OWN_GPU") == "1"
    dev = loom.gpu(0 if own else dist.local_rank()) if loom.num_gpus() >= (1 if own else w) else loom.cpu()

    def loss_fn(m, xb, yb):
        return nn.losses.cross_entropy(m(xb), yb)

    rng = np.random.default_rng(r)
    X = loom.asarray(rng.standard_normal((args.batch, 784)).astype("float32"), device=dev)
    y = loom.asarray(rng.integers(0, 10, args.batch), device=dev)
    plain = mlp(nn, dev)
    plain_vg, plain_opt = nn.value_and_grad(plain, loss_fn), optim.Adam(learning_rate=1e-3)
    ddp = nn.DistributedDataParallel(mlp(nn, dev))
    ddp_vg, ddp_opt = ddp.value_and_grad(loss_fn), optim.Adam(learning_rate=1e-3)

    def plain_step():
        _, g = plain_vg(plain, X, y)
        plain_opt.update(plain, g)

    def ddp_step():
        _, g = ddp_vg(ddp, X, y)
        ddp_opt.update(ddp.module, g)

    def host_and_total(step):
        """(host, total) seconds per step: queueing `steps` steps, then until the device is done."""
        hosts, totals = [], []
        for k in range(args.rounds + 1):  # round 0 warms up
            dist.barrier()
            dev.synchronize()
            t0 = time.perf_counter()
            for _ in range(args.steps):
                step()
            t1 = time.perf_counter()
            dev.synchronize()
            t2 = time.perf_counter()
            if k:
                hosts.append((t1 - t0) / args.steps)
                totals.append((t2 - t0) / args.steps)
        return statistics.median(hosts), statistics.median(totals)

    p_host, p_total = host_and_total(plain_step)
    d_host, d_total = host_and_total(ddp_step)

    # The all-reduce DDP makes (every gradient, one coalesced call), alone and in the loop.
    _, g = plain_vg(plain, X, y)
    grads = [a.copy() for a in g.values()]
    alone = []
    for _ in range(10 * args.rounds):
        dist.barrier()
        dev.synchronize()
        t0 = time.perf_counter()
        dist.all_reduce_coalesced(grads, op="avg", check=False)
        dev.synchronize()
        alone.append(time.perf_counter() - t0)
    in_loop = []
    if dev.type != "cpu":  # events time device work; on cpu() the call itself is the time
        for _ in range(args.rounds):
            dist.barrier()
            dev.synchronize()
            pairs = []
            for _ in range(args.steps):
                _, g = plain_vg(plain, X, y)
                start, end = loom.Event(dev), loom.Event(dev)
                start.record()
                dist.all_reduce_coalesced(list(g.values()), op="avg", check=False)
                end.record()
                plain_opt.update(plain, g)
                pairs.append((start, end))
            dev.synchronize()
            in_loop.extend(s.elapsed_time(e) / 1e3 for s, e in pairs)  # elapsed_time: ms

    if r == 0 and dev.type != "cpu":  # which processes hold a context on which GPU, mid-run
        try:
            apps = subprocess.run(["nvidia-smi", "--query-compute-apps=pid,gpu_bus_id,used_memory",
                                   "--format=csv,noheader"], capture_output=True, text=True, timeout=20).stdout
            print("processes on the GPUs (pid, bus, memory):\n" + apps.strip(), flush=True)
        except (OSError, subprocess.SubprocessError) as e:
            print(f"nvidia-smi: {e}")
    mine = [p_host, p_total, d_host, d_total, statistics.median(alone[5:]),
            statistics.median(in_loop) if in_loop else float("nan"), os.getpid()]
    everyone = dist.all_gather(loom.asarray(np.array(mine), device=dev)).numpy()
    if r == 0:
        rows = [[f"rank {k} ({dev.type})", f"{ms(v[0])} / {ms(v[1])}", f"{ms(v[2])} / {ms(v[3])}", ms(v[4]),
                 "n/a" if np.isnan(v[5]) else ms(v[5])] for k, v in enumerate(everyone)]
        print(f"pids: {[int(v[6]) for v in everyone]}" + (" (each rank sees only its own GPU)" if own else ""))
        print(f"MLP 784-512-512-10 (Adam), batch {args.batch} per rank, ms per step "
              f"(medians of {args.rounds} rounds of {args.steps} steps)")
        print_rows(["rank", "plain host / total", "DDP host / total", "all-reduce alone", "all-reduce in loop"],
                   rows, title="distributed_breakdown")
    dist.finalize()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--own-gpu-only", action="store_true",
                    help="each rank sees only its own GPU (CUDA_VISIBLE_DEVICES), to compare")
    ap.add_argument("--ranks", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.ranks:
        return ranks(args)
    if args.own_gpu_only:
        os.environ["LOOM_BREAKDOWN_OWN_GPU"] = "1"
    cmd = [sys.executable, "-m", "loom.launch", "--nproc", "2"]
    if loom.num_gpus() < 2:
        cmd.append("--no-bind")
    cmd += [os.path.abspath(__file__), "--ranks", "--batch", str(args.batch), "--steps", str(args.steps),
            "--rounds", str(args.rounds)]
    subprocess.run(cmd, check=True)


if __name__ == "__main__":
    main()
