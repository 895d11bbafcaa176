"""Copies between NumPy and devices, `.to` identity, host reads, array properties, repr."""
import numpy as np
import pytest

import loom
from conftest import DTYPE_NAMES, NP_DTYPES, assert_matches, random_array


def layouts(a):
    """Views of a 3-d array in awkward layouts: strided, negative strides, transposed."""
    return {
        "contiguous": a,
        "strided": a[::2, 1::2, ::3],
        "negative": a[::-1, :, ::-2],
        "transposed": a.transpose(2, 0, 1),
        "fortran": np.asfortranarray(a),
        "mixed": a[1:, ::-1].T[::2],
        "zero_size": a[:, :0],
        "scalar": a[1, 2, 3],
    }


@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_round_trips_of_numpy_layouts(device, name, rng):
    a = random_array(rng, (4, 5, 6), NP_DTYPES[name])
    for label, v in layouts(a).items():
        x = loom.array(v, device=device)
        assert x.device == device, label
        assert_matches(x, v, exact=True)
        back = x.numpy()
        assert back.dtype == v.dtype and back.shape == v.shape, label
        as_float = v.dtype.kind == "V"  # compare bfloat16 through float64
        np.testing.assert_array_equal(back.astype(np.float64) if as_float else back,
                                      v.astype(np.float64) if as_float else v)
        assert_matches(loom.asarray(loom.asnumpy(x), device=device), v, exact=True)


@pytest.mark.parametrize("name", ["float32", "bfloat16", "int64", "bool"])
def test_copies_between_every_pair_of_devices(name, rng):
    a = random_array(rng, (33, 17), NP_DTYPES[name])
    for src in loom.devices():
        x = loom.asarray(a, device=src)
        for dst in loom.devices():
            y = x.copy_to(dst)
            assert y is not x
            assert_matches(y, a, device=dst, exact=True)
            z = x.to(dst)
            assert (z is x) == (src == dst)
            assert_matches(z, a, device=dst, exact=True)
            t = x.T.to(dst)  # a strided source
            assert_matches(t, a.T, device=dst, exact=True)


def test_to_returns_the_same_object(device, rng):
    x = loom.asarray(random_array(rng, (5,), np.float32), device=device)
    assert x.to(x.device) is x
    assert x.to(device) is x
    assert x.to(f"gpu:{device.index}" if device.type == "cuda" else "cpu") is x
    with pytest.raises(ValueError):
        x.to("nowhere")


def test_copy_is_independent(device, rng):
    a = random_array(rng, (3, 4), np.int32, low=-1000, high=1000)
    x = loom.array(a, device=device)
    y = x.copy()
    assert y is not x and y.device == device
    assert_matches(y, a)
    if device.type == "cpu":
        x.numpy()[0, 0] += 1  # numpy() of a CPU array is a view: this writes x
        assert x.numpy()[0, 0] == a[0, 0] + 1
        assert y.numpy()[0, 0] == a[0, 0]


def test_properties(device, rng):
    a = random_array(rng, (3, 4, 5), np.float32)
    x = loom.asarray(a, device=device)
    assert x.shape == (3, 4, 5) and x.ndim == 3 and x.size == 60
    assert x.itemsize == 4 and x.nbytes == 240
    assert x.strides == (80, 20, 4)
    assert x.dtype == loom.float32 and x.dtype is loom.float32
    assert x.device == device
    assert len(x) == 3
    t = x.T
    assert t.shape == (5, 4, 3) and t.strides == (4, 20, 80) and t.device == device
    assert_matches(t, a.T, exact=True)
    assert isinstance(x, loom.ndarray) and loom.Array is loom.ndarray
    s = loom.asarray(np.float64(2.5), device=device)
    assert s.shape == () and s.ndim == 0 and s.size == 1 and s.strides == ()
    with pytest.raises(TypeError):
        len(s)


@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_item_and_tolist(device, name, rng):
    a = random_array(rng, (2, 3), NP_DTYPES[name])
    x = loom.asarray(a, device=device)
    want = a.astype(np.float32).tolist() if name == "bfloat16" else a.tolist()
    assert x.tolist() == want
    s = x.T.copy()
    assert s.tolist() == (a.T.astype(np.float32) if name == "bfloat16" else a.T).tolist()
    one = loom.asarray(a[1, 2], device=device)
    v = one.item()
    expected = a[1, 2].item() if name != "bfloat16" else float(a[1, 2])
    assert v == expected and type(v) is type(expected)
    assert loom.asarray(a[1:2, 2:3], device=device).item() == expected
    with pytest.raises(ValueError):
        x.item()


def test_python_number_conversions(device):
    assert float(loom.asarray(2.5, device=device)) == 2.5
    assert int(loom.asarray(7, device=device)) == 7
    assert bool(loom.asarray([0], device=device)) is False
    assert bool(loom.asarray(3, device=device)) is True
    assert [10, 20, 30][loom.asarray(1, device=device)] == 20
    with pytest.raises(TypeError):
        [1, 2][loom.asarray(1.0, device=device)]
    with pytest.raises(ValueError):
        bool(loom.zeros(3, device=device))


def test_numpy_conversion(device, rng):
    a = random_array(rng, (4, 3), np.float64)
    x = loom.asarray(a, device=device)
    np.testing.assert_array_equal(np.asarray(x), a)
    np.testing.assert_array_equal(np.array(x, dtype=np.float32), a.astype(np.float32))
    c = np.array(x, copy=True)
    c[0, 0] = -1
    assert x.numpy()[0, 0] == a[0, 0]
    if device.type == "cpu":
        v = np.asarray(x, copy=False)
        v[1, 1] = 99.0
        assert x.numpy()[1, 1] == 99.0
    else:
        with pytest.raises(ValueError):
            np.asarray(x, copy=False)


@pytest.mark.parametrize("dtype", [np.int64, np.uint64, np.int32, np.float64])
def test_numpy_conversion_gives_numpys_own_type(device, rng, dtype):
    # NumPy's int64 is 'l' where long is 64 bits; its longlong ('q') is another type with
    # other scalars, which SciPy and user code checking dtype.char or type(x[0]) see.
    a = rng.integers(0, 100, (3, 4)).astype(dtype)
    x = loom.asarray(a, device=device)
    for got in (x.numpy(), np.asarray(x), x[:, ::2].numpy()):
        assert got.dtype.char == np.dtype(dtype).char
        assert type(got[0, 0]) is np.dtype(dtype).type
        np.testing.assert_array_equal(got, a if got.shape == a.shape else a[:, ::2])


def test_repr(device):
    d = repr(device)
    x = loom.ones((2, 2), dtype=loom.float32, device=device)
    assert repr(x) == f"array([[1., 1.],\n       [1., 1.]], dtype=float32, device={d})"
    assert repr(loom.arange(3, device=device)) == f"array([0, 1, 2], dtype=int64, device={d})"
    assert repr(loom.asarray(2.5, device=device)) == f"array(2.5, dtype=float64, device={d})"
    assert repr(loom.zeros((0,), dtype=loom.int8, device=device)) == f"array([], dtype=int8, device={d})"
    assert repr(loom.zeros((0, 3), device=device)) == f"array([], shape=(0, 3), dtype=float64, device={d})"
    assert repr(loom.asarray([True, False], device=device)) == f"array([ True, False], dtype=bool, device={d})"
    assert "dtype=bfloat16" in repr(loom.ones(3, dtype=loom.bfloat16, device=device))
    assert str(loom.ones(2, device=device)) == "[1. 1.]"


def test_block_until_ready_returns_self(device):
    x = loom.zeros((1000,), device=device)
    assert x.block_until_ready() is x


@pytest.mark.gpu
def test_gpu_read_after_async_work(gpu, rng):
    a = random_array(rng, (1 << 20,), np.float32)
    x = loom.asarray(a, device=gpu)
    y = x.astype(loom.float64).astype(loom.float32)
    assert_matches(y, a, exact=True)


@pytest.mark.gpu
def test_between_gpus(rng):
    # Every ordered pair, the same GPU included, so one GPU still runs the copy path.
    gpus = [loom.gpu(i) for i in range(loom.num_gpus())]
    for src in gpus:
        for dst in gpus:
            a = random_array(rng, (64, 33), np.float32)
            x = loom.asarray(a, device=src)
            y = x.copy_to(dst)
            assert y.device == dst
            assert_matches(y, a, exact=True)
            assert_matches(x.T.copy_to(dst), a.T, exact=True)
            assert (x.to(dst) is x) == (src == dst)


@pytest.mark.gpu
def test_one_gib_round_trip_is_bit_identical(gpu, rng):
    n = (1 << 30) // 4
    a = rng.standard_normal(n, dtype=np.float32)
    a[rng.integers(0, n, 1000)] = np.nan  # NaN payloads must survive too
    back = loom.asarray(a, device=gpu).numpy()
    assert np.array_equal(back.view(np.uint32), a.view(np.uint32))


@pytest.mark.parametrize("pinned", [False, True], ids=["pageable", "pinned"])
def test_asnumpy_into_out(device, pinned, rng):
    a = random_array(rng, (37, 19), np.float32)
    x = loom.asarray(a, device=device).T  # a strided source
    out = loom.empty_pinned(x.shape, loom.float32) if pinned else np.empty(x.shape, np.float32)
    out[...] = np.nan
    assert loom.asnumpy(x, out=out) is out
    np.testing.assert_array_equal(out, a.T)
    with pytest.raises(ValueError, match=r"\[asnumpy\]"):
        loom.asnumpy(x, out=np.empty((19, 36), np.float32))
    with pytest.raises(TypeError, match=r"\[asnumpy\]"):
        loom.asnumpy(x, out=np.empty(x.shape, np.float64))
    with pytest.raises(ValueError, match=r"\[asnumpy\]"):
        loom.asnumpy(x, out=np.empty((38, 19), np.float32).T[:, :37].T)
