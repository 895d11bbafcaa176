"""nn.DistributedDataParallel: data-parallel training with one process per device, as
PyTorch's DDP: each rank runs the model on its share of the batch, and the gradients are
averaged over the ranks before the optimiser's step, so every rank's parameters stay
identical.

    dist.init()
    net = nn.DistributedDataParallel(make_net().to(loom.gpu(dist.local_rank())))
    loss, grads = net.value_and_grad(loss_fn)(net, X_shard, y_shard)   # grads: averaged
    opt.update(net.module, grads)

The gradients are all-reduced in buckets of about `bucket_cap_mb` MiB, last layers first
(the order the backward pass produces them): each bucket is averaged in place by one
all_reduce_coalesced (on GPUs one NCCL group, which launches one kernel for the bucket; on
cpu() Gloo, one call per array), so a model of many small parameters costs a few
collectives, not one per parameter, and no copy into a bucket buffer and back. The all-reduces are enqueued on
the device's stream right after the backward pass's kernels and run while the host goes on.
"""
from .. import _loom
from .. import distributed as dist
from .module import Module, value_and_grad


class DistributedDataParallel:
    def __init__(self, module, bucket_cap_mb=25.0):
        if not isinstance(module, Module):
            raise TypeError(f"[DistributedDataParallel] expected an nn.Module, got {type(module).__name__}")
        if not dist.is_initialized():
            raise dist.DistributedError("[DistributedDataParallel] call loom.distributed.init() first")
        if not bucket_cap_mb > 0:
            raise ValueError(f"[DistributedDataParallel] bucket_cap_mb must be > 0, got {bucket_cap_mb}")
        self.module = module
        self.bucket_bytes = int(bucket_cap_mb * 2**20)
        # Rank 0's initial weights everywhere: ranks seeded differently still train one model.
        # Each broadcast also checks that every rank has this parameter's dtype and shape, so
        # the gradients' all-reduces (of those shapes, in buckets made the same way on every
        # rank) skip the per-call check.
        for _, a in list(module.named_parameters()) + list(module.named_buffers()):
            dist.broadcast(a, root=0)

    def __call__(self, *args, **kwargs):
        return self.module(*args, **kwargs)

    def __getattr__(self, name):
        # Only for names the wrapper lacks; before __init__ has set the module (copy, pickle
        # probing attributes) there is nothing to delegate to.
        module = self.__dict__.get("module")
        if module is None:
            raise AttributeError(name)
        return getattr(module, name)

    def value_and_grad(self, fn):
        """Like nn.value_and_grad(self.module, fn), with the gradients averaged over the ranks.
        The value (the loss) is this rank's own."""
        local = value_and_grad(self.module, fn)

        def value_and_averaged_grad(model, *args, **kwargs):
            m = model.module if isinstance(model, DistributedDataParallel) else model
            value, grads = local(m, *args, **kwargs)
            return value, self.reduce_gradients(grads)
        return value_and_averaged_grad

    def reduce_gradients(self, grads):
        """{name: gradient} averaged over the ranks, bucketed (see the module's docstring)."""
        if dist.world_size() == 1:
            return dict(grads)
        out = dict(grads)
        for bucket in self._buckets(grads):
            arrays = reducible([grads[n] for n in bucket])
            dist.all_reduce_coalesced(arrays, op="avg", check=False)
            out.update(zip(bucket, arrays))
        return out

    def _buckets(self, grads):
        # Last parameters first; a bucket holds one dtype and device and about bucket_bytes.
        buckets, current, size, key = [], [], 0, None
        for name in reversed(list(grads)):
            g = grads[name]
            k = (g.dtype, g.device)
            if current and (k != key or size + g.nbytes > self.bucket_bytes):
                buckets.append(current)
                current, size = [], 0
            current.append(name)
            size += g.nbytes
            key = k
        if current:
            buckets.append(current)
        return buckets



def reducible(arrays):
    """`arrays`, each fit to be averaged in place in one coalesced call: a gradient that is
    not contiguous (a broadcast cotangent) or that is the same array as another one in the
    list (a rule that passed one cotangent to two inputs) is replaced by a copy."""
    out, seen = [], set()
    for a in arrays:
        if id(a) in seen or not c_contiguous(a):
            a = a.copy()
        seen.add(id(a))
        out.append(a)
    return out


def c_contiguous(a):
    step = a.itemsize
    for n, st in zip(reversed(a.shape), reversed(a.strides)):
        if n != 1 and st != step:
            return False
        step *= n
    return True


def pack(grads, names):
    """The gradients `names` of the dict `grads`, flattened into one new array (one
    collective for many parameters; Trainer(num_gpus=k) sums replicas' gradients this way)."""
    return _loom.concatenate([grads[n].reshape(-1) for n in names])


def unpack(flat, grads, names):
    """{name: view of `flat`} shaped like grads[name]: pack's inverse, without copies."""
    out, at = {}, 0
    for n in names:
        g = grads[n]
        out[n] = flat[at:at + g.size].reshape(g.shape)
        at += g.size
    return out
