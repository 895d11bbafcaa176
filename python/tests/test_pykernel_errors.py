"""Every typing and construct error of Python kernels: a typed error (loom.TypingError, a
TypeError, or loom.UnsupportedError) naming the construct, the variable, and the Python
file and line. Also the emulator's debug mode reporting an out-of-bounds index with the
Python line."""
import os

import numpy as np
import pytest

import loom
from loom import cuda

HERE = os.path.basename(__file__)


def _line_of(func, text):
    import inspect
    lines, first = inspect.getsourcelines(func)
    for k, line in enumerate(lines):
        if text in line:
            return first + k
    raise AssertionError(text)


def _launch(kernel, *args):
    with loom.cpu():
        a = loom.zeros(4, dtype=loom.float32, device=loom.cpu())
        kernel[1, 1](a, *args)


def undefined_name(a):
    a[0] = not_defined_anywhere  # noqa: F821


def cannot_unify(a):
    v = 1.0
    v = a


def uses_list(a):
    x = [1, 2]
    a[0] = x[0]


def uses_dict(a):
    d = {"k": 1}


def uses_string(a):
    s = "text"


def raises(a):
    raise ValueError("no")


def tries(a):
    try:
        a[0] = 1
    except Exception:
        pass


def calls_builtin(a):
    a[0] = sorted(a)


def returns_value(a):
    return 1


def bad_local(a, n):
    buf = cuda.local.array(n, np.float32)


def too_many_indices(a):
    a[0, 1] = 2


def slices(a):
    a[0:2] = 1


def nested_def(a):
    def inner():
        pass


def lambda_use(a):
    f = lambda v: v  # noqa: E731


CASES = [
    (undefined_name, loom.TypingError, "not_defined_anywhere", "not_defined_anywhere", ()),
    (cannot_unify, loom.TypingError, "variable 'v' is float64 here but assigned a array", "v = a", ()),
    (uses_list, loom.UnsupportedError, "a list", "x = [1, 2]", ()),
    (uses_dict, loom.UnsupportedError, "a dict", "d = {", ()),
    (uses_string, loom.UnsupportedError, "a str constant", 's = "text"', ()),
    (raises, loom.UnsupportedError, "exceptions cannot be raised", "raise ValueError", ()),
    (tries, loom.UnsupportedError, "exceptions cannot be caught", "try:", ()),
    (calls_builtin, loom.UnsupportedError, "Untyped global name 'sorted': a call to builtin_function_or_method "
     "'sorted', neither a Python function nor a device function", "a[0] = sorted(a)", ()),
    (returns_value, loom.TypingError, "cannot return a value", "return 1", ()),
    (bad_local, loom.TypingError, "must be a constant integer", "cuda.local.array(n", (3,)),
    (too_many_indices, loom.UnsupportedError, "1-d array indexed with 2", "a[0, 1] = 2", ()),
    (slices, loom.UnsupportedError, "a slice cannot be assigned to", "a[0:2] = 1", ()),
    (nested_def, loom.UnsupportedError, "FunctionDef", "def inner", ()),
    (lambda_use, loom.UnsupportedError, "a lambda", "f = lambda", ()),
]


@pytest.mark.parametrize("func,cls,message,line_text,extra", CASES, ids=[c[0].__name__ for c in CASES])
def test_errors_name_the_construct_and_the_python_line(func, cls, message, line_text, extra):
    kernel = cuda.jit(func)
    with pytest.raises(cls) as info:
        _launch(kernel, *extra)
    text = str(info.value)
    assert message in text, text
    assert f'{HERE}", line {_line_of(func, line_text)}' in text, text
    assert f"[{func.__name__}]" in text
    assert isinstance(info.value, TypeError)


@cuda.jit(device=True)
def recurse(n):
    if n <= 0:
        return 0
    return recurse(n - 1) + 1


def calls_recursive(a):
    a[0] = recurse(3)


def test_recursion_is_unsupported():
    with pytest.raises(loom.UnsupportedError, match="recursion: 'recurse' calls itself") as info:
        _launch(cuda.jit(calls_recursive))
    assert "line" in str(info.value)


def test_device_function_called_from_host_and_kernel_without_config():
    with pytest.raises(TypeError, match="device function"):
        recurse(3)
    for error in (ValueError, TypeError):  # Numba's type, and loom's before
        with pytest.raises(error, match="launch configuration was not specified"):
            cuda.jit(undefined_name)(np.zeros(3))
    with pytest.raises(RuntimeError, match="Cannot compile a device function as a kernel"):  # Numba's
        recurse[1, 1](3)
    with pytest.raises(TypeError, match=r"\[cuda.declare_device\] Return type must be provided"):
        cuda.declare_device("f1", (cuda.float32[:],))
    with pytest.raises(RuntimeError, match="only be called inside a kernel"):
        cuda.grid(1)


def test_unsupported_argument_type():
    k = cuda.jit(undefined_name)
    with pytest.raises(loom.TypingError, match="cannot pass a list"):
        k[1, 1]([1, 2, 3])


@cuda.jit(debug=True)
def out_of_bounds(a, n):
    i = cuda.grid(1)
    if i < n:
        a[i + 1] = 1.0


def test_emulator_debug_mode_reports_the_python_line():
    a = loom.zeros(8, dtype=loom.float32, device=loom.cpu())
    with pytest.raises(Exception) as info:
        out_of_bounds[1, 8](a, 8)
    text = str(info.value)
    assert f"{HERE}:{_line_of(out_of_bounds.py_func, 'a[i + 1] = 1.0')}" in text, text
    assert "index 8 is out of bounds for axis 0 with size 8" in text, text


def test_emulator_debug_env_reports_the_python_line(monkeypatch):
    @cuda.jit
    def oob(a):
        a[cuda.grid(1) - 1] = 2.0 if cuda.grid(1) > 0 else a[100]
    monkeypatch.setenv("LOOM_EMULATOR_DEBUG", "1")
    a = loom.zeros(8, dtype=loom.float32, device=loom.cpu())
    with pytest.raises(Exception) as info:
        oob[1, 8](a)
    assert "out of bounds for axis 0 with size 8" in str(info.value)
    assert f"{HERE}:" in str(info.value)


def test_signature_errors():
    with pytest.raises(loom.TypingError, match="cannot read the array type"):
        cuda.jit("void(float32[x])")(undefined_name)
    with pytest.raises(loom.TypingError, match="returns void"):
        cuda.jit("float32(float32[:])")(undefined_name)
