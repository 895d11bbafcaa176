"""loom.nn.Module: PyTorch-style modules whose parameters are loom arrays.

An attribute that is a loom array is a parameter, one that is a Module is a child (both
registered in assignment order); `register_buffer` keeps arrays that are state but not
trained (BatchNorm's running statistics). Names are dotted paths ("0.weight").

Modules are pytrees (loom.tree_flatten): the leaves are the parameters, then the buffers,
and the tree keeps the module objects and their `training` flags, so loom.jit and loom.grad
take functions of a module and retrace when the structure or the mode changes. Unflattening
builds shallow copies of the modules around the new leaves; the originals are untouched.
"""
import inspect

from .. import _loom
from ..transforms._grad import value_and_grad_with_hook as _value_and_grad
from ..transforms.tree_util import register_pytree_node

_ndarray = _loom.ndarray


class Module:
    """Base class of layers and models: subclasses set attributes in __init__ (after
    super().__init__()) and define forward(); calling the module calls forward."""

    _lazy = False  # lazy layers (lazy.py) set it until their first input makes their parameters

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        _register(cls)  # every module class is a pytree node (the registry matches exact types)

    def __init__(self):
        object.__setattr__(self, "_parameters", {})
        object.__setattr__(self, "_buffers", {})
        object.__setattr__(self, "_modules", {})
        object.__setattr__(self, "training", True)

    # ---- registration ----------------------------------------------------------------------
    def __setattr__(self, name, value):
        if "_parameters" not in self.__dict__:
            raise AttributeError(f"[nn.Module] {type(self).__name__}.__init__ must call super().__init__() "
                                 f"before setting {name!r}")
        if name in self._buffers and (value is None or isinstance(value, _ndarray)):
            self._buffers[name] = value  # a buffer stays a buffer (BatchNorm's running statistics)
            return
        for table in (self._parameters, self._buffers, self._modules):
            table.pop(name, None)
        if isinstance(value, Module):
            self._modules[name] = value
        elif isinstance(value, _ndarray):
            self._parameters[name] = value
        else:
            object.__setattr__(self, name, value)
            return
        self.__dict__.pop(name, None)

    def __getattr__(self, name):  # only called when normal lookup fails
        d = self.__dict__
        for table in ("_parameters", "_buffers", "_modules"):
            if table in d and name in d[table]:
                return d[table][name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __delattr__(self, name):
        for table in (self._parameters, self._buffers, self._modules):
            if name in table:
                del table[name]
                return
        object.__delattr__(self, name)

    def register_buffer(self, name, value):
        """Keeps `value` (a loom array, or None) as state that is saved and moved with the module
        but not trained."""
        if value is not None and not isinstance(value, _ndarray):
            raise TypeError(f"[nn.Module.register_buffer] {name!r} must be a loom array or None, "
                            f"got {type(value).__name__}")
        for table in (self._parameters, self._modules):
            table.pop(name, None)
        self._buffers[name] = value

    def add_module(self, name, module):
        if not isinstance(module, Module):
            raise TypeError(f"[nn.Module.add_module] {name!r} must be a Module, got {type(module).__name__}")
        setattr(self, name, module)

    # ---- the forward pass --------------------------------------------------------------------
    def forward(self, *args, **kwargs):
        raise NotImplementedError(f"[nn.Module] {type(self).__name__} does not define forward()")

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    # ---- traversal -------------------------------------------------------------------------
    def named_modules(self, prefix=""):
        """(dotted name, module) for this module and every descendant, depth first; a module
        reachable twice is listed once."""
        seen, out = set(), []

        def walk(m, name):
            if id(m) in seen:
                return
            seen.add(id(m))
            out.append((name, m))
            for child_name, child in m._modules.items():
                walk(child, f"{name}.{child_name}" if name else child_name)
        walk(self, prefix)
        return out

    def modules(self):
        return [m for _, m in self.named_modules()]

    def apply(self, fn):
        """PyTorch's: fn(m) for every submodule, children before their parent, then self; returns
        self. With nn.init's in-place initialisers (nn.init.xavier_uniform_(m.weight)) it
        re-initialises a network; a lazy layer is skipped by type tests until its first call."""
        for child in self.children():
            child.apply(fn)
        fn(self)
        return self

    def named_children(self):
        return list(self._modules.items())

    def children(self):
        return list(self._modules.values())

    def _named(self, table, modules=None):
        out, seen = [], set()
        for mname, m in modules if modules is not None else self.named_modules():
            for name, a in getattr(m, table).items():
                if a is None or id(a) in seen:
                    continue
                seen.add(id(a))
                out.append((f"{mname}.{name}" if mname else name, a))
        return out

    def named_parameters(self):
        """(dotted name, array) for every parameter, in registration order; an array shared by
        two modules is listed once, under its first name."""
        return self._named("_parameters")

    def parameters(self):
        return [a for _, a in self.named_parameters()]

    def named_buffers(self):
        return self._named("_buffers")

    def buffers(self):
        return [a for _, a in self.named_buffers()]

    # ---- state -----------------------------------------------------------------------------
    def state_dict(self):
        """Every parameter and buffer by dotted name (the arrays themselves, not copies)."""
        mods = self.named_modules()
        return dict(self._named("_parameters", mods) + self._named("_buffers", mods))

    def _slot(self, name):
        """(owning module, attribute, table) of a dotted parameter or buffer name."""
        *path, attr = name.split(".")
        m = self
        for p in path:
            if p not in m._modules:
                raise KeyError(f"[nn.Module] no submodule {p!r} on the way to {name!r}")
            m = m._modules[p]
        for table in ("_parameters", "_buffers"):
            if attr in getattr(m, table):
                return m, attr, table
        raise KeyError(f"[nn.Module] {type(self).__name__} has no parameter or buffer {name!r}")

    def load_state_dict(self, state, strict=True):
        """Replaces parameters and buffers by name with `state`'s arrays (loom or NumPy), moved
        to each one's device and checked for shape and dtype. strict: the names must match
        exactly (KeyError naming the missing and unexpected ones). A lazy layer not yet called
        is made from the state's shapes first, as PyTorch's lazy modules are."""
        for mname, m in self.named_modules():
            if getattr(m, "_lazy", False) and isinstance(m, Module) and hasattr(m, "_materialize_from_state"):
                m._materialize_from_state(state, f"{mname}." if mname else "")
        own = self.state_dict()
        if strict:
            missing = [k for k in own if k not in state]
            unexpected = [k for k in state if k not in own]
            if missing or unexpected:
                raise KeyError(f"[nn.Module.load_state_dict] missing {missing}, unexpected {unexpected}")
        for name, value in state.items():
            if name not in own:
                continue
            old = own[name]
            new = _loom.asarray(value, device=old.device) if not isinstance(value, _ndarray) else value.to(old.device)
            if tuple(new.shape) != tuple(old.shape):
                raise ValueError(f"[nn.Module.load_state_dict] {name!r} has shape {tuple(new.shape)}, "
                                 f"the module's is {tuple(old.shape)}")
            if new.dtype != old.dtype:
                new = new.astype(old.dtype)
            m, attr, table = self._slot(name)
            getattr(m, table)[attr] = new.copy() if new is value else new
        return self

    def update_parameters(self, mapping):
        """Replaces parameters (or buffers) by dotted name: the optimisers' way back into the
        module; returns the module."""
        for name, value in mapping.items():
            if value is None:
                continue
            m, attr, table = self._slot(name)
            getattr(m, table)[attr] = value
        return self

    # ---- modes and devices -----------------------------------------------------------------
    def train(self, mode=True):
        for m in self.modules():
            object.__setattr__(m, "training", bool(mode))
        return self

    def eval(self):
        return self.train(False)

    def to(self, device=None, dtype=None):
        """Moves every parameter and buffer to `device` and/or casts floating ones to `dtype`;
        returns the module. A lazy layer not yet called remembers them for its parameters."""
        for m in self.modules():
            if getattr(m, "_lazy", False):
                m._device = device if device is not None else m._device
                m._dtype = dtype if dtype is not None else m._dtype
            for table in (m._parameters, m._buffers):
                for k, a in table.items():
                    if a is None:
                        continue
                    if device is not None and a.device != device:
                        a = a.to(device)
                    if dtype is not None and a.dtype.kind == "f" and a.dtype != dtype:
                        a = a.astype(dtype)
                    table[k] = a
        return self

    @property
    def device(self):
        """The device of the first parameter or buffer (None without any)."""
        for _, a in self.named_parameters() + self.named_buffers():
            return a.device
        return None

    # ---- functional use --------------------------------------------------------------------
    def _with_arrays(self, arrays):
        """A shallow copy of the module tree whose parameters, then buffers (in state_dict
        order), are `arrays`; this module is untouched. Arrays are swapped by identity, so an
        array that two modules share (tied weights) is replaced in both."""
        old = list(self.state_dict().values())
        if len(old) != len(arrays):
            raise ValueError(f"[nn.Module] {len(arrays)} arrays for {len(old)} parameters and buffers")
        return self._with_swapped({id(o): a for o, a in zip(old, arrays)})

    def _with_swapped(self, swap):
        """A shallow copy of the module tree in which each array `a` is swap[id(a)] (if there)."""
        clones = {}

        def clone(m):
            c = clones.get(id(m))
            if c is None:
                c = clones[id(m)] = object.__new__(type(m))
                d = c.__dict__
                d.update(m.__dict__)
                d["_parameters"] = {k: swap.get(id(v), v) for k, v in m._parameters.items()}
                d["_buffers"] = {k: swap.get(id(v), v) for k, v in m._buffers.items()}
                d["_modules"] = {k: clone(child) for k, child in m._modules.items()}
            return c
        return clone(self)

    def __repr__(self):
        extra = self.extra_repr()
        lines = [f"({k}): " + repr(m).replace("\n", "\n  ") for k, m in self._modules.items()]
        if not lines:
            return f"{type(self).__name__}({extra})"
        body = "\n  ".join(([extra] if extra else []) + lines)
        return f"{type(self).__name__}(\n  {body}\n)"

    def extra_repr(self):
        return ""

    def has_uninitialized_params(self):
        """Whether a lazy layer in this module still waits for its first input (PyTorch's name)."""
        return any(m._lazy for m in self.modules())

    # ---- d2l's habits ----------------------------------------------------------------------
    def save_hyperparameters(self, ignore=()):
        """d2l's: every argument of the calling __init__ (but self, the names in `ignore` and
        names starting with _) becomes an attribute, and all of them are kept in self.hparams."""
        save_hyperparameters(self, inspect.currentframe().f_back, ignore)

    def plot(self, key, value, train=True):
        """d2l's: records `value` (a loss, an accuracy: a scalar array or a number) as
        'train_<key>' or 'val_<key>' on the Trainer's board. Inside Trainer.fit the values are
        collected with the step (also under loom.jit) and averaged per epoch."""
        label = ("train_" if train else "val_") + str(key)
        if _PLOTS:
            _PLOTS[-1][label] = value if isinstance(value, _ndarray) else _loom.asarray(float(value))
            return
        trainer = self.__dict__.get("trainer")
        if trainer is None or not hasattr(trainer, "_plot_now"):
            raise RuntimeError(f"[nn.Module.plot] {type(self).__name__}.plot({key!r}, ...) draws on the board of the "
                               "Trainer that fits this model; it has none (call it from training_step or "
                               "validation_step under trainer.fit)")
        trainer._plot_now(label, value)


class _ModuleDef:
    """The pytree aux data of a module: the module object (by identity), its parameter and
    buffer names and every submodule's training flag, so that jit retraces on a change."""

    __slots__ = ("module", "names", "modes")

    def __init__(self, module, names, modes):
        self.module, self.names, self.modes = module, names, modes

    def __eq__(self, other):
        return (isinstance(other, _ModuleDef) and other.module is self.module and other.names == self.names
                and other.modes == self.modes)

    def __hash__(self):
        return hash((id(self.module), self.names, self.modes))

    def __repr__(self):
        return f"{type(self.module).__name__}<{len(self.names)} arrays>"


def _flatten(module):
    mods = module.named_modules()  # one walk for the arrays, their names and the modes
    state = dict(module._named("_parameters", mods) + module._named("_buffers", mods))
    return list(state.values()), _ModuleDef(module, tuple(state), tuple(m.training for _, m in mods))


def _unflatten(aux, leaves):
    return aux.module._with_arrays(list(leaves))


def _register(cls):
    register_pytree_node(cls, _flatten, _unflatten)


_register(Module)


# Stack of dicts collecting Module.plot's values while a Trainer runs a step (recording()).
_PLOTS = []


class recording:
    """with recording() as values: Module.plot calls in the block store into `values`
    (label -> value) instead of drawing; the Trainer returns them from its step."""

    def __enter__(self):
        self.values = {}
        _PLOTS.append(self.values)
        return self.values

    def __exit__(self, *exc):
        _PLOTS.remove(self.values)


def save_hyperparameters(obj, frame, ignore=()):
    """d2l's HyperParameters.save_hyperparameters over the arguments of `frame` (an __init__)."""
    info = inspect.getargvalues(frame)
    skip = set(ignore) | {"self", "__class__"}
    names = list(info.args) + ([info.varargs] if info.varargs else []) + ([info.keywords] if info.keywords else [])
    hparams = {k: info.locals[k] for k in names if k not in skip and not k.startswith("_")}
    obj.hparams = hparams
    for k, v in hparams.items():
        setattr(obj, k, v)


def materialize_lazy(model, run, who):
    """Gives the lazy layers of `model` their parameters by calling run(model) once, eagerly
    and in eval mode (BatchNorm's running statistics and Dropout's generator untouched), with
    Module.plot muted; the modes are restored. Under a transform it raises instead: the
    parameters' first draw must come outside loom.jit, grad and vmap."""
    pending = [name or type(m).__name__ for name, m in model.named_modules() if m._lazy]
    if not pending:
        return
    if _loom._is_tracing():
        raise _loom.ConcretizationTypeError(
            f"[{who}] the model's lazy layers ({', '.join(pending)}) have no parameters yet: they are made from the "
            "first input, outside loom.jit, grad and vmap (the global generator draws them). Call the model once on "
            "a batch before the transformed step (net(X)), as d2l does; loom.Trainer and an nn.value_and_grad "
            "called outside loom.jit do it themselves.")
    modes = [(m, m.training) for m in model.modules()]
    model.eval()
    try:
        with recording():
            run(model)
    finally:
        for m, mode in modes:
            object.__setattr__(m, "training", mode)


def value_and_grad(model, fn, has_aux=False):
    """A function like `fn(model, *args)` (which returns a float scalar) returning (value,
    grads): grads maps each parameter's dotted name to the gradient of the value with respect
    to it. Buffers are inputs, not differentiated. Called as nn.value_and_grad(net, loss_fn)(net,
    X, y); the model passed may be `model` itself or one of the same structure. Buffers that
    the forward pass replaces (BatchNorm's running statistics in training mode) are written
    into the model passed. has_aux: fn returns (value, aux) and the result is ((value, aux),
    grads), as jax.value_and_grad.

    Lazy layers (nn.LazyLinear, ...) get their parameters on the first call, from one eager
    call of fn in eval mode, as d2l's first call of the net; called under loom.jit, that first
    call raises and says to call the model once before."""
    return value_and_grad_with_hook(model, fn, None, has_aux)


def value_and_grad_with_hook(model, fn, ready, has_aux=False):
    """value_and_grad that also calls ready(name, gradient) during the backward pass, as soon
    as each parameter's gradient is final (see transforms/_grad.py); None: none."""
    if not isinstance(model, Module):
        raise TypeError(f"[nn.value_and_grad] expected a Module, got {type(model).__name__}")
    if not callable(fn):
        raise TypeError(f"[nn.value_and_grad] expected a function, got {type(fn).__name__}")

    def value_and_grad_fn(m, *args, **kwargs):
        if not isinstance(m, Module):
            raise TypeError(f"[nn.value_and_grad] the first argument must be the model, got {type(m).__name__}")
        # One walk of the module tree per call: this runs every training step.
        mods = m.named_modules()
        if any(x._lazy for _, x in mods):
            materialize_lazy(m, lambda mm: fn(mm, *args, **kwargs), "nn.value_and_grad")
            mods = m.named_modules()
        named = m._named("_parameters", mods)
        has_buffers = bool(m._named("_buffers", mods))

        def loss_of(params, *a):
            copy = m._with_swapped({id(p): params[n] for n, p in named})
            out = fn(copy, *a, **kwargs)
            if has_aux:
                if not (isinstance(out, tuple) and len(out) == 2):
                    raise TypeError("[nn.value_and_grad] with has_aux=True the function must return (value, aux), "
                                    f"got {type(out).__name__}")
                return out[0], (out[1], dict(copy.named_buffers()) if has_buffers else {})
            return out, (None, dict(copy.named_buffers()) if has_buffers else {})
        params = dict(named)
        hook = None
        if ready is not None:
            names = sorted(params)  # the leaf order of tree_flatten on a dict of arrays

            def hook(i, g):
                ready(names[i], g)
        (value, (aux, new_buffers)), grads = _value_and_grad(loss_of, hook, has_aux=True)(params, *args)
        if new_buffers:
            m.update_parameters(new_buffers)  # buffers the forward pass updated (running statistics)
        return ((value, aux) if has_aux else value), grads
    return value_and_grad_fn
