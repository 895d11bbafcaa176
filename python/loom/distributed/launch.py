"""loom.launch: start one process per GPU (or per rank) for `loom.distributed`, as torchrun does.

Usage:
    python -m loom.launch [options] script.py [script args...]
    python -m loom.launch [options] -m package.module [module args...]

    --nproc N          processes on this machine (default 1); "gpu": one per GPU
    --nnodes M         machines in the job (default $SLURM_NNODES, else 1)
    --node-rank R      this machine's index, 0 to M-1 (default $SLURM_NODEID, else 0)
    --master-addr A    host of rank 0's rendezvous (default $MASTER_ADDR, else the first
                       host of the Slurm allocation, else 127.0.0.1)
    --master-port P    its TCP port (default $MASTER_PORT; else 29500 with several machines;
                       else a port free now on 127.0.0.1, so parallel jobs do not collide)
    --grace S          seconds between SIGTERM and SIGKILL when stopping ranks (default 5)
    --no-bind          do not set LOOM_DEVICE

Several machines: run the same command on each, with its own --node-rank and the same
--nnodes, --nproc, --master-addr and --master-port.

Each process gets, besides the launcher's own environment (NCCL_* and the rest untouched):
    RANK              node_rank * nproc + local_rank, 0 to WORLD_SIZE-1
    WORLD_SIZE        nnodes * nproc
    LOCAL_RANK        0 to nproc-1, its index on this machine
    LOCAL_WORLD_SIZE  nproc
    NODE_RANK         this machine's index
    MASTER_ADDR, MASTER_PORT   where `loom.distributed.init()` meets the others
    LOOM_DEVICE       gpu(LOCAL_RANK), which loom takes as the default device: only when this
                      machine has GPUs and without --no-bind. With fewer GPUs than processes,
                      gpu(LOCAL_RANK % count), and the launcher warns once.

On failure: when a process exits non-zero or dies by a signal, the launcher names it on
stderr ("[loom.launch] rank 1 (pid 1234) exited with status 3; stopping the other 2
processes"), sends the others SIGTERM, SIGKILL after --grace seconds, and exits with that
process's status (128+N for a death by signal N, as a shell reports). SIGINT, SIGTERM and
SIGHUP sent to the launcher go to every process (and whatever each started: each runs in
its own process group), survivors get SIGKILL after --grace seconds, and the launcher exits
128+N for signal N even if the processes then exit 0 (the job did not complete); a second
Ctrl-C kills at once. All processes exit 0: the launcher exits 0.

Under mpirun or srun, run the script directly instead (`mpirun -np 8 python train.py`,
`srun python train.py`): those already start one process per rank, and
`loom.distributed.init()` reads their variables (OMPI_COMM_WORLD_*, PMI_*, SLURM_*) through
loom.distributed._env.discover(). loom.launch is not needed there. Inside a Slurm allocation it
still works, one launcher per node (`srun --ntasks-per-node=1 python -m loom.launch
--nproc gpu train.py`): --nnodes, --node-rank and --master-addr then come from Slurm.
"""
import argparse
import os
import socket
import sys

from . import _env
from ._launch_procs import Supervisor


def build_parser():
    p = argparse.ArgumentParser(
        prog="python -m loom.launch",
        description="Start the processes of a loom.distributed job on this machine.")
    p.add_argument("--nproc", "--nproc-per-node", "--nproc_per_node", default="1",
                   help='processes on this machine, or "gpu" for one per GPU (default 1)')
    p.add_argument("--nnodes", default=None,
                   help="machines in the job (default $SLURM_NNODES or 1)")
    p.add_argument("--node-rank", "--node_rank", default=None,
                   help="this machine's index (default $SLURM_NODEID or 0)")
    p.add_argument("--master-addr", "--master_addr", default=None, help="rendezvous host")
    p.add_argument("--master-port", "--master_port", default=None, help="rendezvous port")
    p.add_argument("--grace", type=float, default=5.0,
                   help="seconds from SIGTERM to SIGKILL when stopping processes (default 5)")
    p.add_argument("--no-bind", action="store_true", help="do not set LOOM_DEVICE")
    p.add_argument("-m", "--module", action="store_true",
                   help="the target is a module to run as `python -m`, not a script path")
    p.add_argument("target", nargs="?", help="script.py, or with -m the module name")
    p.add_argument("args", nargs=argparse.REMAINDER, help="arguments for the script")
    return p


def num_gpus():
    """GPUs on this machine, as loom counts them (CUDA_VISIBLE_DEVICES applies). Importing
    loom creates no CUDA context, so the launcher does not hold a GPU the ranks need."""
    try:
        from .. import _loom
    except ImportError as e:  # a source tree without the extension: the ranks will say more
        print(f"[loom.launch] warning: cannot import loom's extension ({e}); assuming no GPU",
              file=sys.stderr)
        return 0
    return _loom.num_gpus()


def free_port():
    """A TCP port free on 127.0.0.1 right now. Another program may take it before rank 0
    binds it, but two launchers at once (parallel tests) get different ones."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def device_for(local_rank, gpus):
    """LOOM_DEVICE for a local rank: its own GPU, sharing round-robin when too few."""
    return None if gpus <= 0 else f"gpu({local_rank % gpus})"


def _int_option(parser, name, text, minimum, source=None):
    where = f" (from ${source})" if source else ""
    try:
        value = int(str(text).strip(), 10)
    except ValueError:
        parser.error(f"{name} {text!r}{where}: not an integer")
    if value < minimum:
        parser.error(f"{name} {value}{where}: must be >= {minimum}")
    return value


def resolve(parser, a, env):
    """Fill in the defaults and check the options; argparse-style exit 2 on any error."""
    if a.target is None:
        parser.error("no script given (python -m loom.launch [options] script.py [args])")
    if not a.module and not os.path.isfile(a.target):
        parser.error(f"script {a.target!r} not found")
    gpus = None
    if str(a.nproc).strip().lower() == "gpu":
        gpus = num_gpus()
        if gpus == 0:
            parser.error("--nproc gpu: this machine has no GPU")
        a.nproc = gpus
    else:
        a.nproc = _int_option(parser, "--nproc", a.nproc, 1)
    if a.nnodes is None:
        a.nnodes = _int_option(parser, "--nnodes", env.get("SLURM_NNODES") or 1, 1,
                               "SLURM_NNODES" if env.get("SLURM_NNODES") else None)
    else:
        a.nnodes = _int_option(parser, "--nnodes", a.nnodes, 1)
    if a.node_rank is None:
        src = "SLURM_NODEID" if env.get("SLURM_NODEID") else None
        a.node_rank = _int_option(parser, "--node-rank", env.get("SLURM_NODEID") or 0, 0, src)
    else:
        a.node_rank = _int_option(parser, "--node-rank", a.node_rank, 0)
    if a.node_rank >= a.nnodes:
        parser.error(f"--node-rank {a.node_rank}: must be < --nnodes {a.nnodes}")
    if a.grace < 0:
        parser.error(f"--grace {a.grace:g}: must be >= 0")
    if a.master_addr is None:
        try:
            a.master_addr = (env.get("MASTER_ADDR", "").strip() or _env.slurm_master_addr(env)
                             or _env.DEFAULT_MASTER_ADDR)
        except ValueError as e:
            parser.error(str(e))
        if a.nnodes > 1 and a.master_addr == _env.DEFAULT_MASTER_ADDR:
            print(f"[loom.launch] warning: --nnodes {a.nnodes} with no --master-addr: using "
                  f"{a.master_addr}, which the other machines cannot reach", file=sys.stderr)
    if a.master_port is None:
        if env.get("MASTER_PORT", "").strip():
            a.master_port = _int_option(parser, "--master-port", env["MASTER_PORT"], 1,
                                        "MASTER_PORT")
        else:  # a fixed port lets the other machines find node 0 without being told
            a.master_port = _env.DEFAULT_MASTER_PORT if a.nnodes > 1 else free_port()
    else:
        a.master_port = _int_option(parser, "--master-port", a.master_port, 1)
    if a.master_port > 65535:
        parser.error(f"--master-port {a.master_port}: must be a TCP port, 1 to 65535")
    a.gpus = 0 if a.no_bind else (gpus if gpus is not None else num_gpus())
    return a


def child_env(a, local_rank, base):
    """The environment of one process: the launcher's own, plus where it sits in the job."""
    env = dict(base)
    env.update(RANK=str(a.node_rank * a.nproc + local_rank), WORLD_SIZE=str(a.nnodes * a.nproc),
               LOCAL_RANK=str(local_rank), LOCAL_WORLD_SIZE=str(a.nproc),
               NODE_RANK=str(a.node_rank), MASTER_ADDR=a.master_addr,
               MASTER_PORT=str(a.master_port))
    device = device_for(local_rank, a.gpus)
    if device is not None:
        env["LOOM_DEVICE"] = device
    return env


def main(argv=None):
    parser = build_parser()
    a = resolve(parser, parser.parse_args(argv), os.environ)
    if 0 < a.gpus < a.nproc:
        print(f"[loom.launch] warning: {a.nproc} processes share {a.gpus} GPU(s): "
              f"local rank i uses gpu(i % {a.gpus})", file=sys.stderr)
    cmd = [sys.executable] + (["-m", a.target] if a.module else [a.target]) + a.args
    sup = Supervisor(a.grace)
    sup.install_signal_handlers()
    for local_rank in range(a.nproc):
        try:
            if not sup.start(a.node_rank * a.nproc + local_rank, cmd,
                             child_env(a, local_rank, os.environ)):
                break  # a signal arrived: run() forwards it to those started
        except OSError as e:
            sup.abort(1, f"cannot start local rank {local_rank}: {e}")
            break
    return sup.run()


if __name__ == "__main__":
    sys.exit(main())
