"""Layers with PyTorch's names, shapes and default initialisations: Linear,
Sequential, Flatten, Identity, Embedding, LayerNorm."""
import math

from .. import _loom
from . import init
from .module import Module


class Identity(Module):
    def forward(self, x):
        return x


class Linear(Module):
    """y = x @ weight.T + bias, weight of shape (out_features, in_features) as PyTorch's."""

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        if in_features < 0 or out_features < 0:
            raise ValueError(f"[nn.Linear] sizes must be >= 0, got in_features={in_features}, "
                             f"out_features={out_features}")
        self.in_features, self.out_features = int(in_features), int(out_features)
        self.weight = init.kaiming_uniform_default((self.out_features, self.in_features), device, dtype)
        if bias:
            self.bias = init.bias_default(self.out_features, self.in_features, device, dtype)
        else:
            self.bias = None

    def forward(self, x):
        if x.shape[-1] != self.in_features:
            raise ValueError(f"[nn.Linear] expected inputs with {self.in_features} features in the last "
                             f"dimension, got shape {tuple(x.shape)}")
        y = _loom.matmul(x, self.weight.T)
        return y + self.bias if self.bias is not None else y

    def extra_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


class Sequential(Module):
    """Modules applied in order; indexable (net[0], net[1:]), iterable, len()."""

    def __init__(self, *modules):
        super().__init__()
        for i, m in enumerate(modules):
            if not isinstance(m, Module):
                raise TypeError(f"[nn.Sequential] argument {i} is a {type(m).__name__}, not a Module")
            self._modules[str(i)] = m

    def forward(self, x):
        for m in self._modules.values():
            x = m(x)
        return x

    def __getitem__(self, i):
        mods = list(self._modules.values())
        if isinstance(i, slice):
            return Sequential(*mods[i])
        try:
            return mods[i]
        except IndexError:
            raise IndexError(f"[nn.Sequential] index {i} out of range for {len(mods)} modules") from None

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(list(self._modules.values()))

    def append(self, module):
        if not isinstance(module, Module):
            raise TypeError(f"[nn.Sequential.append] expected a Module, got {type(module).__name__}")
        self._modules[str(len(self._modules))] = module
        return self


class Flatten(Module):
    """Flattens dims start_dim..end_dim into one (PyTorch's defaults: all but the batch dim)."""

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim, self.end_dim = start_dim, end_dim

    def forward(self, x):
        nd = len(x.shape)
        s, e = self.start_dim % nd if nd else 0, self.end_dim % nd if nd else 0
        if s > e:
            raise ValueError(f"[nn.Flatten] start_dim {self.start_dim} comes after end_dim {self.end_dim} "
                             f"for an input of {nd} dims")
        shape = tuple(x.shape)
        return x.reshape(shape[:s] + (math.prod(shape[s:e + 1]),) + shape[e + 1:])


class Embedding(Module):
    """Rows of weight (num_embeddings, embedding_dim), initialised N(0, 1), picked by integer
    indices."""

    def __init__(self, num_embeddings, embedding_dim, device=None, dtype=None):
        super().__init__()
        self.num_embeddings, self.embedding_dim = int(num_embeddings), int(embedding_dim)
        self.weight = init.normal((self.num_embeddings, self.embedding_dim), 1.0, device, dtype)

    def forward(self, indices):
        if indices.dtype.kind not in "iu":
            raise TypeError(f"[nn.Embedding] indices must be integers, got {indices.dtype}")
        return self.weight[indices]


class LayerNorm(Module):
    """(x - mean) / sqrt(var + eps) over the last len(normalized_shape) dims, then * weight +
    bias (ones and zeros at first), as PyTorch's (biased variance)."""

    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, bias=True, device=None, dtype=None):
        super().__init__()
        shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
        self.normalized_shape, self.eps = shape, float(eps)
        dtype = dtype or _loom.float32
        if elementwise_affine:
            self.weight = _loom.ones(shape, dtype=dtype, device=device)
            self.bias = _loom.zeros(shape, dtype=dtype, device=device) if bias else None
        else:
            self.weight = self.bias = None

    def forward(self, x):
        k = len(self.normalized_shape)
        if tuple(x.shape[len(x.shape) - k:]) != self.normalized_shape:
            raise ValueError(f"[nn.LayerNorm] expected inputs ending in {self.normalized_shape}, "
                             f"got shape {tuple(x.shape)}")
        axes = tuple(range(len(x.shape) - k, len(x.shape)))
        mean = _loom.mean(x, axis=axes, keepdims=True)
        centred = x - mean
        var = _loom.mean(centred * centred, axis=axes, keepdims=True)
        y = centred / _loom.sqrt(var + self.eps)
        if self.weight is not None:
            y = y * self.weight
        if self.bias is not None:
            y = y + self.bias
        return y

    def extra_repr(self):
        return f"{self.normalized_shape}, eps={self.eps}"


_SEEDS = []  # stack of [seed, draws so far] (random_keys)


class random_keys:
    """with nn.random_keys(seed): layers that draw random numbers without a key= (Dropout) draw
    from `seed`, a uint32 array (0-d; a traced value is fine) hashed with their draw number and
    each element's index, so a compiled step given a new seed each time (loom.Trainer passes
    one derived from the optimiser's step count) draws new masks without tracing again;
    outside such a block they use the global generator."""

    def __init__(self, seed):
        self.seed = seed

    def __enter__(self):
        _SEEDS.append([self.seed, 0])
        return self

    def __exit__(self, *exc):
        _SEEDS.pop()
        return False


def _mix(h):
    # murmur3's 32-bit finaliser: each input bit flips each output bit with probability ~1/2
    h = h ^ (h >> 16)
    h = h * 0x85EBCA6B
    h = h ^ (h >> 13)
    h = h * 0xC2B2AE35
    return h ^ (h >> 16)


def scope_uniform(shape, device=None, dtype=None):
    """U[0, 1) of `shape` from the innermost random_keys block (its seed, this draw's number,
    each element's index, hashed), or None outside one."""
    if not _SEEDS or _SEEDS[-1][0] is None:
        return None
    slot = _SEEDS[-1]
    slot[1] += 1
    u32 = _loom.uint32
    seed = _loom.asarray(slot[0]).astype(u32)
    if device is not None and seed.device != device:
        seed = seed.to(device)
    n = 1
    for d in shape:
        n *= int(d)
    idx = _loom.arange(n, dtype=u32, device=seed.device).reshape(tuple(shape))
    h = _mix(_mix(seed ^ (slot[1] * 0x9E3779B9 & 0xFFFFFFFF)) + idx * 0x27D4EB2F)
    return (h >> 8).astype(dtype or _loom.float32) * (1.0 / (1 << 24))


class Dropout(Module):
    """In training mode, zeroes each element with probability p and scales the others by
    1/(1-p) (PyTorch's); in eval mode, the identity. The mask comes from `key` when given
    (loom.random's keyed draws: the same key, the same mask), else from loom's global
    generator, which loom.jit refuses (a replay would repeat the mask): pass a key there, or
    run the model inside `nn.random_keys(seed)` (loom.Trainer does, with a new seed each step),
    where each Dropout call draws from the scope's seed hashed with its call number."""

    def __init__(self, p=0.5):
        super().__init__()
        if not 0 <= p <= 1:
            raise ValueError(f"[nn.Dropout] p must be in [0, 1], got {p}")
        self.p = float(p)

    def forward(self, x, key=None):
        if not self.training or self.p == 0:
            return x
        if self.p == 1:
            return _loom.zeros_like(x)
        u = scope_uniform(tuple(x.shape), x.device) if key is None else None
        if u is not None:
            keep = u >= self.p
        elif key is not None:
            keep = _loom.random.bernoulli(key, 1 - self.p, tuple(x.shape), device=x.device)
        else:
            keep = _loom.random.uniform(0.0, 1.0, size=tuple(x.shape), device=x.device) >= self.p
        return _loom.where(keep, x * (1 / (1 - self.p)), 0)

    def extra_repr(self):
        return f"p={self.p}"
