"""Batch normalisation (PyTorch's BatchNorm1d and BatchNorm2d).

Training mode normalises with the batch's mean and biased variance over every axis but the
channel axis (1) and moves the running statistics by `momentum` (the variance unbiased, as
PyTorch's); eval mode normalises with the running statistics. The statistics are buffers:
state_dict saves them, to() moves them, and nn.value_and_grad writes the updated ones back
into the model (so a jitted training step returns them like the parameters).
"""
from .. import _loom
from ..transforms._grad import stop_gradient
from .module import Module


class _BatchNorm(Module):
    _dims = ()  # accepted input ranks

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None,
                 dtype=None):
        super().__init__()
        who = f"nn.{type(self).__name__}"
        if num_features < 1:
            raise ValueError(f"[{who}] num_features must be >= 1, got {num_features}")
        if momentum is not None and not 0 <= momentum <= 1:
            raise ValueError(f"[{who}] momentum must be in [0, 1] or None, got {momentum}")
        dtype = dtype or _loom.float32
        self.num_features, self.eps, self.momentum = int(num_features), float(eps), momentum
        self.affine, self.track_running_stats = bool(affine), bool(track_running_stats)
        if affine:
            self.weight = _loom.ones((num_features,), dtype=dtype, device=device)
            self.bias = _loom.zeros((num_features,), dtype=dtype, device=device)
        if track_running_stats:
            self.register_buffer("running_mean", _loom.zeros((num_features,), dtype=dtype, device=device))
            self.register_buffer("running_var", _loom.ones((num_features,), dtype=dtype, device=device))
            self.register_buffer("num_batches_tracked", _loom.zeros((), dtype=_loom.int64, device=device))

    def forward(self, x):
        who = f"nn.{type(self).__name__}"
        if len(x.shape) not in self._dims or x.shape[1] != self.num_features:
            raise ValueError(f"[{who}] expected an input of {' or '.join(map(str, self._dims))} dims with "
                             f"{self.num_features} channels in dim 1, got shape {tuple(x.shape)}")
        axes = (0,) + tuple(range(2, len(x.shape)))
        bshape = (1, self.num_features) + (1,) * (len(x.shape) - 2)
        if self.training or not self.track_running_stats:
            count = x.size // self.num_features
            if self.training and count < 2:
                raise ValueError(f"[{who}] training needs more than one value per channel, got shape {tuple(x.shape)}")
            mean = _loom.mean(x, axis=axes)
            centred = x - mean.reshape(bshape)
            var = _loom.mean(centred * centred, axis=axes)
            if self.training and self.track_running_stats:
                self.num_batches_tracked = self.num_batches_tracked + 1
                m = self.momentum if self.momentum is not None else 1.0 / self.num_batches_tracked
                unbiased = var * (count / (count - 1))
                self.running_mean = (1 - m) * self.running_mean + m * stop_gradient(mean)
                self.running_var = (1 - m) * self.running_var + m * stop_gradient(unbiased)
        else:
            mean, var = self.running_mean, self.running_var
            centred = x - mean.reshape(bshape)
        y = centred / _loom.sqrt(var + self.eps).reshape(bshape)
        if self.affine:
            y = y * self.weight.reshape(bshape) + self.bias.reshape(bshape)
        return y

    def extra_repr(self):
        return f"{self.num_features}, eps={self.eps}, momentum={self.momentum}"


class BatchNorm1d(_BatchNorm):
    """Over (N, C) or (N, C, L) inputs."""
    _dims = (2, 3)


class BatchNorm2d(_BatchNorm):
    """Over (N, C, H, W) inputs."""
    _dims = (4,)
