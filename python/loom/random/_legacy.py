"""NumPy's legacy API as CuPy has it: RandomState, and the global RandomState behind the
module functions (get_random_state / set_random_state, CuPy's names).

One global RandomState serves every device (loom's Philox numbers do not depend on the
device, so CuPy's per-device states are not needed); by default it is the extension's own
global generator, so loom.random.seed(s) and the extension's draws share one stream, and
RandomState(s) gives the numbers seed(s) gives.
"""
import threading
import warnings

import numpy as np

from .. import _loom
from . import _sampling as smp
from ._args import size_shape
from ._methods_continuous import ContinuousMethods
from ._methods_discrete import DiscreteMethods
from ._stream import GlobalStream, Stream, legacy_seed

_C = _loom.random


class RandomState(ContinuousMethods, DiscreteMethods):
    """NumPy's (and CuPy's) RandomState on a Philox4x32-10 stream: RandomState(seed) with
    seed None (OS entropy), an int in [0, 2**64) or an array of ints. Every method takes
    device= (default: the device of an array parameter, else loom's default device);
    size=None gives a 0-d array where NumPy gives a Python scalar."""

    _nsample_min = 1
    _alpha_zero_ok = False

    def __init__(self, seed=None, method=None):
        if method is not None:
            raise ValueError("[RandomState] loom's RandomState is Philox4x32-10 only: method must be None")
        self._stream = Stream(_C.key(legacy_seed(seed, "RandomState")), 0)

    @classmethod
    def _on(cls, stream):
        rs = cls.__new__(cls)
        rs._stream = stream
        return rs

    def __repr__(self):
        key, offset = self._stream.get()
        return f"RandomState(Philox, key={key!r}, offset={offset})"

    # ---- state ------------------------------------------------------------------------------
    def seed(self, seed=None):
        """Restarts the stream at key(seed), offset 0 (None: OS entropy)."""
        self._stream.set((_C.key(legacy_seed(seed)), 0))

    def get_state(self):
        """(Key, offset): the stream's key and its counter in 128-bit blocks."""
        return self._stream.get()

    def set_state(self, state):
        """Restores a state from get_state()."""
        self._stream.set(state)

    # ---- uniform draws and integers -------------------------------------------------------
    def rand(self, *size, dtype=None, device=None):
        """rand(d0, d1, ...): uniform samples in [0, 1)."""
        with self._stream.active():
            return _C.rand(*size, dtype=dtype, device=device)

    def randn(self, *size, dtype=None, device=None):
        """randn(d0, d1, ...): standard normal samples."""
        with self._stream.active():
            return _C.randn(*size, dtype=dtype, device=device)

    random = ranf = sample = ContinuousMethods.random_sample

    def randint(self, low, high=None, size=None, dtype=None, device=None):
        """Integers in [low, high) ([0, low) without high), int64 by default; low and high
        may be arrays (broadcast)."""
        with self._stream.active():
            return smp.integers("randint", low, high, size, dtype, device, endpoint=False)

    def random_integers(self, low, high=None, size=None, device=None):
        """Integers in [low, high] ([1, low] without high); deprecated in NumPy, as here."""
        if high is None:
            warnings.warn("This function is deprecated. Please call randint(1, {low} + 1) instead".format(low=low),
                          DeprecationWarning, stacklevel=2)
            low, high = 1, low
        else:
            warnings.warn("This function is deprecated. Please call randint({low}, {high} + 1) instead".format(
                low=low, high=high), DeprecationWarning, stacklevel=2)
        with self._stream.active():
            return smp.integers("random_integers", low, high, size, None, device, endpoint=True)

    def tomaxint(self, size=None, device=None):
        """Integers in [0, 2**63 - 1] (int64)."""
        return self.randint(0, 1 << 63, size=size, dtype=_loom.int64, device=device)

    def bytes(self, length):
        """length random bytes (a Python bytes object, so drawn on the CPU)."""
        with self._stream.active():
            words = _C.randint(0, 256, size=int(length), dtype=_loom.uint8, device=_loom.cpu())
        return words.numpy().tobytes()

    # ---- sampling -------------------------------------------------------------------------------
    def choice(self, a, size=None, replace=True, p=None, device=None):
        """Samples from range(a) (a an int) or from the 1-D array a, with or without
        replacement, uniformly or with probabilities p."""
        dev = device if device is not None else _loom.default_device()
        shape = size_shape(size, "choice") or ()
        with self._stream.active():
            return smp.choice("choice", a, shape, replace, p, 0, dev, legacy=True)

    def permutation(self, x, device=None):
        """A permutation of range(x) (x an int, int64) or a copy of x shuffled along axis 0."""
        return _permutation(self._stream, "permutation", x, 0, device)

    def shuffle(self, x):
        """Shuffles x in place along axis 0."""
        with self._stream.active():
            smp.shuffle_in_place("shuffle", x, 0)


def _permutation(stream, fn, x, axis, device):
    """permutation(x): x an int gives a permutation of range(x); an array, a copy of it
    shuffled along axis (IndexError for anything else, as NumPy's)."""
    if not isinstance(x, _loom.ndarray) and np.ndim(x) == 0:
        if not isinstance(x, (int, np.integer)) or isinstance(x, bool):
            raise IndexError(f"[{fn}] x must be an integer or at least 1-dimensional")
        with stream.active():
            return smp.permutation_indices(max(int(x), 0), device if device is not None else _loom.default_device())
    arr = x if isinstance(x, _loom.ndarray) else _loom.asarray(np.asarray(x), device=device)
    if arr.ndim == 0:
        raise IndexError(f"[{fn}] x must be an integer or at least 1-dimensional")
    with stream.active():
        idx = smp.permutation_indices(arr.shape[axis], arr.device)
    return _loom.take(arr, idx, axis=axis)


# ---- the global RandomState -------------------------------------------------------------------
_DEFAULT = RandomState._on(GlobalStream())
_current = _DEFAULT
_current_lock = threading.Lock()


def get_random_state():
    """The RandomState the module functions draw from (CuPy's name)."""
    return _current


def set_random_state(rs):
    """Makes rs the RandomState of the module functions (CuPy's name)."""
    global _current
    if not isinstance(rs, RandomState):
        raise TypeError(f"[set_random_state] Random state must be an instance of RandomState. Actual: {type(rs)}")
    with _current_lock:
        _current = rs


def reset_states():
    """Back to the default global RandomState (the extension's generator), reseeded from the
    OS (CuPy's reset_states)."""
    global _current
    with _current_lock:
        _current = _DEFAULT
    _DEFAULT.seed()
