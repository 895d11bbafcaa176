"""testing.parameterize, product, product_dict: a test class run once per set of attributes.

A unittest.TestCase class becomes one subclass per set, named `Base_param_<i>_{k=v, ...}`, put
in the test's module in place of the original; any other class is parametrized by pytest
(ids `_param_<i>_{k=v, ...}`), the set's attributes set on the instance before each test."""
import itertools
import sys
import types
import unittest

import pytest


def _text(v, limit=100):
    s = v.__name__ if isinstance(getattr(v, "__name__", None), str) else " ".join(repr(v).split())
    return s if len(s) <= limit else s[:(limit - 3) // 2] + "..." + s[-(limit - 3 - (limit - 3) // 2):]


def _label(i, param):
    body = ", ".join(f"{k}={_text(v)}" for k, v in sorted(param.items()))
    if len(body) > 5000:
        body = body[:2498] + "..." + body[-2499:]
    return f"_param_{i}_{{{body}}}"


class _ParamFixture:
    @pytest.fixture(autouse=True)
    def _cupy_suite_param(self, _cupy_suite_params):
        self.__dict__.update(_cupy_suite_params)


def _as_member(v):
    return staticmethod(v) if isinstance(v, types.FunctionType) else v


def parameterize(*params, _ids=True):
    def decorate(cls):
        if issubclass(cls, unittest.TestCase):
            module = sys.modules[cls.__module__]
            for i, param in enumerate(params):
                name = cls.__name__ + _label(i, param)
                members = {k: _as_member(v) for k, v in param.items()}
                members["__repr__"] = lambda self, p=param: f"<{unittest.TestCase.__repr__(self)} parameter: {p}>"
                sub = type(name, (cls,), members)
                sub.__module__ = module.__name__
                setattr(module, name, sub)
            return None  # the original class is no test of its own
        if issubclass(cls, _ParamFixture):
            raise RuntimeError("testing.parameterize: a class is parameterized twice")
        sub = type(cls.__name__, (_ParamFixture, cls), {})
        sub.__module__ = cls.__module__
        ids = [_label(i, p) if _ids else str(i) for i, p in enumerate(params)]
        return pytest.mark.parametrize("_cupy_suite_params", list(params), ids=ids)(sub)
    return decorate


def product(parameter):
    """Every combination of the values of a dict of lists, as dicts (keys sorted)."""
    keys = sorted(parameter)
    return [dict(zip(keys, values)) for values in itertools.product(*(parameter[k] for k in keys))]


def product_dict(*parameters):
    """Every combination of one dict from each list, merged."""
    return [{k: v for d in combo for k, v in d.items()} for combo in itertools.product(*parameters)]
