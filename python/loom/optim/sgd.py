"""optim.SGD: stochastic gradient descent with momentum, as torch.optim.SGD."""
from .. import _loom
from ._checks import check_range
from .optimizer import Optimizer, StepScalars


class SGD(Optimizer):
    """Stochastic gradient descent with momentum, dampening, Nesterov momentum and weight
    decay, as torch.optim.SGD:

        g = grad + weight_decay * p
        buf = g at the first step, else momentum * buf + (1 - dampening) * g
        g = g + momentum * buf if nesterov else buf          (with momentum != 0)
        p = p - learning_rate * g

    Also PyTorch's form: SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4).
    """

    hyperparameter_names = ("learning_rate", "momentum", "weight_decay", "nesterov", "dampening")
    torch_positional = ("learning_rate", "momentum", "dampening", "weight_decay", "nesterov")

    def __init__(self, learning_rate, momentum=0.0, weight_decay=0.0, nesterov=False, dampening=0.0):
        super().__init__()
        self.learning_rate, self.momentum, self.weight_decay = learning_rate, momentum, weight_decay
        self.nesterov, self.dampening = nesterov, dampening
        self._check_hyperparameters()

    @property
    def buffers(self):
        # No buffer without momentum: plain SGD keeps only the step count.
        return ("momentum_buffer",) if self.momentum != 0 else ()

    def _check_hyperparameters(self):
        super()._check_hyperparameters()
        who = self._who
        check_range(who, "momentum", self.momentum, 0.0)
        check_range(who, "weight_decay", self.weight_decay, 0.0)
        check_range(who, "dampening", self.dampening, 0.0)
        if not isinstance(self.nesterov, bool):
            raise TypeError(f"[{who}] nesterov must be a bool, not {type(self.nesterov).__name__}")
        if self.nesterov and (self.momentum <= 0 or self.dampening != 0):
            raise ValueError(f"[{who}] nesterov=True requires momentum > 0 and dampening == 0, got "
                             f"momentum={self.momentum}, dampening={self.dampening}")

    def _scalars(self, step, lr, hp):
        # torch's first step copies the gradient into the buffer; with dampening 0 the
        # formula on a zero buffer gives the same, so only dampening needs to know the step.
        first = (step == 0) if hp["dampening"] != 0 and hp["momentum"] != 0 else None
        return StepScalars(lr=lr, first=first)

    def _update_one(self, p, g, bufs, s, hp):
        momentum, wd = hp["momentum"], hp["weight_decay"]
        if wd != 0:
            g = g + wd * p
        if momentum != 0:
            buf = momentum * bufs["momentum_buffer"] + (1 - hp["dampening"]) * g
            if s["first"] is not None:
                buf = _loom.where(s["first"], g, buf)
            bufs = {"momentum_buffer": buf}
            g = g + momentum * buf if hp["nesterov"] else buf
        return p - s["lr"] * g, bufs
