"""C++ exceptions reach Python as the types of DESIGN.md §5."""
import numpy as np
import pytest

import loom

MAPPING = [
    ("DTypeError", TypeError),
    ("DeviceMismatchError", loom.DeviceMismatchError),
    ("OutOfMemoryError", loom.OutOfMemoryError),
    ("CudaError", loom.CudaError),
    ("CompileError", loom.CompileError),
    ("GraphCaptureError", loom.GraphCaptureError),
    ("UnsupportedError", NotImplementedError),
    ("invalid_argument", ValueError),
    ("out_of_range", IndexError),
    ("runtime_error", RuntimeError),
    ("DistributedError", loom.DistributedError),
    ("DistributedTimeoutError", loom.DistributedTimeoutError),
    ("LinAlgError", np.linalg.LinAlgError),
]


def test_distributed_and_linalg_errors_are_the_expected_types():
    with pytest.raises(TimeoutError):
        loom._loom._raise_for_testing("DistributedTimeoutError")
    with pytest.raises(loom.DistributedError):
        loom._loom._raise_for_testing("DistributedTimeoutError")
    assert loom.LinAlgError is np.linalg.LinAlgError


def test_exception_hierarchy():
    assert issubclass(loom.DeviceMismatchError, ValueError)
    assert issubclass(loom.OutOfMemoryError, MemoryError)
    assert issubclass(loom.CudaError, RuntimeError)
    assert issubclass(loom.CompileError, RuntimeError)
    for cls in (loom.DeviceMismatchError, loom.OutOfMemoryError, loom.CudaError, loom.CompileError):
        assert cls.__module__ == "loom"
        assert cls.__doc__


@pytest.mark.parametrize("kind,cls", MAPPING, ids=[k for k, _ in MAPPING])
def test_translation(kind, cls):
    with pytest.raises(cls) as e:
        loom._loom._raise_for_testing(kind, f"[op] {kind} message")
    assert str(e.value) == f"[op] {kind} message"
    if cls is not loom.DeviceMismatchError and kind == "invalid_argument":
        assert not isinstance(e.value, loom.DeviceMismatchError)


def test_error_attributes():
    with pytest.raises(loom.CudaError) as e:
        loom._loom._raise_for_testing("CudaError")
    assert e.value.code == 700 and e.value.context_lost is True
    with pytest.raises(loom.CompileError) as e:
        loom._loom._raise_for_testing("CompileError")
    assert "line 1" in e.value.log


def test_real_errors(device):
    with pytest.raises(TypeError):
        loom.zeros(3, dtype="U3", device=device)
    with pytest.raises(TypeError):
        loom.asarray(np.array(["x"]), device=device)
    with pytest.raises(ValueError):
        loom.empty((-1,), device=device)
    with pytest.raises(ValueError):  # an absent GPU fails at its first use
        loom.zeros(2, device=loom.gpu(loom.num_gpus()))
    with pytest.raises(ValueError):
        loom.ones(4, device=device).item()
    with pytest.raises(ValueError):
        loom.arange(0, 1, 0, device=device)
    with pytest.raises(ValueError):
        loom.set_default_device("gpu:99")
    with pytest.raises(TypeError):
        len(loom.asarray(1.0, device=device))
    with pytest.raises(TypeError):
        loom.ndarray()
