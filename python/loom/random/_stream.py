"""Philox streams: a (key, offset) pair, the state every loom generator holds.

The extension's global generator is one such stream (loom._loom.random.get_state()); its
draws (rand, randn, randint) take blocks at the offset and advance it. Every other stream
(a RandomState(seed), a Philox bit generator) draws with the same functions by making its
state the global one for the duration of a call, under one lock: so RandomState(s) gives
exactly the numbers seed(s) gives to the module functions, and all streams share one
implementation of each draw. Calls of the extension's global functions made directly (not
through loom.random) do not take the lock; loom.random's own calls are serialised by it.
"""
import contextlib
import hashlib
import operator
import os
import threading

import numpy as np

from .. import _loom

_C = _loom.random
# One lock for every stream: each swaps the single global state of the extension.
_LOCK = threading.RLock()
_UINT64 = 1 << 64


class GlobalStream:
    """The extension's own global generator (what loom.random.seed() resets)."""

    def get(self):
        return _C.get_state()

    def set(self, state):
        _C.set_state(_check_state(state))

    @contextlib.contextmanager
    def active(self):
        with _LOCK:
            yield


class Stream:
    """A stream of its own: draws run with its (key, offset) as the global state."""

    def __init__(self, key, offset=0):
        self._state = _check_state((key, offset))

    def get(self):
        return self._state

    def set(self, state):
        self._state = _check_state(state)

    @contextlib.contextmanager
    def active(self):
        with _LOCK:
            saved = _C.get_state()
            _C.set_state(self._state)
            try:
                yield
            finally:
                self._state = _C.get_state()
                _C.set_state(saved)


def _check_state(state):
    try:
        key, offset = state
    except (TypeError, ValueError):
        raise TypeError(f"[set_state] a state is a (loom.random.Key, offset) pair, not {state!r}") from None
    if not isinstance(key, _C.Key):
        raise TypeError(f"[set_state] the state's key must be a loom.random.Key, not {type(key).__name__}")
    offset = operator.index(offset)
    if not 0 <= offset < _UINT64:
        raise ValueError(f"[set_state] the offset must be in [0, 2**64), got {offset}")
    return key, offset


def os_entropy():
    """64 bits from the OS (seed=None)."""
    return int.from_bytes(os.urandom(8), "little")


def legacy_seed(seed, fn="seed"):
    """A RandomState seed as a 64-bit integer: None (OS entropy), an integer in
    [0, 2**64), or an array of such integers (hashed), as CuPy's RandomState.seed takes."""
    if seed is None:
        return os_entropy()
    if isinstance(seed, _loom.ndarray):
        seed = seed.numpy()
    arr = np.asarray(seed)
    if arr.dtype.kind not in "biu":
        raise TypeError(f"[{fn}] the seed must be an integer or an array of integers, not {arr.dtype}")
    if arr.ndim == 0:
        value = int(arr)
        if not 0 <= value < _UINT64:
            raise ValueError(f"[{fn}] the seed must be in [0, 2**64), got {value}")
        return value
    if arr.size and (int(arr.min()) < 0 or int(arr.max()) >= _UINT64):
        raise ValueError(f"[{fn}] seed array entries must be in [0, 2**64)")
    # An array seeds through a hash of its values (CuPy hashes arrays too).
    digest = hashlib.sha256(arr.astype(np.uint64).tobytes()).digest()
    return int.from_bytes(digest[:8], "little")


def seed_sequence(seed, fn):
    """A numpy.random.SeedSequence from None, an int, an array of ints or a SeedSequence
    (what NumPy's and CuPy's bit generators take); floats raise TypeError as NumPy's do."""
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if isinstance(seed, _loom.ndarray):
        seed = seed.numpy()
    if seed is not None:
        arr = np.asarray(seed)
        if arr.dtype.kind not in "biu":
            raise TypeError(f"[{fn}] the seed must be None, an int, an array of ints or a SeedSequence, "
                            f"not {arr.dtype}")
        seed = int(arr) if arr.ndim == 0 else [int(v) for v in arr.ravel()]
    try:
        return np.random.SeedSequence(seed)
    except (TypeError, ValueError) as e:
        raise type(e)(f"[{fn}] {e}") from None


def key_of_sequence(seq):
    """The 64-bit Philox key a SeedSequence gives (its first two 32-bit words)."""
    hi, lo = (int(w) for w in seq.generate_state(2, np.uint32))
    return _C.Key(hi, lo)
