"""testing.fix_random, generate_seed: Python's, NumPy's and loom's global generators seeded
(99, 100, 101) around a test and restored after it."""
import functools
import random
import unittest

import numpy

import loom

_depth = [0]
_saved = []


def _setup():
    if _depth[0] == 0:
        state = loom.random.get_state() if hasattr(loom.random, "get_state") else None
        _saved.append((random.getstate(), numpy.random.get_state(), state))
        random.seed(99)
        numpy.random.seed(100)
        loom.random.seed(101)
    _depth[0] += 1


def _teardown():
    _depth[0] -= 1
    if _depth[0] == 0:
        py, np_state, loom_state = _saved.pop()
        random.setstate(py)
        numpy.random.set_state(np_state)
        if loom_state is not None:
            loom.random.set_state(loom_state)


def generate_seed():
    if _depth[0] == 0:
        raise AssertionError("testing.generate_seed: random is not set up (use testing.fix_random)")
    return numpy.random.randint(0x7FFFFFFF)


def fix_random():
    def decorate(impl):
        if isinstance(impl, type) and issubclass(impl, unittest.TestCase):
            setup, teardown = impl.setUp, impl.tearDown

            def setUp(self):
                _setup()
                setup(self)

            def tearDown(self):
                try:
                    teardown(self)
                finally:
                    _teardown()
            impl.setUp, impl.tearDown = setUp, tearDown
            return impl
        if callable(impl) and impl.__name__.startswith("test_"):
            @functools.wraps(impl)
            def test(*args, **kw):
                _setup()
                try:
                    return impl(*args, **kw)
                finally:
                    _teardown()
            return test
        raise ValueError(f"testing.fix_random cannot be applied to {impl!r}")
    return decorate
