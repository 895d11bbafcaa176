"""optim.Adam and optim.AdamW, as torch.optim.Adam and torch.optim.AdamW."""
from .. import _loom
from ._checks import check_range
from .optimizer import Optimizer, StepScalars


class Adam(Optimizer):
    """Adam (Kingma and Ba) with bias correction, as torch.optim.Adam; weight_decay is an L2
    penalty added to the gradient (use AdamW for decoupled decay):

        g = grad + weight_decay * p
        m = beta1 * m + (1 - beta1) * g;  v = beta2 * v + (1 - beta2) * g * g
        p = p - lr / (1 - beta1**t) * m / (sqrt(v) / sqrt(1 - beta2**t) + eps)   (t = step + 1)
    """

    buffers = ("exp_avg", "exp_avg_sq")
    hyperparameter_names = ("learning_rate", "betas", "eps", "weight_decay")
    torch_positional = ("learning_rate", "betas", "eps", "weight_decay")
    _decoupled = False

    def __init__(self, learning_rate=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0):
        super().__init__()
        self.learning_rate, self.eps, self.weight_decay = learning_rate, eps, weight_decay
        self.betas = tuple(betas) if isinstance(betas, (tuple, list)) else betas
        self._check_hyperparameters()

    def _check_hyperparameters(self):
        super()._check_hyperparameters()
        who = self._who
        if not (isinstance(self.betas, tuple) and len(self.betas) == 2):
            raise ValueError(f"[{who}] betas must be a pair (beta1, beta2), got {self.betas!r}")
        check_range(who, "betas[0]", self.betas[0], 0.0, 1.0)
        check_range(who, "betas[1]", self.betas[1], 0.0, 1.0)
        check_range(who, "eps", self.eps, 0.0)
        check_range(who, "weight_decay", self.weight_decay, 0.0)

    def _scalars(self, step, lr, hp):
        beta1, beta2 = hp["betas"]
        # Bias corrections in float64 (torch computes them as Python floats), cast to each
        # parameter's dtype by StepScalars.
        t = (step + 1).astype(_loom.float64)
        step_size = lr / (1 - beta1 ** t)
        bias_correction2_sqrt = _loom.sqrt(1 - beta2 ** t)
        decay = 1 - lr * hp["weight_decay"] if self._decoupled and hp["weight_decay"] != 0 else None
        return StepScalars(step_size=step_size, bias_correction2_sqrt=bias_correction2_sqrt, decay=decay)

    def _update_one(self, p, g, bufs, s, hp):
        beta1, beta2 = hp["betas"]
        if self._decoupled:
            if s["decay"] is not None:
                p = p * s["decay"]
        elif hp["weight_decay"] != 0:
            g = g + hp["weight_decay"] * p
        m = beta1 * bufs["exp_avg"] + (1 - beta1) * g
        v = beta2 * bufs["exp_avg_sq"] + (1 - beta2) * (g * g)
        denom = _loom.sqrt(v) / s["bias_correction2_sqrt"] + hp["eps"]
        return p - s["step_size"] * (m / denom), {"exp_avg": m, "exp_avg_sq": v}


class AdamW(Adam):
    """Adam with decoupled weight decay (Loshchilov and Hutter), as torch.optim.AdamW: the
    parameter shrinks by (1 - learning_rate * weight_decay) before the Adam step, and the
    gradient carries no L2 term."""

    _decoupled = True

    def __init__(self, learning_rate=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
        super().__init__(learning_rate, betas, eps, weight_decay)
