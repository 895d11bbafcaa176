"""Optimizer, the base of loom's optimisers: the functional core (init, apply), the
stateful update of a model with its compiled step, and state_dict/load_state_dict."""
import functools

import numpy as np

from .. import _loom
from ..transforms._jit import jit
from ..transforms.tree_util import tree_map
from ._checks import (align_buffers, check_grads, check_learning_rate, check_params, check_state, compute_dtype,
                      is_number, to_like, torch_form)

_ndarray = _loom.ndarray
# After this many distinct hyperparameter settings opt.update stops compiling new steps and
# runs eagerly (a loop that sets a new momentum each step would otherwise compile each step).
_MAX_JITTED_SETTINGS = 8


class StepScalars:
    """The step's scalar factors, each as the elementwise ops want it next to a parameter:
    Python floats as they are (loom treats them as weakly typed), 0-d arrays (a schedule's
    learning rate, bias corrections) cast once per parameter dtype and device, so that a
    float32 parameter is not promoted to float64 by a float64 factor."""

    def __init__(self, **values):
        self._values = values
        self._cast = {}

    def for_param(self, p):
        key = (p.dtype.name, p.device)
        out = self._cast.get(key)
        if out is None:
            out = self._cast[key] = {n: v if not isinstance(v, _ndarray) else to_like(v, p)
                                     for n, v in self._values.items()}
        return out


class Optimizer:
    """The base of loom's optimisers: checking, state, the stateful update and state_dict.

    A subclass names its per-parameter buffers (`buffers`), its hyperparameters
    (`hyperparameter_names`, learning_rate first), and implements `_scalars` (the factors of
    one step) and `_update_one` (one parameter's update)."""

    buffers = ()
    hyperparameter_names = ("learning_rate",)
    # torch.optim's positional arguments after the parameters, in torch's order.
    torch_positional = ("learning_rate",)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        init = cls.__dict__.get("__init__")
        if init is None:
            return

        @functools.wraps(init)
        def __init__(self, *args, **kw):
            # torch.optim's form, SGD(model.parameters(), lr=0.1, momentum=0.9), as well as loom's.
            args, kw, params, groups = torch_form(f"optim.{cls.__name__}", cls.torch_positional, args, kw)
            init(self, *args, **kw)
            if params is not None:
                self._given_params = params
            if groups is not None:
                self._check_groups(groups)
                self._given_groups = groups
        cls.__init__ = __init__

    def __init__(self):
        self.state = None
        # torch's form names the parameters to update: kept until init() turns them into names
        # (by identity, outside any trace); the others keep their values, as in torch.
        self._given_params = None
        self._given_names = None
        # torch's parameter groups: [(arrays, overrides)] until init() makes {name: overrides}
        self._given_groups = None
        self._group_of = None
        # opt.update compiles its step (see _step_function); False runs it op by op.
        self.jit_update = True
        self._jitted = {}            # hyperparameter key -> loom.jit of the pure step
        self._lr_array = None        # (learning rate, device, its 0-d float64 array)
        self._align_state = False    # set by load_state_dict: buffers follow their parameters

    @property
    def _who(self):
        return f"optim.{type(self).__name__}"

    # -- hyperparameters ---------------------------------------------------------------
    def _check_hyperparameters(self):
        """Raises on a hyperparameter out of range (subclasses extend it)."""
        check_learning_rate(self._who, self.learning_rate)

    def _hyperparameters(self):
        return {n: getattr(self, n) for n in self.hyperparameter_names}

    def __repr__(self):
        args = ", ".join(f"{n}={v!r}" for n, v in self._hyperparameters().items())
        return f"{type(self).__name__}({args})"

    # -- functional core ---------------------------------------------------------------
    def init(self, params):
        """The state before the first update: step 0 and zero buffers like each parameter.
        `params` is a dict name -> array (or a model, whose named_parameters() are used)."""
        if hasattr(params, "named_parameters") and not isinstance(params, dict):
            params = dict(params.named_parameters())
        params = check_params(params, self._who)
        self._resolve_given(params)
        first = next(iter(params.values()), None)
        device = first.device if first is not None else _loom.default_device()
        state = {"step": _loom.zeros((), dtype=_loom.int32, device=device)}
        for b in self.buffers:
            state[b] = {name: _loom.zeros_like(p, dtype=compute_dtype(p)) for name, p in params.items()}
        return state

    def _resolve_given(self, params):
        if self._given_params is None:
            return
        ids = {id(p) for p in self._given_params}
        names = {n for n, p in params.items() if id(p) in ids}
        if len(names) != len(ids):
            raise ValueError(f"[{self._who}] {len(ids) - len(names)} of the {len(ids)} parameters given to the optimiser "
                             "are not the model's: make the optimiser from model.parameters() before the model is "
                             "updated (an update replaces the arrays)")
        self._given_names, self._given_params = names, None
        if self._given_groups is not None:
            where = {id(p): n for n, p in params.items()}
            self._group_of = {where[id(p)]: overrides for arrays, overrides in self._given_groups for p in arrays}
            self._given_groups = None

    def _check_groups(self, groups):
        for _, overrides in groups:
            unknown = sorted(set(overrides) - set(self.hyperparameter_names))
            if unknown:
                raise TypeError(f"[{self._who}] a parameter group sets {unknown[0]!r}, which is not one of "
                                f"{type(self).__name__}'s hyperparameters {list(self.hyperparameter_names)}")
            if "momentum" in overrides and (overrides["momentum"] != 0) != (getattr(self, "momentum", 0) != 0):
                raise NotImplementedError(f"[{self._who}] a parameter group with momentum where the optimiser has "
                                          "none (or the reverse) is not offered: give every group momentum")
            saved = {n: getattr(self, n) for n in overrides}
            try:
                for n, v in overrides.items():
                    setattr(self, n, v)
                self._check_hyperparameters()
            finally:
                for n, v in saved.items():
                    setattr(self, n, v)

    def apply(self, params, grads, state, learning_rate=None):
        """(new_params, new_state) after one update; pure, so loom.jit and loom.grad can trace
        it. Parameters without a gradient (missing or None) keep their values and buffers.
        learning_rate: overrides opt.learning_rate for this update (a number or a 0-d array,
        so that a compiled step takes the rate a scheduler sets as an argument)."""
        self._check_hyperparameters()
        hp = self._hyperparameters()
        if learning_rate is not None:
            hp["learning_rate"] = learning_rate
        return self._apply(params, grads, state, hp)

    def learning_rate_argument(self, device):
        """The float learning rate as a 0-d float64 array on `device` (one copy per value), for
        apply(..., learning_rate=) in a compiled step; None for a schedule (a function of the
        step, traced with it)."""
        lr = self.learning_rate
        if callable(lr):
            return None
        if self._lr_array is None or self._lr_array[:2] != (lr, device):
            self._lr_array = (lr, device, _loom.asarray(np.float64(lr), device=device))
        return self._lr_array[2]

    def zero_grad(self, set_to_none=True):
        """Nothing to do: loom's gradients are values returned by nn.value_and_grad, never
        accumulated in the parameters (kept so that PyTorch's loops port line by line)."""

    def step(self, closure=None):
        raise TypeError(f"[{self._who}] step() needs gradients stored in the parameters (loss.backward()), which loom "
                        "does not have: write loss, grads = nn.value_and_grad(model, loss_fn)(model, X, y), then "
                        "opt.update(model, grads); loom.Trainer does both")

    def _apply(self, params, grads, state, hp):
        who = self._who
        params = check_params(params, who)
        grads = check_grads(params, grads, who)
        check_state(state, params, grads, self.buffers, who)
        if self._given_names is not None:  # torch's form: only the parameters given are updated
            grads = {n: g for n, g in grads.items() if n in self._given_names}
        step = state["step"]
        lr = hp["learning_rate"]
        if callable(lr):
            lr = lr(step)
            if not (is_number(lr) or isinstance(lr, _ndarray)):
                raise TypeError(f"[{who}] the learning_rate schedule returned a {type(lr).__name__}; "
                                "it must return a number or a 0-d array")
        per_group = {}  # id of a group's overrides -> (its hyperparameters, its step scalars)

        def group(name):
            overrides = (self._group_of or {}).get(name)
            if not overrides:
                return hp, scalars
            if id(overrides) not in per_group:
                ghp = {**hp, **overrides}
                glr = ghp["learning_rate"]
                per_group[id(overrides)] = ghp, self._scalars(step, glr(step) if callable(glr) else glr, ghp)
            return per_group[id(overrides)]
        scalars = self._scalars(step, lr, hp)
        new_params = dict(params)
        new_buffers = {b: dict(state[b]) for b in self.buffers}
        for name, g in grads.items():
            p = params[name]
            bufs = {b: state[b][name] for b in self.buffers}
            wide = compute_dtype(p)  # 16-bit floats update in float32, then round once
            pw, gw = (p.astype(wide), g.astype(wide)) if wide != p.dtype else (p, g)
            ghp, gscalars = group(name)
            new_p, bufs = self._update_one(pw, gw, bufs, gscalars.for_param(pw), ghp)
            new_params[name] = new_p.astype(p.dtype) if wide != p.dtype else new_p
            for b in self.buffers:
                new_buffers[b][name] = bufs[b]
        return new_params, {"step": step + 1, **new_buffers}

    def _scalars(self, step, lr, hp):
        raise NotImplementedError

    def _update_one(self, p, g, bufs, s, hp):
        raise NotImplementedError

    # -- stateful convenience ----------------------------------------------------------
    def update(self, model, grads):
        """One update of `model` (named_parameters() and update_parameters(mapping), as
        loom.nn.Module has them) with `grads`, a dict name -> array like its parameters. The
        state is made on the first call and kept in `self.state`.

        Outside a trace the step runs as one compiled loom.jit function per setting of the
        hyperparameters, so an update costs a few fused kernels instead of a dozen eager ops
        per parameter; inside a trace (a jitted training step) it is traced into the caller's.
        """
        params = dict(model.named_parameters())
        if self.state is None:
            self.state = self.init(params)
        elif self._align_state:
            self.state = align_buffers(self.state, params, self.buffers, self._who)
        self._align_state = False
        new_params, self.state = self._step_function()(params, grads, self.state)
        updated = {name: new_params[name] for name, g in grads.items() if g is not None}
        model.update_parameters(updated)

    def _step_function(self):
        """apply, compiled per hyperparameter setting when not already tracing. A float
        learning rate is an argument of the compiled step (a 0-d float64 array), so setting
        opt.learning_rate between updates does not compile again."""
        self._check_hyperparameters()
        hp = self._hyperparameters()
        if not self.jit_update or _loom._is_tracing():
            return lambda params, grads, state: self._apply(params, grads, state, hp)
        key = tuple((n, v) for n, v in hp.items() if not (n == "learning_rate" and not callable(v)))
        try:
            compiled = self._jitted.get(key)
        except TypeError:  # an unhashable schedule object: nothing to key a compiled step by
            return lambda params, grads, state: self._apply(params, grads, state, hp)
        if compiled is None:
            if len(self._jitted) >= _MAX_JITTED_SETTINGS:
                return lambda params, grads, state: self._apply(params, grads, state, hp)
            fixed = dict(hp)

            def pure_step(params, grads, state, lr_array):
                lr_now = fixed["learning_rate"] if lr_array is None else lr_array
                return self._apply(params, grads, state, dict(fixed, learning_rate=lr_now))

            compiled = self._jitted[key] = jit(pure_step)
        lr_array = self.learning_rate_argument(self.state["step"].device)  # one copy per rate, not per update
        return lambda params, grads, state: compiled(params, grads, state, lr_array)

    def state_dict(self):
        """{"state": the state (None before the first update), "hyperparameters": {...}}.
        The arrays are the optimiser's own; load_state_dict takes this back."""
        state = None if self.state is None else {k: (dict(v) if isinstance(v, dict) else v)
                                                 for k, v in self.state.items()}
        return {"state": state, "hyperparameters": self._hyperparameters()}

    def load_state_dict(self, state_dict):
        """Restores what state_dict() returned (arrays may be NumPy arrays). Buffers move to
        their parameter's device and dtype at the next update, as torch.optim does."""
        who = f"{self._who}.load_state_dict"
        if not isinstance(state_dict, dict) or set(state_dict) != {"state", "hyperparameters"}:
            raise ValueError(f"[{who}] expected a dict with keys 'state' and 'hyperparameters' "
                             "(what state_dict() returns)")
        hp = state_dict["hyperparameters"]
        unknown = set(hp) - set(self.hyperparameter_names)
        if unknown:
            raise ValueError(f"[{who}] unknown hyperparameters {sorted(unknown)} for {type(self).__name__}")
        old = self._hyperparameters()
        for n, v in hp.items():
            setattr(self, n, v)
        try:
            self._check_hyperparameters()
        except (TypeError, ValueError):
            for n, v in old.items():
                setattr(self, n, v)
            raise
        state = state_dict["state"]
        if state is not None:
            want = {"step", *self.buffers}
            if not isinstance(state, dict) or set(state) != want:
                got = sorted(state) if isinstance(state, dict) else type(state).__name__
                raise ValueError(f"[{who}] the state must have the keys {sorted(want)}, got {got}")
            state = tree_map(_loom.asarray, state)
            if state["step"].shape != () or state["step"].dtype.name not in ("int32", "int64"):
                raise ValueError(f"[{who}] state['step'] must be a 0-d integer array")
            state["step"] = state["step"].astype(_loom.int32)
        self.state = state
        self._align_state = state is not None
