"""Every bound function has a signature inspect.signature reads (python/loom/_numpy/signatures.py):
help(), IDEs and the Array API suite's signature checks see the real parameters."""
import inspect

import numpy as np
import pytest

import loom


def public_functions():
    for mod in (loom, loom.linalg, loom.fft, loom.random):
        for name in dir(mod):
            f = getattr(mod, name)
            if not name.startswith("_") and inspect.isbuiltin(f):
                yield "loom" if mod is loom else "loom." + mod.__name__.rsplit(".", 1)[-1], name, f


def test_every_bound_function_is_inspectable():
    seen = 0
    for mod, name, f in public_functions():
        sig = inspect.signature(f)  # raises ValueError for a function it cannot read
        # A function in two namespaces (loom.matmul, loom.linalg.matmul) names the first.
        assert f.__name__ == name and (f.__module__ == mod or getattr(loom, name, None) is f), (mod, name)
        assert "self" not in sig.parameters, name
        seen += 1
    assert seen > 300


def test_signature_names_defaults_and_kinds():
    s = inspect.signature(loom.sum)
    assert list(s.parameters) == ["a", "axis", "dtype", "out", "keepdims"]
    assert [p.default for p in s.parameters.values()][1:] == [None, None, None, False]
    s = inspect.signature(loom.reshape)
    assert s.parameters["copy"].kind is inspect.Parameter.KEYWORD_ONLY
    assert inspect.signature(loom.linalg.solve).parameters.keys() == {"a", "b"}
    assert repr(loom.sum) == "<built-in function sum>" and loom.sum.__doc__.startswith("sum(")


def test_calls_go_through_unchanged(rng):
    x = rng.standard_normal((3, 4)).astype("float32")
    a = loom.asarray(x)
    # atol: a float32 sum that cancels near 0 is summed in another order on a GPU.
    np.testing.assert_allclose(loom.sum(a, axis=1, keepdims=True).numpy(), x.sum(axis=1, keepdims=True), rtol=1e-6,
                               atol=1e-6)
    np.testing.assert_allclose(loom.sum(a, 0).numpy(), x.sum(0), rtol=1e-6, atol=1e-6)
    with pytest.raises(TypeError, match="sum"):
        loom.sum(a, no_such_argument=1)
    with pytest.raises(ValueError):
        loom.reshape(a, (5, 5))
    # One function under two names (loom.matmul, loom.linalg.matmul) stays one object.
    assert loom.linalg.matmul is loom.matmul


def test_array_methods_with_keywords_are_inspectable():
    x = loom.arange(3.0, device=loom.cpu())  # NumPy imports host memory only
    assert str(inspect.signature(x.to_device)) == "(device, /, *, stream=None)"
    assert list(inspect.signature(x.__dlpack__).parameters) == ["stream", "max_version", "dl_device", "copy"]
    assert x.to_device(loom.cpu()).device == loom.cpu()
    np.testing.assert_array_equal(np.from_dlpack(x), [0.0, 1.0, 2.0])
    with pytest.raises(TypeError):
        x.to_device(loom.cpu(), None)  # stream is keyword-only, as the standard has it


def test_functions_pickle_by_name():
    import pickle
    for f in (loom.sum, loom.linalg.solve, loom.fft.rfft):
        assert pickle.loads(pickle.dumps(f)) is f
