"""Learning-rate schedules in loom's form: functions of the optimiser's step (0 for the first
update, counted in updates), given as learning_rate= and traced with the step, so a jitted
training step follows them without retracing:

    opt = optim.SGD(learning_rate=optim.schedules.cosine_decay(0.1, T_max=1000), momentum=0.9)

Each is the closed form of the torch.optim.lr_scheduler class of the same shape
(lr_scheduler.py has those, for PyTorch's form), with the step in place of the epoch.
"""
import math

from .. import _loom
from ._checks import check_range, is_number

_ndarray = _loom.ndarray


def _f64(step):
    return step.astype(_loom.float64) if isinstance(step, _ndarray) else float(step)


def _cos(x):
    return _loom.cos(x) if isinstance(x, _ndarray) else math.cos(x)


def _min(x, hi):
    return _loom.minimum(x, hi) if isinstance(x, _ndarray) else min(x, hi)


def _lr(who, lr):
    if callable(lr):
        return lr
    check_range(who, "learning_rate", lr, 0.0)
    return lambda step: lr


def step_decay(learning_rate, step_size, gamma=0.1):
    """learning_rate * gamma ** (step // step_size) (StepLR's)."""
    who = "optim.schedules.step_decay"
    check_range(who, "learning_rate", learning_rate, 0.0)
    if not isinstance(step_size, int) or step_size < 1:
        raise ValueError(f"[{who}] step_size must be an int >= 1, got {step_size!r}")
    check_range(who, "gamma", gamma, 0.0)

    def schedule(step):
        return learning_rate * gamma ** _f64(step // step_size)
    return schedule


def cosine_decay(learning_rate, T_max, eta_min=0.0):
    """eta_min + (learning_rate - eta_min) * (1 + cos(pi * step / T_max)) / 2 (CosineAnnealingLR's
    closed form), held at eta_min after T_max steps."""
    who = "optim.schedules.cosine_decay"
    check_range(who, "learning_rate", learning_rate, 0.0)
    check_range(who, "eta_min", eta_min, 0.0)
    if not is_number(T_max) or T_max <= 0:
        raise ValueError(f"[{who}] T_max must be > 0, got {T_max!r}")

    def schedule(step):
        t = _min(_f64(step), float(T_max))
        return eta_min + (learning_rate - eta_min) * (1 + _cos(math.pi * t / T_max)) / 2
    return schedule


def linear_warmup(learning_rate, warmup_steps, start_factor=0.0):
    """A rate rising linearly from start_factor * rate(0) to the rate over warmup_steps steps,
    then `learning_rate` (a number or a schedule, which then starts at step 0 after the
    warmup): step < warmup_steps gives rate(0) * (start_factor + (1 - start_factor) * step / warmup_steps)."""
    who = "optim.schedules.linear_warmup"
    if not isinstance(warmup_steps, int) or warmup_steps < 1:
        raise ValueError(f"[{who}] warmup_steps must be an int >= 1, got {warmup_steps!r}")
    check_range(who, "start_factor", start_factor, 0.0)
    after = _lr(who, learning_rate)
    first = after(0)

    def schedule(step):
        frac = start_factor + (1 - start_factor) * _min(_f64(step), float(warmup_steps)) / warmup_steps
        if isinstance(step, _ndarray):
            return _loom.where(step < warmup_steps, first * frac, after(_loom.maximum(step - warmup_steps, 0)))
        return first * frac if step < warmup_steps else after(step - warmup_steps)
    return schedule
