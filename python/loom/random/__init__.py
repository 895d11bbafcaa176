"""loom.random: random numbers from Philox4x32-10, counter-based, so that one key gives the
same numbers on the CPU and on every GPU.

Three APIs over one generator:

- NumPy's legacy functions (rand, normal, gamma, choice, ...) and RandomState, as CuPy's
  cupy.random has them: the module functions draw from a global RandomState
  (get_random_state / set_random_state; seed() restarts it);
- NumPy's Generator API: default_rng(seed), Generator, BitGenerator, Philox (CuPy's name
  Philox4x3210);
- JAX-style keys: key(s), split, fold_in, and keyed draws uniform(key, shape),
  normal(key, shape), randint(key, shape, lo, hi), bernoulli, permutation(key, x). A
  function called with a Key first takes the keyed form; anything else is NumPy's.

Where loom and NumPy differ: size=None gives a 0-d array (CuPy's choice) rather than a
Python scalar; every function takes device=; most take dtype= (CuPy's); the numbers are not
NumPy's (nor CuPy's), but seeded draws repeat on every device. The samplers are loom array
ops on the draws (docs/site/api/random.rst lists their methods).
"""
import functools
import inspect

from numpy.random import SeedSequence

from .. import _loom
from ._generator import BitGenerator, Generator, Philox, Philox4x3210, default_rng
from ._legacy import RandomState, get_random_state, reset_states, set_random_state

_C = _loom.random
# Functions and classes name the module users import them from, not the file.
_PUBLIC = "loom.random"

# The keyed (JAX) API and the raw generator, from the extension.
Key = _C.Key
key = _C.key
PRNGKey = _C.PRNGKey
split = _C.split
fold_in = _C.fold_in
key_data = _C.key_data
wrap_key_data = _C.wrap_key_data
bernoulli = _C.bernoulli
_philox4x32_10 = _C._philox4x32_10

# NumPy's legacy module functions: each forwards to the global RandomState at call time.
_LEGACY = (
    "beta", "binomial", "bytes", "chisquare", "choice", "dirichlet", "exponential", "f", "gamma", "geometric",
    "gumbel", "hypergeometric", "laplace", "logistic", "lognormal", "logseries", "multinomial",
    "multivariate_normal", "negative_binomial", "noncentral_chisquare", "noncentral_f", "pareto", "poisson",
    "power", "rand", "randn", "random", "random_integers", "random_sample", "ranf", "rayleigh", "sample", "seed",
    "shuffle", "standard_cauchy", "standard_exponential", "standard_gamma", "standard_normal", "standard_t",
    "triangular", "vonmises", "wald", "weibull", "zipf", "get_state", "set_state",
)


def _forward(name):
    method = getattr(RandomState, name)

    @functools.wraps(method)
    def f(*args, **kwargs):
        return getattr(get_random_state(), name)(*args, **kwargs)
    sig = inspect.signature(method)
    f.__signature__ = sig.replace(parameters=list(sig.parameters.values())[1:])
    del f.__wrapped__
    f.__qualname__ = f.__name__ = name
    f.__module__ = _PUBLIC
    return f


globals().update({_n: _forward(_n) for _n in _LEGACY})


def _keyed(name, method):
    """A function with the extension's keyed form (a Key first, or key=) and NumPy's."""
    keyed = getattr(_C, name)

    def f(*args, **kwargs):
        if (args and isinstance(args[0], Key)) or "key" in kwargs:
            return keyed(*args, **kwargs)
        return getattr(get_random_state(), method)(*args, **kwargs)
    f.__name__ = f.__qualname__ = name
    f.__module__ = _PUBLIC
    numpy_doc = getattr(RandomState, method).__doc__ or ""
    f.__doc__ = (f"{name}(key, ...): the keyed (JAX) form, as loom.random.Key first.\n"
                 f"{name}(...): NumPy's form, from the global RandomState:\n\n{numpy_doc}")
    return f


uniform = _keyed("uniform", "uniform")
normal = _keyed("normal", "normal")
randint = _keyed("randint", "randint")
permutation = _keyed("permutation", "permutation")

for _cls in (BitGenerator, Generator, Philox, RandomState):
    _cls.__module__ = _PUBLIC


def __getattr__(name):
    if name in ("XORWOW", "MRG32k3a"):
        raise AttributeError(f"module 'loom.random' has no attribute {name!r}: loom's bit generator is Philox4x32-10 "
                             "(loom.random.Philox, CuPy's Philox4x3210), which default_rng uses; cuRAND's "
                             "stateful generators are not provided")
    raise AttributeError(f"module 'loom.random' has no attribute {name!r}")


__all__ = sorted(
    [n for n in _LEGACY] + ["BitGenerator", "Generator", "Key", "PRNGKey", "Philox", "Philox4x3210", "RandomState",
                            "SeedSequence", "bernoulli", "default_rng", "fold_in", "get_random_state", "key",
                            "key_data", "normal", "permutation", "randint", "reset_states", "set_random_state",
                            "split", "uniform", "wrap_key_data"])
