"""The process group behind loom.distributed (the package re-exports this module's __all__):
init and finalize, the rank and world queries, the collectives over the C++ process group
(loom/distributed/), and DeviceGroup for several devices of one process."""
import atexit
import ctypes.util
import importlib.util
import os

from .. import _loom
from ._env import discover

DistributedError = _loom.DistributedError
DistributedTimeoutError = _loom.DistributedTimeoutError

__all__ = [
    "init", "finalize", "is_initialized", "rank", "world_size", "local_rank", "barrier",
    "all_reduce", "all_reduce_coalesced", "broadcast", "all_gather", "reduce_scatter", "all_to_all", "send", "recv",
    "DistributedError", "DistributedTimeoutError", "DeviceGroup", "backends",
]


def _point_at_nccl_wheel():
    """NCCL is dlopen'ed; where libnccl.so.2 is not on the loader's path, use the one of the
    nvidia-nccl wheel that PyTorch and CuPy install."""
    if os.environ.get("LOOM_NCCL_LIBRARY") or ctypes.util.find_library("nccl"):
        return
    try:
        spec = importlib.util.find_spec("nvidia.nccl")
    except (ImportError, ValueError):
        return
    for root in (spec.submodule_search_locations or []) if spec else []:
        lib = os.path.join(root, "lib", "libnccl.so.2")
        if os.path.exists(lib):
            os.environ["LOOM_NCCL_LIBRARY"] = lib
            return


def _bound_device():
    """The GPU loom.launch bound this process to (LOOM_DEVICE=gpu(i)), else None."""
    spec = os.environ.get("LOOM_DEVICE", "")
    if spec.startswith("gpu") or spec.startswith("cuda"):
        d = _loom.default_device()
        return d if d.type != "cpu" else None
    return None


def init(backend="auto", *, rank=None, world_size=None, local_rank=None, master_addr=None,
         master_port=None, timeout=300.0, check_args=True, device="auto"):
    """Joins the process group; returns when every rank has joined (or raises
    DistributedTimeoutError after `timeout` seconds).

    Unset arguments come from the environment (`_env.discover()`: loom.launch and torchrun's
    RANK/WORLD_SIZE/..., Open MPI's and MPICH's mpirun, Slurm's srun). backend: "auto" (Gloo
    for cpu() arrays, NCCL for GPU arrays), "gloo" or "nccl". device: the GPU whose NCCL
    communicator is made now; "auto" is the GPU loom.launch bound this process to, if any;
    None makes it at the first GPU collective. check_args=False skips the per-call check of
    matching arguments (one round trip to the store per collective).
    """
    env = discover()
    rank = env.rank if rank is None else int(rank)
    world_size = env.world_size if world_size is None else int(world_size)
    local_rank = env.local_rank if local_rank is None else int(local_rank)
    master_addr = env.master_addr if master_addr is None else str(master_addr)
    master_port = env.master_port if master_port is None else int(master_port)
    if device == "auto":
        device = _bound_device()
    if backend in ("auto", "nccl"):
        _point_at_nccl_wheel()
    _loom._dist_init(rank, world_size, local_rank, master_addr, master_port, str(backend), float(timeout),
                     bool(check_args), device)


def finalize():
    """Waits for every rank, then leaves the group; init() may be called again."""
    _loom._dist_finalize(True)


@atexit.register
def _leave_at_exit():
    # Without waiting: the other ranks may have ended already.
    if _loom._dist_is_initialized():
        _loom._dist_finalize(False)


def is_initialized():
    return _loom._dist_is_initialized()


def rank():
    return _loom._dist_rank()


def world_size():
    return _loom._dist_world_size()


def local_rank():
    return _loom._dist_local_rank()


def barrier():
    """Waits until every rank has called barrier() (host side: queued GPU work is not waited for)."""
    _loom._dist_barrier()


def _array(x, op, name="x"):
    if not isinstance(x, _loom.ndarray):
        raise TypeError(f"[{op}] {name} must be a loom array, got {type(x).__name__}")
    return x


def all_reduce(x, op="sum", *, check=True):
    """In place: x becomes the reduction ('sum', 'prod', 'min', 'max', 'avg') of every rank's x.
    Returns x. check=False skips this call's agreement round trip, for callers that checked
    the arguments already (DistributedDataParallel checks its parameters once)."""
    _loom._dist_all_reduce(_array(x, "all_reduce"), str(op), bool(check))
    return x


def all_reduce_coalesced(arrays, op="sum", *, check=True):
    """In place, each of `arrays` as all_reduce would, in one collective call (on GPUs one
    NCCL group: one launch for all of them). The arrays lie on one device and must not
    overlap in memory; their dtypes and shapes may differ. Returns arrays."""
    xs = [_array(x, "all_reduce_coalesced", f"arrays[{i}]") for i, x in enumerate(arrays)]
    _loom._dist_all_reduce_coalesced(xs, str(op), bool(check))
    return arrays


def broadcast(x, root=0):
    """In place: every rank's x becomes root's. Returns x."""
    _loom._dist_broadcast(_array(x, "broadcast"), int(root))
    return x


def all_gather(x):
    """Every rank's x, stacked: shape (world_size, *x.shape)."""
    return _loom._dist_all_gather(_array(x, "all_gather"))


def reduce_scatter(x, op="sum"):
    """The reduction of every rank's x, split along axis 0 into world_size chunks; rank r
    gets chunk r. x.shape[0] must divide by world_size."""
    return _loom._dist_reduce_scatter(_array(x, "reduce_scatter"), str(op))


def all_to_all(x):
    """Chunk j of x (along axis 0) goes to rank j; chunk j of the result came from rank j."""
    return _loom._dist_all_to_all(_array(x, "all_to_all"))


def send(x, dst):
    """Sends x to rank dst, which calls recv(out, src=this rank) with the same dtype and shape."""
    _loom._dist_send(_array(x, "send"), int(dst))


def recv(out, src):
    """Fills `out` in place with what rank src sends. Returns out."""
    _loom._dist_recv(_array(out, "recv", "out"), int(src))
    return out


class DeviceGroup:
    """One process driving several devices (d2l's multi-GPU training): collectives over one
    array per device, in place. Distinct GPUs with NCCL use one NCCL communicator per GPU
    and each call is one NCCL group; otherwise (cpu(), a device named twice, no NCCL) the
    arrays are combined through copies.

        g = dist.DeviceGroup([loom.gpu(0), loom.gpu(1)])
        g.all_reduce([grad_on_0, grad_on_1], op="sum")
    """

    def __init__(self, devices):
        _point_at_nccl_wheel()
        self._g = _loom._DeviceGroup(list(devices))

    @property
    def devices(self):
        return list(self._g.devices)

    @property
    def uses_nccl(self):
        return self._g.uses_nccl

    def all_reduce(self, arrays, op="sum"):
        """Every arrays[i] (on devices[i]) becomes the reduction of all of them. Returns arrays."""
        self._g.all_reduce(list(arrays), str(op))
        return arrays

    def broadcast(self, arrays, root=0):
        """Every arrays[i] becomes arrays[root]. Returns arrays."""
        self._g.broadcast(list(arrays), int(root))
        return arrays


def backends():
    """What this build and machine offer: {'gloo': bool, 'nccl': 'nccl 2.x.y' or why not}."""
    _point_at_nccl_wheel()
    return {"gloo": _loom._dist_gloo_compiled(), "nccl": _loom._dist_nccl_description()}
