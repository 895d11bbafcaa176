"""loom.distributed: collectives between processes, as torch.distributed has them.

    import loom, loom.distributed as dist
    dist.init()                        # RANK, WORLD_SIZE, ... from loom.launch, torchrun, mpirun or srun
    x = loom.ones(4, device=loom.gpu(dist.local_rank()))
    dist.all_reduce(x)                 # in place: every rank now holds the sum

cpu() arrays travel over Gloo (TCP), GPU arrays over NCCL, enqueued on the array's stream
like any other op. Every rank calls the same collectives in the same order with arrays of
the same dtype and shape; each call checks that first through the rendezvous store, so a
mismatch raises ValueError on every rank and a rank that never comes raises
DistributedTimeoutError on the others after `timeout` seconds (docs/DISTRIBUTED.md).

  process_group.py   init/finalize, the collectives and DeviceGroup over the C++ process group
  _env.py            where this process sits in a job: the variables of each launcher
  launch.py          `python -m loom.launch` (loom.launch): one process per rank
  _launch_procs.py   the launcher's children: start, forward signals, stop the job on a failure

Data-parallel training over these (Trainer(num_gpus=k)) is in loom.train; the layer that
all-reduces a model's gradients (nn.DistributedDataParallel) is in loom.nn.
"""
from .process_group import (DeviceGroup, DistributedError, DistributedTimeoutError, all_gather, all_reduce,
                            all_reduce_coalesced, all_to_all, backends, barrier, broadcast, finalize, init,
                            is_initialized, local_rank, rank, recv, reduce_scatter, send, world_size)

__all__ = [
    "init", "finalize", "is_initialized", "rank", "world_size", "local_rank", "barrier",
    "all_reduce", "all_reduce_coalesced", "broadcast", "all_gather", "reduce_scatter", "all_to_all", "send", "recv",
    "DistributedError", "DistributedTimeoutError", "DeviceGroup", "backends",
]
