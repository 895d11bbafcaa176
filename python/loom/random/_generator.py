"""NumPy's Generator API: default_rng, Generator, and the bit generators loom has.

loom has one bit generator, Philox4x32-10 (counter-based: a 64-bit key and a 64-bit block
counter), under NumPy's name Philox and CuPy's name Philox4x3210. CuPy's XORWOW and
MRG32k3a (cuRAND's stateful generators) are not provided: their numbers could not match
CuPy's anyway, and Philox gives the same numbers on every device. default_rng gives a
Philox generator (CuPy's default is XORWOW, NumPy's PCG64).
"""
import numpy as np

from .. import _loom
from . import _sampling as smp
from ._args import size_shape, to_dtype
from ._legacy import _permutation
from ._methods_continuous import ContinuousMethods
from ._methods_discrete import DiscreteMethods
from ._stream import _LOCK, Stream, key_of_sequence, seed_sequence

_C = _loom.random


class BitGenerator:
    """Base class of the bit generators Generator takes (NumPy's and CuPy's name). seed: None
    (OS entropy), an int, an array of ints or a numpy.random.SeedSequence, turned into the
    state through SeedSequence as NumPy's are."""

    def __init__(self, seed=None):
        self.lock = _LOCK  # every loom stream draws under this one lock
        self._seed_seq = seed_sequence(seed, type(self).__name__)
        self._stream = self._make_stream(self._seed_seq)

    def _make_stream(self, seq):
        raise NotImplementedError("[BitGenerator] is a base class: use loom.random.Philox(seed)")

    @property
    def seed_seq(self):
        """The SeedSequence the state came from (spawn() derives children from it)."""
        return self._seed_seq

    def random_raw(self, size=None, output=True):
        """Raw 64-bit words (uint64) of the stream; size=None gives a 0-d array."""
        with self._stream.active():
            words = _C.randint(0, 1 << 64, size=size, dtype=_loom.uint64)
        return words if output else None

    def spawn(self, n_children):
        """n_children independent bit generators of this type, from the SeedSequence's children."""
        return [type(self)(child) for child in self._seed_seq.spawn(n_children)]

    @property
    def state(self):
        """{'bit_generator': name, 'state': {'key': Key, 'counter': int}} (counter in 128-bit blocks)."""
        key, offset = self._stream.get()
        return {"bit_generator": type(self).__name__, "state": {"key": key, "counter": offset}}

    @state.setter
    def state(self, value):
        try:
            inner = value["state"]
            self._stream.set((inner["key"], inner["counter"]))
        except (TypeError, KeyError):
            raise TypeError("[state] expected a dict as the state property returns: "
                            "{'bit_generator': ..., 'state': {'key': Key, 'counter': int}}") from None

    def __repr__(self):
        return f"{type(self).__name__}()"


class Philox(BitGenerator):
    """Philox4x32-10, counter-based (Salmon et al., 2011): the numbers of key k at block
    counter c are the same on the CPU and on every GPU. Philox(seed) keys it through a
    SeedSequence; Philox(key=k) uses a loom.random.Key (or a 64-bit int) directly, so that
    its first draws equal the keyed draws of k; counter= starts at that block."""

    def __init__(self, seed=None, counter=None, key=None):
        if key is not None and seed is not None:
            raise ValueError("[Philox] seed and key cannot be both used")
        self._key_arg = key if key is None or isinstance(key, _C.Key) else _C.key(int(key))
        self._counter_arg = 0 if counter is None else int(counter)
        super().__init__(seed)

    def _make_stream(self, seq):
        return Stream(self._key_arg if self._key_arg is not None else key_of_sequence(seq), self._counter_arg)

    def advance(self, delta):
        """Moves the counter delta blocks ahead (modulo 2**64); returns self."""
        key, offset = self._stream.get()
        self._stream.set((key, (offset + int(delta)) % (1 << 64)))
        return self


Philox4x3210 = Philox  # CuPy's name


def _check_out(fn, out, dtype, size):
    """NumPy's rules for out=: the dtype's type (TypeError), contiguous (ValueError), and
    the shape of size when both are given (ValueError)."""
    if not isinstance(out, _loom.ndarray):
        raise TypeError(f"[{fn}] out must be a loom array, not {type(out).__name__}")
    if out.dtype != dtype:
        raise TypeError(f"[{fn}] Supplied output array has the wrong type. Expected {dtype.name}, got {out.dtype.name}")
    if not out.flags.c_contiguous:
        raise ValueError(f"[{fn}] Supplied output array is not contiguous, writable or aligned.")
    if size is not None and size_shape(size, fn) != tuple(out.shape):
        raise ValueError(f"[{fn}] size must match out.shape when used together")
    return tuple(out.shape)


def _into(out, x):
    if out is None:
        return x
    out[...] = x
    return out


def _draw_device(device, out):
    """Where a draw with out= runs when device= is not given: on out's device."""
    return out.device if device is None and out is not None else device


class Generator(ContinuousMethods, DiscreteMethods):
    """NumPy's Generator on a loom bit generator (Philox). Every method takes device=
    (default: the device of an array parameter, else loom's default device); size=None
    gives a 0-d array where NumPy gives a Python scalar."""

    def __init__(self, bit_generator):
        if not isinstance(bit_generator, BitGenerator):
            raise TypeError(f"[Generator] bit_generator must be a loom.random.BitGenerator such as "
                            f"loom.random.Philox(seed), not {type(bit_generator).__name__}")
        self.bit_generator = bit_generator

    @property
    def _stream(self):
        return self.bit_generator._stream

    def __repr__(self):
        return f"Generator({type(self.bit_generator).__name__})"

    def spawn(self, n_children):
        """n_children independent Generators (from the bit generator's SeedSequence)."""
        return [Generator(bg) for bg in self.bit_generator.spawn(n_children)]

    # ---- NumPy's dtype= and out= -----------------------------------------------------------
    def _float_out(self, fn, draw, size, dtype, out):
        dt = _loom.float64 if dtype is None else to_dtype(dtype, fn)
        if not dt.name.startswith(("float", "bfloat")):
            raise TypeError(f"[{fn}] Unsupported dtype {dt.name} for {fn}")
        if out is not None:
            size = _check_out(fn, out, dt, size)
        return _into(out, draw(size, dt))

    def random(self, size=None, dtype=None, out=None, device=None):
        """Uniform samples in [0, 1)."""
        device = _draw_device(device, out)
        return self._float_out("random", lambda s, dt: self.random_sample(s, dt, device), size, dtype, out)

    def standard_normal(self, size=None, dtype=None, out=None, device=None):
        """Standard normal samples."""
        device = _draw_device(device, out)
        draw = lambda s, dt: ContinuousMethods.standard_normal(self, s, dt, device)  # noqa: E731
        return self._float_out("standard_normal", draw, size, dtype, out)

    def standard_exponential(self, size=None, dtype=None, method="zig", out=None, device=None):
        """Exponential samples of mean 1 (method 'zig' or 'inv': both by inversion here)."""
        if method not in ("zig", "inv"):
            raise ValueError("[standard_exponential] method must be either 'inv' or 'zig'")
        device = _draw_device(device, out)
        draw = lambda s, dt: ContinuousMethods.standard_exponential(self, s, dt, device)  # noqa: E731
        return self._float_out("standard_exponential", draw, size, dtype, out)

    def standard_gamma(self, shape, size=None, dtype=None, out=None, device=None):
        """Gamma(shape, 1) samples (shape >= 0)."""
        device = _draw_device(device, out)
        draw = lambda s, dt: ContinuousMethods.standard_gamma(self, shape, s, dt, device)  # noqa: E731
        return self._float_out("standard_gamma", draw, size, dtype, out)

    # ---- integers and sampling ---------------------------------------------------------------
    def integers(self, low, high=None, size=None, dtype=None, endpoint=False, device=None):
        """Integers in [low, high), or [low, high] with endpoint ([0, low) without high);
        int64 by default; low and high may be arrays (broadcast)."""
        with self._stream.active():
            return smp.integers("integers", low, high, size, dtype, device, endpoint)

    def bytes(self, length):
        """length random bytes (a Python bytes object, so drawn on the CPU)."""
        with self._stream.active():
            words = _C.randint(0, 256, size=int(length), dtype=_loom.uint8, device=_loom.cpu())
        return words.numpy().tobytes()

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True, device=None):
        """Samples from range(a) or along axis of a, with or without replacement, uniformly or
        with probabilities p. shuffle is accepted (the order is random either way)."""
        dev = device if device is not None else _loom.default_device()
        shape = size_shape(size, "choice") or ()
        with self._stream.active():
            return smp.choice("choice", a, shape, replace, p, axis, dev, legacy=False)

    def permutation(self, x, axis=0, device=None):
        """A permutation of range(x) (x an int) or a copy of x shuffled along axis."""
        return _permutation(self._stream, "permutation", x, axis, device)

    def permuted(self, x, axis=None, out=None):
        """A copy of x with each slice along axis shuffled independently (axis=None: all
        elements); written into out when given."""
        arr = x if isinstance(x, _loom.ndarray) else _loom.asarray(np.asarray(x))
        with self._stream.active():
            y = smp.permuted(arr, axis)
        if out is not None:
            if tuple(out.shape) != tuple(arr.shape):
                raise ValueError("[permuted] out must have the same shape as x")
        return _into(out, y)

    def shuffle(self, x, axis=0):
        """Shuffles x in place along axis."""
        with self._stream.active():
            smp.shuffle_in_place("shuffle", x, axis)

    def multivariate_hypergeometric(self, colors, nsample, size=None, method="marginals", device=None):
        """Counts of each color among nsample items drawn without replacement from colors[i]
        items of color i: size + (len(colors),)."""
        return self._multivariate_hypergeometric(colors, nsample, size, method, None, device)


def default_rng(seed=None):
    """A Generator on loom's Philox: seed None, an int, an array of ints or a SeedSequence
    (through SeedSequence, as NumPy's), a BitGenerator (wrapped) or a Generator (returned)."""
    if isinstance(seed, Generator):
        return seed
    if isinstance(seed, BitGenerator):
        return Generator(seed)
    if isinstance(seed, (np.random.Generator, np.random.BitGenerator)):
        raise TypeError("[default_rng] takes loom's generators; a NumPy Generator's numbers come from the host")
    return Generator(Philox(seed))
