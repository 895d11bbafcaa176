"""The argument checks of loom.optim, each raising a typed error that names the op
(`who`), and the moves of scalars and buffers to a parameter's device and dtype."""
import collections.abc
import numbers

import numpy as np

from .. import _loom

_ndarray = _loom.ndarray
FLOATS = ("float16", "bfloat16", "float32", "float64")


def is_number(x):
    return isinstance(x, numbers.Real) and not isinstance(x, bool)


def check_range(who, name, value, low, high=None, low_open=False):
    """value is a real number in [low, high) (or (low, high) with low_open)."""
    if not is_number(value):
        raise TypeError(f"[{who}] {name} must be a real number, not {type(value).__name__}")
    if not np.isfinite(value) or value < low or (low_open and value == low) or (high is not None and value >= high):
        bounds = f"in {'(' if low_open else '['}{low:g}, {high:g})" if high is not None else f">= {low:g}"
        raise ValueError(f"[{who}] {name} must be {bounds}, got {value}")


def torch_form(who, positional, args, kwargs):
    """(args, kwargs, params, groups) with torch.optim's call form, SGD(model.parameters(),
    lr=0.1, momentum=0.9), turned into loom's: the parameters (a list of arrays, a generator of
    them, or a model) come back as `params` (None in loom's form, SGD(0.1)); torch's positional
    arguments after them are named by `positional` (torch's order); lr= is learning_rate=.
    Parameter groups (a list of dicts, {'params': [...], 'weight_decay': 1e-4, 'lr': ...})
    come back as `groups`: [(arrays, {hyperparameter: value})], params their concatenation."""
    kwargs = dict(kwargs)
    first = args[0] if args else kwargs.pop("params", None)
    given = hasattr(first, "named_parameters") or isinstance(first, (list, tuple, collections.abc.Iterator))
    params = groups = None
    if given:
        params = list(first.parameters()) if hasattr(first, "named_parameters") else list(first)
        if any(isinstance(p, dict) for p in params):
            groups = [_group(who, g) for g in params]
            params = [p for arrays, _ in groups for p in arrays]
        bad = [type(p).__name__ for p in params if not isinstance(p, _ndarray)]
        if bad:
            raise TypeError(f"[{who}] the parameters to update must be loom arrays (model.parameters()), got {bad[0]}")
        if not params:
            raise ValueError(f"[{who}] got an empty parameter list (does the model have lazy layers not yet "
                             "called on a batch? loom.Trainer calls the model once before configure_optimizers)")
        rest = args[1:] if args else args
        if len(rest) > len(positional):
            raise TypeError(f"[{who}] takes at most {len(positional)} arguments after the parameters, got {len(rest)}")
        for name, v in zip(positional, rest):
            if name in kwargs:
                raise TypeError(f"[{who}] got {name!r} both by position and by keyword")
            kwargs[name] = v
        args = ()
    if "lr" in kwargs:
        if "learning_rate" in kwargs:
            raise TypeError(f"[{who}] got both lr= and learning_rate= (they are one argument)")
        kwargs["learning_rate"] = kwargs.pop("lr")
    if given and "learning_rate" not in kwargs:
        kwargs["learning_rate"] = 1e-3  # torch's default
    for name in ("foreach", "fused", "capturable", "differentiable"):
        kwargs.pop(name, None)  # how torch computes, not what: loom compiles its own step
    for name in ("maximize", "amsgrad"):
        if kwargs.pop(name, False):
            raise NotImplementedError(f"[{who}] {name}=True is not offered")
    return args, kwargs, params, groups


def _group(who, g):
    """(arrays, overrides) of one torch parameter group: 'params' an array or a list of them,
    the other keys hyperparameters (lr= is learning_rate=)."""
    if not isinstance(g, dict) or "params" not in g:
        raise TypeError(f"[{who}] a parameter group must be a dict with 'params', got {type(g).__name__}")
    arrays = g["params"]
    arrays = [arrays] if isinstance(arrays, _ndarray) else list(arrays)
    overrides = {("learning_rate" if k == "lr" else k): v for k, v in g.items() if k != "params"}
    return arrays, overrides


def check_learning_rate(who, lr):
    if callable(lr):
        return
    check_range(who, "learning_rate", lr, 0.0)


def to_like(v, p):
    if v.device != p.device:
        v = v.to(p.device)
    return v.astype(p.dtype) if v.dtype != p.dtype else v


def compute_dtype(p):
    """The dtype a parameter's update computes in and its buffers are kept in: float32 for
    float16 and bfloat16 (in their own dtype, Adam's second moment underflows to 0 and its
    eps to 0, which divides by zero), else the parameter's."""
    return _loom.float32 if p.dtype in (_loom.float16, _loom.bfloat16) else p.dtype


def check_params(params, who):
    if not isinstance(params, dict):
        raise TypeError(f"[{who}] params must be a dict name -> array (a model's named_parameters()), "
                        f"not {type(params).__name__}")
    for name, p in params.items():
        if not isinstance(p, _ndarray):
            raise TypeError(f"[{who}] parameter {name!r} must be a loom array, not {type(p).__name__}")
        if p.dtype.name not in FLOATS:
            raise TypeError(f"[{who}] parameter {name!r} has dtype {p.dtype}; optimisers update float parameters")
    return params


def check_grads(params, grads, who):
    """The gradients that are present, as a dict name -> array, each checked against its
    parameter (name, shape, dtype, device)."""
    if not isinstance(grads, dict):
        raise TypeError(f"[{who}] grads must be a dict name -> array like the parameters, "
                        f"not {type(grads).__name__}")
    out = {}
    for name, g in grads.items():
        if name not in params:
            raise ValueError(f"[{who}] got a gradient for {name!r}, which is not a parameter "
                             f"(parameters: {sorted(params)[:8]}{' ...' if len(params) > 8 else ''})")
        if g is None:
            continue
        p = params[name]
        if isinstance(g, np.ndarray):
            g = _loom.asarray(g, device=p.device)
        if not isinstance(g, _ndarray):
            raise TypeError(f"[{who}] the gradient of {name!r} must be an array, not {type(g).__name__}")
        if tuple(g.shape) != tuple(p.shape):
            raise ValueError(f"[{who}] the gradient of {name!r} has shape {tuple(g.shape)} but the parameter "
                             f"has shape {tuple(p.shape)}")
        if g.dtype != p.dtype:
            raise TypeError(f"[{who}] the gradient of {name!r} has dtype {g.dtype} but the parameter has "
                            f"dtype {p.dtype}")
        if g.device != p.device:
            raise _loom.DeviceMismatchError(f"[{who}] the gradient of {name!r} is on {g.device!r} but the "
                                            f"parameter is on {p.device!r}")
        out[name] = g
    return out


def check_state(state, params, grads, buffers, who):
    if not isinstance(state, dict) or "step" not in state:
        raise TypeError(f"[{who}] state must be what init(params) returns (a dict with 'step'), "
                        f"not {type(state).__name__}")
    for b in buffers:
        bufs = state.get(b)
        if not isinstance(bufs, dict):
            raise ValueError(f"[{who}] the state has no {b!r} buffers: was it made by another optimiser, "
                             "or with other hyperparameters (momentum)?")
        for name in grads:
            buf = bufs.get(name)
            if buf is None:
                raise ValueError(f"[{who}] the state has no {b!r} for parameter {name!r}: the parameters "
                                 "changed since init(); make the state again (init) or a new optimiser")
            if tuple(buf.shape) != tuple(params[name].shape):
                raise ValueError(f"[{who}] the state's {b!r} of {name!r} has shape {tuple(buf.shape)} but the "
                                 f"parameter has shape {tuple(params[name].shape)}")


def align_buffers(state, params, buffers, who):
    """A loaded state's buffers on their parameter's device and in its compute dtype."""
    first = next(iter(params.values()), None)
    out = {"step": state["step"] if first is None else to_device(state["step"], first.device)}
    for b in buffers:
        out[b] = {}
        for name, buf in state[b].items():
            p = params.get(name)
            if p is None:
                raise ValueError(f"[{who}] the loaded state has {b!r} for {name!r}, which is not a parameter "
                                 "of the model")
            buf = to_device(buf, p.device)
            out[b][name] = buf.astype(compute_dtype(p)) if buf.dtype != compute_dtype(p) else buf
    return out


def to_device(a, device):
    return a.to(device) if a.device != device else a
