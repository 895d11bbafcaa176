"""
Random numbers from Philox4x32-10, counter-based: the same key gives the same numbers on
the CPU and on every GPU. NumPy-style functions draw from a global generator (seed());
JAX-style functions take a Key first (key(), split(), fold_in()). NumPy-style functions
return a 0-d array where NumPy returns a Python scalar (size=None).
"""

from typing import overload

import loom._loom


class Key:
    """
    A key of the keyed API: a 64-bit Philox key (two uint32 words, as JAX's).
    """

    @overload
    def __init__(self) -> None: ...

    @overload
    def __init__(self, hi: int, lo: int) -> None:
        """Key(hi, lo) from its two words."""

    @property
    def hi(self) -> int:
        """The first word (JAX's key_data(k)[0])."""

    @property
    def lo(self) -> int:
        """The second word."""

    def __repr__(self) -> str: ...

    def __eq__(self, arg: object, /) -> bool: ...

    def __hash__(self) -> int: ...

def key(seed: object) -> Key:
    """
    key(seed) -> Key: the key of an integer seed (negative seeds wrap to 64 bits, as JAX's).
    """

def PRNGKey(seed: object) -> Key:
    """JAX's name for key()."""

def split(key: Key, num: object = 2) -> list[Key]:
    """
    split(key, num=2) -> list of num new keys, derived from key through Philox in a stream
    that no draw uses; key i does not depend on num.
    """

def fold_in(key: Key, data: object) -> Key:
    """fold_in(key, data) -> Key: a new key from key and an integer."""

def key_data(key: Key) -> object:
    """The key's two words as a NumPy uint32 array of shape (2,)."""

def wrap_key_data(data: object) -> Key:
    """The Key of two uint32 words (inverse of key_data)."""

def seed(seed: object | None = None) -> None:
    """
    seed(seed=None): restarts the global generator at key(seed), counter 0 (None: fresh OS entropy).
    Right after seed(s), a draw equals the keyed draw with key(s) of the same dtype.
    """

def get_state() -> tuple[Key, int]:
    """
    get_state() -> (Key, offset): the global generator's key and counter (128-bit blocks used).
    """

def set_state(state: tuple[Key, int]) -> None:
    """set_state((key, offset)): restores a state from get_state()."""

def rand(*shape, dtype: object | None = None, device: object | None = None) -> loom._loom.ndarray:
    """
    rand(d0, d1, ..., dtype=float64, device=None): uniform samples in [0, 1) (never 1.0).
    """

def randn(*shape, dtype: object | None = None, device: object | None = None) -> loom._loom.ndarray:
    """
    randn(d0, d1, ..., dtype=float64, device=None): standard normal samples (Box-Muller).
    """

def random(size: object | None = None, dtype: object | None = None, device: object | None = None) -> loom._loom.ndarray:
    """
    random(size=None, dtype=float64, device=None): uniform samples in [0, 1).
    """

def random_sample(size: object | None = None, dtype: object | None = None, device: object | None = None) -> loom._loom.ndarray:
    """
    random(size=None, dtype=float64, device=None): uniform samples in [0, 1).
    """

def standard_normal(size: object | None = None, dtype: object | None = None, device: object | None = None) -> loom._loom.ndarray:
    """
    standard_normal(size=None, dtype=float64, device=None): standard normal samples.
    """

@overload
def uniform(key: Key, shape: object = (), dtype: object | None = None, minval: object = 0.0, maxval: object = 1.0, device: object | None = None) -> loom._loom.ndarray:
    """
    uniform(key, shape=(), dtype=float32, minval=0.0, maxval=1.0, device=None): keyed (JAX) form.
    """

@overload
def uniform(low: object = 0.0, high: object = 1.0, size: object | None = None, dtype: object | None = None, device: object | None = None) -> loom._loom.ndarray:
    """
    uniform(low=0.0, high=1.0, size=None, dtype=float64, device=None): NumPy form, samples in
    [low, high) (rounding may give high when the range is not [0, 1), as NumPy documents).
    """

@overload
def normal(key: Key, shape: object = (), dtype: object | None = None, device: object | None = None) -> loom._loom.ndarray:
    """
    normal(key, shape=(), dtype=float32, device=None): keyed (JAX) form, standard normal.
    """

@overload
def normal(loc: object = 0.0, scale: object = 1.0, size: object | None = None, dtype: object | None = None, device: object | None = None) -> loom._loom.ndarray:
    """
    normal(loc=0.0, scale=1.0, size=None, dtype=float64, device=None): NumPy form (scale >= 0).
    """

@overload
def randint(key: Key, shape: object, minval: object, maxval: object, dtype: object | None = None, device: object | None = None) -> loom._loom.ndarray:
    """
    randint(key, shape, minval, maxval, dtype=int32, device=None): keyed (JAX) form, integers in
    [minval, maxval); ValueError when minval >= maxval or a bound is outside the dtype.
    """

@overload
def randint(low: object, high: object | None = None, size: object | None = None, dtype: object | None = None, device: object | None = None) -> loom._loom.ndarray:
    """
    randint(low, high=None, size=None, dtype=int64, device=None): NumPy form, integers in
    [low, high) or [0, low); the full int64/uint64 range works (high up to the dtype's max + 1).
    Each value's probability is within 2^-32 (relative) of uniform.
    """

def bernoulli(key: Key, p: object = 0.5, shape: object = (), device: object | None = None) -> loom._loom.ndarray:
    """
    bernoulli(key, p=0.5, shape=(), device=None): bool samples, True with probability p.
    """

@overload
def permutation(key: Key, x: object, device: object | None = None) -> object:
    """
    permutation(key, x, device=None): keyed form; x an int (a permutation of arange(x)) or an
    array (a copy shuffled along axis 0).
    """

@overload
def permutation(x: object, device: object | None = None) -> object:
    """
    permutation(x, device=None): NumPy form: x an int (a permutation of arange(x), int64) or an
    array (a shuffled copy along axis 0). Fisher-Yates on the host; GPU arrays are copied
    through host memory.
    """

def shuffle(x: loom._loom.ndarray) -> None:
    """shuffle(x): shuffles x in place along axis 0 (NumPy's shuffle)."""
