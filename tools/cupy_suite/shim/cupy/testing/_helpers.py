"""CuPy's test helpers: arrays of known contents (shaped_arange, shaped_random, ...), package
requirements (with_requires, installed), marks (slow, multi_gpu), warnings and mocks."""
import contextlib
import importlib.metadata
import inspect
import math
import unittest
import warnings
from unittest import mock

import numpy
import pytest

import loom


def _filled(values, dtype):
    """values (1, 2, ... as NumPy ints) in dtype: even ones True for bool, v + vj for complex."""
    dtype = numpy.dtype(dtype)
    if dtype == numpy.bool_:
        values = values % 2 == 0
    elif dtype.kind == "c":
        values = values + values * 1j
    return values.astype(dtype)


def shaped_arange(shape, xp=None, dtype=numpy.float32, order="C"):
    """1, 2, ..., N in shape."""
    xp = xp or loom
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    a = _filled(numpy.arange(1, math.prod(shape) + 1), dtype).reshape(shape)
    return _module_array(xp, a, order)


def shaped_reverse_arange(shape, xp=None, dtype=numpy.float32):
    """N, ..., 2, 1 in shape."""
    xp = xp or loom
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    return _module_array(xp, _filled(numpy.arange(math.prod(shape), 0, -1), dtype).reshape(shape), "C")


def shaped_random(shape, xp=None, dtype=numpy.float32, scale=10, seed=0, order="C"):
    """Uniform values in [0, scale) drawn by NumPy's RandomState(seed) (bools: 0 or 1)."""
    xp = xp or loom
    rng = numpy.random.RandomState(seed)
    dtype = numpy.dtype(dtype)
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    if dtype == numpy.bool_:
        a = rng.randint(2, size=shape)
    elif dtype.kind == "c":
        a = (rng.rand(*shape) + 1j * rng.rand(*shape)) * scale
    else:
        a = rng.rand(*shape) * scale
    return _module_array(xp, numpy.asarray(a).astype(dtype), order)


def shaped_sparse_random(shape, sp=None, dtype=numpy.float32, density=0.01, format="coo", seed=0):
    """A random sparse matrix of SciPy's sparse.random drawn after numpy.random.seed(seed), in the
    module sp (scipy.sparse, or the shim's cupyx.scipy.sparse: loom.scipy.sparse) and format."""
    import scipy.sparse
    numpy.random.seed(seed)
    a = scipy.sparse.random(shape[0], shape[1], density).astype(dtype)
    if sp is None or sp is scipy.sparse:
        return a.asformat(format)
    return sp.coo_matrix(a).asformat(format)


def shaped_linspace(start, stop, shape, xp=None, dtype=numpy.float32):
    xp = xp or loom
    dtype = numpy.dtype(dtype)
    shape = (shape,) if isinstance(shape, int) else tuple(shape)  # CuPy's takes an int too
    if dtype == numpy.bool_:
        start, stop = max(start, 0), min(stop, 1)
    elif dtype.kind == "u":
        start = max(start, 0)
    a = numpy.linspace(start, stop, math.prod(shape)).astype(dtype).reshape(shape)
    return _module_array(xp, a, "C")


def _module_array(xp, a, order):
    """a (a NumPy array) in xp's kind, in order (C or F) — loom arrays are built from a copy of
    a in that layout, so that order never needs the module's own keyword."""
    # numpy.array rather than ascontiguousarray/asfortranarray, which make a 0-d array 1-d.
    if order in ("F", "f"):
        a = numpy.array(a, order="F")
    elif order in ("C", "c", None):
        a = numpy.array(a, order="C")
    return a.copy() if xp is numpy else xp.asarray(a)


def installed(*specifiers):
    """True when every requirement (`numpy>=1.20`) is met by what is installed."""
    from packaging.requirements import Requirement
    for spec in specifiers:
        req = Requirement(spec)
        try:
            found = importlib.metadata.version(req.name)
        except importlib.metadata.PackageNotFoundError:
            dists = importlib.metadata.packages_distributions().get(req.name)
            if not dists:
                return False
            found = importlib.metadata.version(dists[0])
        if req.specifier and not req.specifier.contains(found, prereleases=True):
            return False
    return True


def with_requires(*requirements):
    return pytest.mark.skipif(not installed(*requirements), reason=f"requires: {','.join(requirements)}")


def numpy_satisfies(version_range):
    return installed(f"numpy{version_range}")


def slow(*args, **kwargs):
    return pytest.mark.slow(*args, **kwargs)


def multi_gpu(gpu_num):
    """Skips the test where loom sees fewer than gpu_num GPUs (a feature only GPUs have)."""
    def decorate(f):
        return pytest.mark.skipif(loom.num_gpus() < gpu_num, reason=f"{gpu_num} GPUs required")(pytest.mark.multi_gpu(f))
    return decorate


@contextlib.contextmanager
def assert_warns(expected):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    if not any(isinstance(w.message, expected) for w in caught):
        raise AssertionError(f"{getattr(expected, '__name__', expected)} not triggered")


@contextlib.contextmanager
def AssertFunctionIsCalled(*args, times_called=1, **kwargs):
    """mock.patch(*args, **kwargs) around the block; the patched function must be called
    times_called times."""
    with mock.patch(*args, **kwargs) as handle:
        yield
        assert handle.call_count == times_called, f"called {handle.call_count} times, not {times_called}"


assert_function_is_called = AssertFunctionIsCalled


class NumpyAliasTestBase(unittest.TestCase):
    @property
    def func(self):
        raise NotImplementedError

    @property
    def cupy_func(self):
        return getattr(loom, self.func)

    @property
    def numpy_func(self):
        return getattr(numpy, self.func)


class NumpyAliasBasicTestBase(NumpyAliasTestBase):
    def test_argspec(self):
        assert inspect.signature(self.cupy_func) == inspect.signature(self.numpy_func)

    def test_docstring(self):
        doc = getattr(self.cupy_func, "__doc__", None)
        assert doc and doc is not self.numpy_func.__doc__


class NumpyAliasValuesTestBase(NumpyAliasTestBase):
    def test_values(self):
        assert self.cupy_func(*self.args) == self.numpy_func(*self.args)
