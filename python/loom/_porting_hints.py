"""What a PyTorch or NumPy user types that loom spells otherwise, and the errors that say
loom's spelling: `loom.sum(a, dim=1)`, `x.cuda()`, `loom.tensor(...)`.

One place for all of them: the bound functions' TypeError passes through `explain` (called
by the forwarding builtins of _numpy/signatures.py, python/src/signatures.cpp, only when a
call fails, and by the forwarding methods install() puts on ndarray for those methods that
take axis=, keepdims= or ddof=), ndarray's `__getattr__` runs only when an attribute is missing, and loom's
module `__getattr__` asks `module_attribute_hint` for a name it does not have.
"""
from . import _loom
from ._numpy.signatures import _parameter_texts

# PyTorch's keyword -> loom's, with the text that says it. Said only when the function takes
# loom's keyword (torch's `dim` of a function without `axis` gets the plain message).
KEYWORDS = {
    "dim": ("axis", "use axis= (NumPy's name for torch's dim=)"),
    "keepdim": ("keepdims", "use keepdims= (NumPy's name for torch's keepdim=)"),
    "input": (None, "pass the array positionally"),
    "unbiased": ("ddof", "use ddof= (unbiased=True is ddof=1, unbiased=False is ddof=0)"),
    "correction": ("ddof", "use ddof= (torch's correction=)"),
    "requires_grad": (None, "loom arrays carry no gradient flag: differentiate a function with loom.grad"),
}

# Methods of torch.Tensor that loom.ndarray has under another name.
ARRAY_ATTRIBUTES = {
    "cuda": "x.to(loom.gpu(0)) moves an array to the GPU (x.to('gpu:1') to another)",
    "cpu": "x.to(loom.cpu()) moves an array to the CPU (x.numpy() gives a NumPy array from any device)",
    "numel": "x.size is the number of elements",
    "detach": "loom.stop_gradient(x) stops gradients (loom arrays carry no autograd graph)",
    "backward": "loom.grad(f)(x) or loom.value_and_grad(f)(x) differentiates a function",
    "unsqueeze": "loom.expand_dims(x, axis) adds an axis",
    # Not torch's, but what Numba and CuPy code asks of every array: only GPU arrays have it.
    "__cuda_array_interface__": "a cpu() array is host memory, which the CUDA array interface does not describe; "
                                "x.to(loom.gpu(0)) has one, and np.from_dlpack(x) reads a cpu() array in place",
}

# Functions of the torch module that loom has under another name.
MODULE_ATTRIBUTES = {
    "tensor": "loom.asarray(data) (or loom.array(data), which always copies) makes an array",
    "Tensor": "loom.ndarray is the array type; loom.asarray(data) makes one",
    "from_numpy": "loom.asarray(np_array) makes an array from a NumPy array",
    "cat": "loom.concatenate(arrays, axis=0) joins arrays",
    "manual_seed": "loom.random.seed(s) seeds the global generator (or use keys: loom.random.key(s))",
}


def _parameter_names(target):
    """Every keyword any overload of the nanobind function `target` accepts."""
    names = set()
    for text, *_ in getattr(target, "__nb_signature__", ()):
        for p in _parameter_texts(text):
            name = p.partition("=")[0].split(":")[0].strip().lstrip("*")
            if name and name != "/":
                names.add(name)
    return names


def keyword_message(op, kw, accepted):
    """The message for keyword `kw`, unknown to `op`, which accepts `accepted`."""
    msg = f"[{op}] unexpected keyword argument {kw!r}"
    loom_name, hint = KEYWORDS.get(kw, (None, None))
    if hint and (loom_name is None or loom_name in accepted):
        return f"{msg}: {hint}"
    listed = ", ".join(sorted(n for n in accepted if n != "self"))
    return f"{msg}; its keywords are: {listed}" if listed else msg


def explain(target, kwnames, error):
    """Called when a bound function raised TypeError: raises the clearer error, or returns
    None to keep `error` (a TypeError from the op itself, or a wrong positional type)."""
    if not kwnames or "incompatible function arguments" not in str(error):
        return None
    accepted = _parameter_names(target)
    unknown = [k for k in kwnames if k not in accepted]
    if not accepted or not unknown:
        return None
    raise TypeError(keyword_message(getattr(target, "__name__", "?"), unknown[0], accepted))


def array_getattr(self, name):
    """ndarray.__getattr__: only reached for a name the array does not have."""
    hint = ARRAY_ATTRIBUTES.get(name)
    tail = f": {hint}" if hint else ""
    raise AttributeError(f"'loom.ndarray' object has no attribute {name!r}{tail}")


def module_attribute_hint(name):
    hint = MODULE_ATTRIBUTES.get(name)
    return f": {hint}" if hint else ""


# An array method whose keywords include one of these gets the hints too (x.sum(dim=1)).
_HINTED_KEYWORDS = {loom_name for loom_name, _ in KEYWORDS.values() if loom_name}


def install():
    _loom._set_argument_error_hook(explain)
    _loom.ndarray.__getattr__ = array_getattr
    for name, method in list(vars(_loom.ndarray).items()):
        if hasattr(method, "__nb_signature__") and _parameter_names(method) & _HINTED_KEYWORDS:
            setattr(_loom.ndarray, name, _loom._forwarding_method(method))
