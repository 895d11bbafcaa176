"""nn.DistributedDataParallel: data-parallel training with one process per device, as
PyTorch's DDP: each rank runs the model on its share of the batch, and the gradients are
averaged over the ranks before the optimiser's step, so every rank's parameters stay
identical.

    dist.init()
    net = nn.DistributedDataParallel(make_net().to(loom.gpu(dist.local_rank())))
    loss, grads = net.value_and_grad(loss_fn)(net, X_shard, y_shard)   # grads: averaged
    opt.update(net.module, grads)

The gradients are all-reduced in buckets of about `bucket_cap_mb` MiB in the order the
backward pass finishes them (last layers first): a bucket's average is enqueued as soon as
its gradients are final, while the rest of the backward pass is still being enqueued, by one
all_reduce_coalesced in place (on GPUs one NCCL group, which launches one kernel for the
bucket; on cpu() Gloo, one call per array). A model of many small parameters costs a few
collectives, not one per parameter, and no copy into a bucket buffer and back. The all-reduces are enqueued on
the device's stream right after the backward pass's kernels and run while the host goes on.
"""
from .. import _loom
from .. import distributed as dist
from .module import Module, value_and_grad, value_and_grad_with_hook


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
        The value (the loss) is this rank's own. Each bucket's average starts during the
        backward pass, as soon as the bucket's gradients are final."""
        def value_and_averaged_grad(model, *args, **kwargs):
            m = model.module if isinstance(model, DistributedDataParallel) else model
            if dist.world_size() == 1:
                return value_and_grad(self.module, fn)(m, *args, **kwargs)
            buckets = _Buckets(self.bucket_bytes)
            value, grads = value_and_grad_with_hook(self.module, fn, buckets.add)(m, *args, **kwargs)
            buckets.flush()
            return value, buckets.averaged(grads)
        return value_and_averaged_grad

    def reduce_gradients(self, grads):
        """{name: gradient} averaged over the ranks, in buckets of last parameters first, for
        gradients computed some other way than value_and_grad (which averages as it goes)."""
        if dist.world_size() == 1:
            return dict(grads)
        buckets = _Buckets(self.bucket_bytes)
        for name in reversed(list(grads)):
            buckets.add(name, grads[name])
        buckets.flush()
        return buckets.averaged(grads)


class _Buckets:
    """Gradients in the order they become final, averaged in buckets of about `cap` bytes of
    one device: each full bucket by one all_reduce_coalesced, enqueued at once. Every rank
    runs the same backward pass, so every rank forms the same buckets."""

    def __init__(self, cap):
        self.cap, self.names, self.arrays, self.size, self.done = cap, [], [], 0, {}

    def add(self, name, g):
        if self.arrays and (g.device != self.arrays[0].device or self.size + g.nbytes > self.cap):
            self.flush()
        self.names.append(name)
        self.arrays.append(g)
        self.size += g.nbytes

    def flush(self):
        if not self.arrays:
            return
        arrays = reducible(self.arrays)
        dist.all_reduce_coalesced(arrays, op="avg", check=False)
        self.done.update(zip(self.names, arrays))
        self.names, self.arrays, self.size = [], [], 0

    def averaged(self, grads):
        return {n: self.done.get(n, g) for n, g in grads.items()}


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
