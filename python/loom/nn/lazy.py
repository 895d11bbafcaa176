"""Lazy layers (PyTorch's LazyLinear, LazyConv2d, LazyBatchNorm1d/2d): the input size is
taken from the first input, and the layer then becomes the plain one (its class changes to
Linear, Conv2d, BatchNorm1d/2d, as PyTorch's cls_to_become), with parameters on that input's
device and in its float dtype.

Making the parameters draws from loom's global generator, which a trace refuses (a replay
would draw the same numbers), so the first call must come outside loom.jit, grad and vmap.
nn.value_and_grad and loom.Trainer make that call themselves (materialize_lazy in
module.py); anywhere else the error says to call the model once on a batch, as d2l does.
"""
from .. import _loom
from .conv import Conv2d
from .layers import Linear
from .module import Module
from .norm import BatchNorm1d, BatchNorm2d


class UninitializedParameter:
    """What a lazy layer's weight and bias are before its first call (PyTorch's name): a
    placeholder with no shape or values; the error says how to make the real ones."""

    def __init__(self, owner, name):
        self._where = f"nn.{owner}.{name}"

    def __repr__(self):
        return "<UninitializedParameter>"

    def __getattr__(self, attr):
        raise AttributeError(f"[{self._where}] the parameter is not made yet ({attr!r} asked): a lazy layer makes "
                             "its parameters on its first call; call the model once on a batch (net(X)) first")


class _LazyModule(Module):
    _lazy = True            # module.py: has_uninitialized_params, materialize_lazy
    cls_to_become = None
    _size_name = "in_features"

    def _input_size(self, x):
        raise NotImplementedError

    def _build(self, size, device, dtype):
        raise NotImplementedError

    def forward(self, x, *args, **kwargs):
        who = f"nn.{type(self).__name__}"
        if _loom._is_tracing():
            raise _loom.ConcretizationTypeError(
                f"[{who}] this layer makes its parameters from its first input ({self._size_name}), and this first "
                "call runs under loom.jit, grad or vmap, where parameters cannot be drawn from the global "
                "generator. Initialise it outside the transform by calling the model once on a batch (net(X)), as "
                "d2l does; loom.Trainer and nn.value_and_grad do that themselves.")
        if not isinstance(x, _loom.ndarray):
            raise TypeError(f"[{who}] expected a loom array, got {type(x).__name__}")
        size = self._input_size(x)
        device = self._device if self._device is not None else x.device
        dtype = self._dtype or (x.dtype if x.dtype.kind == "f" else _loom.float32)
        self._become(size, device, dtype)
        return self.forward(x, *args, **kwargs)

    def _size_from_state(self, weight):
        """The input size that a saved weight (or per-channel array) implies."""
        return int(weight.shape[1])

    def _materialize_from_state(self, state, prefix):
        """load_state_dict into a layer not yet called: made with the size the saved arrays imply
        (then loaded); a state without this layer's arrays leaves it lazy."""
        key = next((prefix + n for n in ("weight", "running_mean") if prefix + n in state), None)
        if key is None:
            return
        value = state[key]
        # The device .to() gave the layer, else the saved array's, else the default one.
        device = self._device if self._device is not None else (
            value.device if isinstance(value, _loom.ndarray) else _loom.default_device())
        dtype = self._dtype or _loom.float32
        self._become(self._size_from_state(value), device, dtype)

    def _become(self, size, device, dtype):
        real = self._build(size, device, dtype)
        training = self.training
        d = self.__dict__
        d.clear()
        d.update(real.__dict__)
        object.__setattr__(self, "training", training)
        self.__class__ = type(real)  # from now on a plain layer (a pytree node of that class)

    def has_uninitialized_params(self):
        return True

    @property
    def weight(self):
        return UninitializedParameter(type(self).__name__, "weight")

    @property
    def bias(self):
        return UninitializedParameter(type(self).__name__, "bias")

    def extra_repr(self):
        return f"{self._size_name}=<first input>, " + ", ".join(f"{k}={v!r}" for k, v in self._args.items())


class LazyLinear(_LazyModule):
    """A Linear whose in_features is its first input's last dimension."""
    cls_to_become = Linear

    def __init__(self, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        if int(out_features) < 0:
            raise ValueError(f"[nn.LazyLinear] out_features must be >= 0, got {out_features}")
        self._args = {"out_features": int(out_features), "bias": bool(bias)}
        self._device, self._dtype = device, dtype

    def _input_size(self, x):
        if len(x.shape) < 1:
            raise ValueError("[nn.LazyLinear] expected an input with at least one dimension, got a 0-d array")
        return int(x.shape[-1])

    def _build(self, size, device, dtype):
        return Linear(size, self._args["out_features"], self._args["bias"], device=device, dtype=dtype)


class LazyConv2d(_LazyModule):
    """A Conv2d whose in_channels is its first input's dimension 1 (N, C, H, W)."""
    cls_to_become = Conv2d
    _size_name = "in_channels"

    def __init__(self, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", device=None, dtype=None):
        super().__init__()
        self._args = dict(out_channels=int(out_channels), kernel_size=kernel_size, stride=stride, padding=padding,
                          dilation=dilation, groups=groups, bias=bias, padding_mode=padding_mode)
        self._device, self._dtype = device, dtype

    def _input_size(self, x):
        if len(x.shape) != 4:
            raise ValueError(f"[nn.LazyConv2d] expected an input of shape (N, C, H, W), got {tuple(x.shape)}")
        return int(x.shape[1])

    def _build(self, size, device, dtype):
        return Conv2d(size, device=device, dtype=dtype, **self._args)

    def _size_from_state(self, weight):
        return int(weight.shape[1]) * int(self._args["groups"])


class _LazyBatchNorm(_LazyModule):
    _size_name = "num_features"

    def __init__(self, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None, dtype=None):
        super().__init__()
        self._args = dict(eps=eps, momentum=momentum, affine=affine, track_running_stats=track_running_stats)
        self._device, self._dtype = device, dtype

    def _input_size(self, x):
        dims = self.cls_to_become._dims
        if len(x.shape) not in dims:
            raise ValueError(f"[nn.{type(self).__name__}] expected an input of {' or '.join(map(str, dims))} dims, "
                             f"got shape {tuple(x.shape)}")
        return int(x.shape[1])

    def _build(self, size, device, dtype):
        return self.cls_to_become(size, device=device, dtype=dtype, **self._args)

    def _size_from_state(self, weight):
        return int(weight.shape[0])


class LazyBatchNorm1d(_LazyBatchNorm):
    """A BatchNorm1d whose num_features is its first input's dimension 1."""
    cls_to_become = BatchNorm1d


class LazyBatchNorm2d(_LazyBatchNorm):
    """A BatchNorm2d whose num_features is its first input's dimension 1."""
    cls_to_become = BatchNorm2d
