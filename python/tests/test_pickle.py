"""pickle of loom arrays, dtypes and devices (python/loom/_numpy/pickling.py): data, dtype, shape
and device travel; a device the receiving process lacks becomes its default device."""
import copy
import pickle

import numpy as np
import pytest

import loom
from loom._numpy import pickling

from conftest import COMPLEX_DTYPES, DTYPES, assert_matches, random_array


@pytest.mark.parametrize("protocol", [2, pickle.DEFAULT_PROTOCOL, 5])
@pytest.mark.parametrize("dt", [n for _, n in DTYPES + COMPLEX_DTYPES], ids=str)
def test_array_round_trip_keeps_data_dtype_shape_and_device(device, rng, dt, protocol):
    host = random_array(rng, (3, 5), dt)
    x = loom.asarray(host, device=device)
    y = pickle.loads(pickle.dumps(x, protocol=protocol))
    assert isinstance(y, loom.ndarray)
    assert_matches(y, host, device=device, exact=True)


@pytest.mark.parametrize("shape", [(), (0,), (7,), (2, 3, 4)])
def test_shapes_views_and_zero_d(device, rng, shape):
    host = random_array(rng, shape, "float32")
    y = pickle.loads(pickle.dumps(loom.asarray(host, device=device)))
    assert_matches(y, host, device=device, exact=True)
    # A strided view arrives C-contiguous with the view's values (NumPy's rule).
    base = random_array(rng, (4, 6), "float64")
    v = loom.asarray(base, device=device)[1:, ::2].T
    w = pickle.loads(pickle.dumps(v))
    assert_matches(w, base[1:, ::2].T, device=device, exact=True)
    assert w.flags.c_contiguous


def test_protocol_5_sends_cpu_data_out_of_band(rng):
    host = random_array(rng, (64, 64), "float64")
    x = loom.asarray(host, device=loom.cpu())
    buffers = []
    data = pickle.dumps(x, protocol=5, buffer_callback=buffers.append)
    assert buffers and len(data) < host.nbytes
    assert_matches(pickle.loads(data, buffers=buffers), host, device=loom.cpu(), exact=True)


def test_a_missing_device_becomes_the_default_device(rng):
    host = random_array(rng, (4,), "int32")
    y = pickling._array(host, "cuda", loom.num_gpus() + 3)
    assert_matches(y, host, device=loom.default_device(), exact=True)
    assert pickling._device("cuda", loom.num_gpus()) == loom.default_device()
    assert pickling._device("cpu", 0) == loom.cpu()


def test_dtypes_and_devices_pickle():
    for d, _ in DTYPES + COMPLEX_DTYPES:
        assert pickle.loads(pickle.dumps(d)) == d
    for dev in loom.devices():
        assert pickle.loads(pickle.dumps(dev)) == dev


def test_copy_and_deepcopy_stay_copies(device, rng):
    host = random_array(rng, (3, 3), "float32")
    x = loom.asarray(host, device=device)
    for y in (copy.copy(x), copy.deepcopy(x), copy.deepcopy([x])[0]):
        assert_matches(y, host, device=device, exact=True)
        y[0, 0] = 7
    assert_matches(x, host, device=device, exact=True)
