"""Data-parallel training under the launcher: each process trains on its share of every
batch, the gradients are averaged over the processes, and every rank ends with the same
model.

    python -m loom.launch --nproc 2 examples/distributed_train.py           # GPUs if there are, else cpu()
    python -m loom.launch --nproc 2 examples/distributed_train.py --cpu

Each process uses gpu(LOCAL_RANK) when the machine has enough GPUs (loom.launch binds
them), else cpu(), where the collectives run over Gloo.
"""
import argparse
import sys

import numpy as np

import loom
import loom.distributed as dist
from loom import nn, optim


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cpu", action="store_true", help="train on cpu() even where there are GPUs")
    p.add_argument("--steps", type=int, default=200)
    args = p.parse_args()
    dist.init(device=None if args.cpu else "auto")
    rank, world = dist.rank(), dist.world_size()
    dev = loom.cpu() if args.cpu or loom.num_gpus() <= dist.local_rank() else loom.gpu(dist.local_rank())

    # A synthetic task every rank makes alike: 3 Gaussian blobs in 8 dimensions.
    rng = np.random.default_rng(0)
    centres = rng.standard_normal((3, 8)) * 3
    labels = rng.integers(0, 3, size=3000)
    points = (centres[labels] + rng.standard_normal((3000, 8))).astype("float32")
    mine = slice(rank, None, world)  # this rank's share of the data
    X, y = loom.asarray(points[mine], device=dev), loom.asarray(labels[mine], device=dev)

    net = nn.DistributedDataParallel(nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 3)).to(dev))
    opt = optim.Adam(learning_rate=1e-2)
    step = net.value_and_grad(lambda m, xb, yb: nn.losses.cross_entropy(m(xb), yb))
    for i in range(args.steps):
        loss, grads = step(net, X, y)
        opt.update(net.module, grads)
    mean_loss = dist.all_reduce(loom.asarray(np.float32(loss.numpy()), device=dev), op="avg")
    accuracy = float((net(X).argmax(axis=1) == y).astype("float32").mean().numpy())
    everyone = dist.all_gather(net.module[0].weight).numpy()
    same = all(np.array_equal(everyone[0], everyone[k]) for k in range(world))
    # One write per line, so that the ranks' lines do not interleave mid-line.
    sys.stdout.write(f"rank {rank}/{world} on {dev}: loss {float(mean_loss.numpy()):.4f}, accuracy {accuracy:.3f}, "
                     f"parameters identical on every rank: {same}\n")
    sys.stdout.flush()
    dist.finalize()


if __name__ == "__main__":
    main()
