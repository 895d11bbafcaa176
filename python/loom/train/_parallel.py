"""Trainer(num_gpus=k): one process training on k devices (d2l's multi-GPU chapter).

The model is copied to every device; each batch is split along axis 0 into k shards (the
first ones a row longer when it does not divide); each replica computes its shard's loss
and gradients, weighted by its share of the rows; the weighted gradients are summed over the
devices by one all-reduce (loom.distributed.DeviceGroup: NCCL over distinct GPUs, copies
otherwise), packed into one array per device so that a model of many parameters costs one
collective; and every replica applies the same update, so the replicas stay equal. Replica 0
is the user's model. Each device's work is enqueued on its own stream, so the GPUs compute
at once while this thread enqueues.
"""
import copy

from .. import nn
from ..nn.module import recording
from ..nn.parallel import pack, unpack


class ParallelStep:
    def __init__(self, trainer, model, devices, jit):
        from ..distributed import DeviceGroup
        from .. import optim
        self.devices, self.opt, self.clip = list(devices), trainer.optim, trainer.gradient_clip_val
        # The trainer is shared, not copied (model.trainer refers to it).
        self.replicas = [model] + [copy.deepcopy(model, {id(trainer): trainer}).to(d) for d in self.devices[1:]]
        self.group = DeviceGroup(self.devices)
        training_step = type(model).training_step

        def loss_fn(m, batch):
            with recording() as plotted:  # Module.plot's values, weighted like the loss
                loss = training_step(m, batch)
            return loss, dict(plotted)
        vg = nn.value_and_grad(model, loss_fn, has_aux=True)

        def grads_of(m, batch, weight):
            (loss, plotted), grads = vg(m, batch)
            return (loss * weight, {k: v * weight for k, v in plotted.items()}, {n: g * weight for n, g in grads.items()},
                    dict(m.named_buffers()))

        def update(params, grads, state, lr):
            if self.clip > 0:
                grads, _ = optim.clip_grad_norm(grads, self.clip)
            return self.opt.apply(params, grads, state, learning_rate=lr)
        wrap = _jit if jit else (lambda f: f)
        self.grads_of, self.update = wrap(grads_of), wrap(update)
        self.states = [self.opt.init(dict(r.named_parameters())) for r in self.replicas]

    def __call__(self, batch):
        k = len(self.devices)
        n = batch[0].shape[0]
        bounds = [i * n // k for i in range(k + 1)]
        results = []
        for i, (replica, dev) in enumerate(zip(self.replicas, self.devices)):
            lo, hi = bounds[i], bounds[i + 1]
            # A shard with no rows (a batch smaller than k) computes on one row, weighted 0.
            rows = slice(lo, hi) if hi > lo else slice(0, 1)
            shard = tuple(a[rows].to(dev) for a in batch)
            results.append(self.grads_of(replica, shard, (hi - lo) / n))
        names = list(results[0][2])
        flats = [pack(grads, names) for _, _, grads, _ in results]
        self.group.all_reduce(flats, op="sum")
        loss, plotted = results[0][0], dict(results[0][1])
        for i, (replica, (part, values, grads, buffers)) in enumerate(zip(self.replicas, results)):
            summed = unpack(flats[i], grads, names)
            lr = self.opt.learning_rate_argument(self.devices[i])
            params, self.states[i] = self.update(dict(replica.named_parameters()), summed, self.states[i], lr)
            replica.update_parameters(params)
            replica.update_parameters(buffers)
            if i:
                loss = loss + part.to(self.devices[0])
                plotted = {k: v + values[k].to(self.devices[0]) for k, v in plotted.items()}
        return loss, plotted


def _jit(fn):
    from ..transforms._jit import jit
    return jit(fn)
