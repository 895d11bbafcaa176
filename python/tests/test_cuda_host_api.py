"""Numba's host-side cuda.* functions on loom (pykernel/host_api.py): detect(), current_context()
with its memory information, mapped_array, the pinned() and defer_cleanup() regions, and the
device-array methods Numba code calls (is_c_contiguous, is_f_contiguous, split, bind)."""
import numpy as np
import pytest

import loom
from loom import cuda


def test_detect_reports_what_loom_sees(capsys):
    found = cuda.detect()
    out = capsys.readouterr().out
    assert found == (loom.num_gpus() > 0)
    assert out.startswith(f"Found {loom.num_gpus()} CUDA devices")
    assert f"{loom.num_gpus()}/{loom.num_gpus()} devices are supported" in out
    for i in range(loom.num_gpus()):
        assert repr(loom.gpu(i).name) in out


def test_current_context_memory_info():
    ctx = cuda.current_context()
    assert ctx.device == loom.default_device()
    free, total = ctx.get_memory_info()
    assert 0 < free <= total == loom.default_device().total_memory
    ctx.synchronize()


def test_mapped_array(rng):
    m = cuda.mapped_array(16, dtype=np.float32)
    m[...] = loom.asarray(rng.standard_normal(16).astype(np.float32))
    assert m.shape == (16,) and m.dtype == loom.float32
    f = cuda.mapped_array((2, 3), order="F")  # Fortran order: a transposed view
    assert f.strides == np.zeros((2, 3), np.float64, order="F").strides
    with pytest.raises(NotImplementedError, match=r"\[cuda.mapped_array\] explicit strides"):
        cuda.mapped_array((2, 2), strides=(8, 16))


def test_regions_keep_their_meaning(rng):
    host = rng.standard_normal(8)
    with cuda.pinned(host), cuda.defer_cleanup():
        d = cuda.to_device(host)
        back = d.copy_to_host()
    np.testing.assert_array_equal(back, host)


def test_device_array_methods(rng):
    x = loom.asarray(rng.standard_normal((4, 6)))
    assert x.is_c_contiguous() and not x.is_f_contiguous()
    assert x.T.is_f_contiguous() and not x.T.is_c_contiguous()
    assert not x[:, ::2].is_c_contiguous() and not x[:, ::2].is_f_contiguous()
    v = loom.arange(10)
    parts = v.split(4)
    assert [p.shape[0] for p in parts] == [4, 4, 2]
    np.testing.assert_array_equal(np.concatenate([p.numpy() for p in parts]), np.arange(10))
    assert x.bind(cuda.default_stream()) is x
    with pytest.raises(ValueError, match=r"\[split\] only a 1-d array"):
        x.split(2)


def test_devicearray_module_as_numbas(device, rng):
    """Numba's cuda.devicearray: DeviceNDArray is loom.ndarray; auto_device copies host data
    (a number too), passes device arrays through, refuses a non-contiguous host array."""
    from loom.cuda import devicearray
    assert devicearray.DeviceNDArray is loom.ndarray
    x = rng.random(7)
    with device:
        d, made = devicearray.auto_device(x)
        assert made and isinstance(d, devicearray.DeviceNDArray) and d.device == device
        np.testing.assert_array_equal(d.numpy(), x)
        assert devicearray.auto_device(d) == (d, False)
        c, _ = devicearray.auto_device(3)
        assert c.shape == () and c.numpy() == 3
        with pytest.raises(ValueError, match="not contiguous"):
            devicearray.auto_device(x[::2])
        like = devicearray.from_array_like(np.zeros((2, 3), dtype=np.float32))
        assert like.shape == (2, 3) and str(like.dtype) == "float32"
        assert devicearray.is_cuda_ndarray(d) and not devicearray.is_cuda_ndarray(x)


def test_kernels_transpose_as_numbas(device, rng):
    """numba.cuda.kernels.transpose.transpose: b = a.T, into b or a new array."""
    from loom.cuda.kernels.transpose import transpose
    for shape, dt in (((5, 6), np.float64), ((17, 16), np.bool_), ((33, 65), np.complex128)):
        x = rng.random(shape) > 0.5 if dt is np.bool_ else rng.standard_normal(shape).astype(dt)
        with device:
            a = cuda.to_device(x)
            b = cuda.device_array(shape[::-1], dtype=dt)
            assert transpose(a, b) is b
            np.testing.assert_array_equal(b.copy_to_host(), x.T)
            np.testing.assert_array_equal(transpose(a).copy_to_host(), x.T)
            with pytest.raises(ValueError, match="must have shape"):
                transpose(a, cuda.device_array(shape, dtype=dt) if shape[0] != shape[1] else cuda.device_array(3))
