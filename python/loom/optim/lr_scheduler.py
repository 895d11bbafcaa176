"""torch.optim.lr_scheduler's classes, in PyTorch's form: a scheduler wraps an optimiser whose
learning_rate is a number and sets it at each scheduler.step() (once an epoch, as torch's
loops and loom.Trainer call it). The rate is an argument of loom's compiled steps, so a new
rate compiles nothing. Each class computes torch's closed form of its epoch count:

    opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    sched = optim.lr_scheduler.StepLR(opt, step_size=30, gamma=0.1)

(schedules.py has loom's form: schedules traced as functions of the update count.)
"""
import math

from ._checks import check_range
from .optimizer import Optimizer

__all__ = ["LRScheduler", "StepLR", "MultiStepLR", "ExponentialLR", "CosineAnnealingLR", "LinearLR", "LambdaLR",
           "SequentialLR"]


class LRScheduler:
    """The base: subclasses define lr_at(epoch) from self.base_lr."""

    def __init__(self, optimizer, last_epoch=-1):
        who = f"optim.lr_scheduler.{type(self).__name__}"
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"[{who}] expected a loom.optim optimiser, got {type(optimizer).__name__}")
        if callable(optimizer.learning_rate):
            raise TypeError(f"[{who}] the optimiser's learning_rate is already a schedule (a function of the step); "
                            "a scheduler sets a number")
        self.optimizer, self.base_lr, self.last_epoch = optimizer, float(optimizer.learning_rate), int(last_epoch)
        self.base_lrs = [self.base_lr]
        self.step()  # as torch: constructing sets the rate of epoch 0

    def lr_at(self, epoch):
        raise NotImplementedError

    def step(self):
        self.last_epoch += 1
        lr = float(self.lr_at(self.last_epoch))
        self.optimizer.learning_rate = lr
        self._last_lr = [lr]

    def get_last_lr(self):
        return list(self._last_lr)

    def state_dict(self):
        return {"last_epoch": self.last_epoch, "base_lr": self.base_lr}

    def load_state_dict(self, state):
        self.last_epoch, self.base_lr = int(state["last_epoch"]), float(state["base_lr"])
        self.base_lrs = [self.base_lr]
        self.optimizer.learning_rate = self._last_lr[0] = float(self.lr_at(self.last_epoch))


class StepLR(LRScheduler):
    """base_lr * gamma ** (epoch // step_size)."""

    def __init__(self, optimizer, step_size, gamma=0.1, last_epoch=-1):
        if not isinstance(step_size, int) or step_size < 1:
            raise ValueError(f"[optim.lr_scheduler.StepLR] step_size must be an int >= 1, got {step_size!r}")
        self.step_size, self.gamma = step_size, float(gamma)
        super().__init__(optimizer, last_epoch)

    def lr_at(self, epoch):
        return self.base_lr * self.gamma ** (epoch // self.step_size)


class MultiStepLR(LRScheduler):
    """base_lr * gamma ** (number of milestones <= epoch)."""

    def __init__(self, optimizer, milestones, gamma=0.1, last_epoch=-1):
        self.milestones, self.gamma = sorted(int(m) for m in milestones), float(gamma)
        super().__init__(optimizer, last_epoch)

    def lr_at(self, epoch):
        return self.base_lr * self.gamma ** sum(m <= epoch for m in self.milestones)


class ExponentialLR(LRScheduler):
    """base_lr * gamma ** epoch."""

    def __init__(self, optimizer, gamma, last_epoch=-1):
        self.gamma = float(gamma)
        super().__init__(optimizer, last_epoch)

    def lr_at(self, epoch):
        return self.base_lr * self.gamma ** epoch


class CosineAnnealingLR(LRScheduler):
    """eta_min + (base_lr - eta_min) * (1 + cos(pi * epoch / T_max)) / 2."""

    def __init__(self, optimizer, T_max, eta_min=0.0, last_epoch=-1):
        if T_max <= 0:
            raise ValueError(f"[optim.lr_scheduler.CosineAnnealingLR] T_max must be > 0, got {T_max!r}")
        self.T_max, self.eta_min = T_max, float(eta_min)
        super().__init__(optimizer, last_epoch)

    def lr_at(self, epoch):
        return self.eta_min + (self.base_lr - self.eta_min) * (1 + math.cos(math.pi * epoch / self.T_max)) / 2


class LinearLR(LRScheduler):
    """base_lr times a factor going linearly from start_factor to end_factor over total_iters
    epochs (warmup), then end_factor."""

    def __init__(self, optimizer, start_factor=1.0 / 3, end_factor=1.0, total_iters=5, last_epoch=-1):
        who = "optim.lr_scheduler.LinearLR"
        check_range(who, "start_factor", start_factor, 0.0, low_open=True)
        check_range(who, "end_factor", end_factor, 0.0)
        self.start_factor, self.end_factor, self.total_iters = float(start_factor), float(end_factor), int(total_iters)
        super().__init__(optimizer, last_epoch)

    def lr_at(self, epoch):
        t = min(epoch, self.total_iters) / self.total_iters if self.total_iters else 1.0
        return self.base_lr * (self.start_factor + (self.end_factor - self.start_factor) * t)


class LambdaLR(LRScheduler):
    """base_lr * lr_lambda(epoch)."""

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        self.lr_lambda = lr_lambda
        super().__init__(optimizer, last_epoch)

    def lr_at(self, epoch):
        return self.base_lr * self.lr_lambda(epoch)


class SequentialLR(LRScheduler):
    """schedulers[i] from milestones[i-1] on, its own epochs counted from there (warmup then
    decay: SequentialLR(opt, [LinearLR(opt, 0.1, total_iters=5), CosineAnnealingLR(opt, 95)], [5]))."""

    def __init__(self, optimizer, schedulers, milestones, last_epoch=-1):
        if len(milestones) != len(schedulers) - 1:
            raise ValueError("[optim.lr_scheduler.SequentialLR] needs one milestone fewer than schedulers, got "
                             f"{len(schedulers)} schedulers and {len(milestones)} milestones")
        self.schedulers, self.milestones = list(schedulers), [int(m) for m in milestones]
        for s in self.schedulers:
            s.base_lr = self.schedulers[0].base_lr  # each constructor stepped the rate: undo that
        optimizer.learning_rate = self.schedulers[0].base_lr
        super().__init__(optimizer, last_epoch)

    def lr_at(self, epoch):
        i = sum(m <= epoch for m in self.milestones)
        start = self.milestones[i - 1] if i else 0
        return self.schedulers[i].lr_at(epoch - start)
