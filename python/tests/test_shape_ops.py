"""Shape ops against NumPy on every device: values, views vs copies, negative axes,
errors, empty and 0-d arrays, non-contiguous inputs (.T, flipped, broadcast) and dtypes."""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import loom
from conftest import DTYPE_NAMES, NP_DTYPES, compare, random_array


def extent(x):
    """The byte range [lo, hi) an array's elements occupy (device pointers for GPU arrays)."""
    iface = x.__cuda_array_interface__ if x.device.type == "cuda" else x.numpy().__array_interface__
    ptr = iface["data"][0]
    strides = iface["strides"] or tuple(np.cumprod((1,) + x.shape[:0:-1])[::-1] * x.itemsize)
    lo = hi = 0
    for n, s in zip(x.shape, strides):
        if n == 0:
            return ptr, ptr
        (hi := hi + (n - 1) * s) if s > 0 else (lo := lo + (n - 1) * s)
    return ptr + lo, ptr + hi + x.itemsize


def shares_memory(x, y):
    """True when two loom arrays of one device overlap in memory."""
    if x.device.type == "cpu":
        return np.shares_memory(x.numpy(), y.numpy())
    (a0, a1), (b0, b1) = extent(x), extent(y)
    return a0 < b1 and b0 < a1


def noncontig(xp, a, kind):
    """`a` as a non-contiguous view of the same values' layout family."""
    if kind == "T":
        return a.T
    if kind == "flip":
        return xp.flip(a)
    return a


# ---- reshape, ravel, flatten ------------------------------------------------------------

@pytest.mark.parametrize("shape,new", [((2, 3, 4), (6, 4)), ((2, 3, 4), (-1,)), ((2, 3, 4), (4, -1, 2)),
                                       ((24,), (2, 3, 4)), ((1, 6), (6, 1)), ((), (1, 1)), ((1,), ()),
                                       ((0, 3), (3, 0)), ((0, 3), (-1, 3)), ((5,), (5,))])
@pytest.mark.parametrize("kind", ["", "T", "flip"])
def test_reshape(device, rng, shape, new, kind):
    a = random_array(rng, shape, "float32")
    compare(lambda xp, x: xp.reshape(noncontig(xp, x, kind), new), a, device=device, exact=True)
    compare(lambda xp, x: noncontig(xp, x, kind).reshape(new), a, device=device, exact=True)
    compare(lambda xp, x: xp.reshape(noncontig(xp, x, kind), new, order="F"), a, device=device, exact=True)


def test_reshape_method_forms(device, rng):
    a = random_array(rng, (4, 6), "int32")
    compare(lambda xp, x: x.reshape(3, 8), a, device=device)
    compare(lambda xp, x: x.reshape([2, -1, 3]), a, device=device)
    compare(lambda xp, x: x.reshape(-1, order="F"), a, device=device)
    compare(lambda xp, x: x.T.reshape(24, order="A"), a, device=device)
    compare(lambda xp, x: x.reshape((6, 4), order="F", copy=True), a, device=device)


@pytest.mark.parametrize("new", [(5,), (-1, -1), (-1, 5), (2, -3), (7, -1)])
def test_reshape_errors(device, rng, new):
    a = random_array(rng, (2, 3), "float64")
    compare(lambda xp, x: xp.reshape(x, new), a, device=device)
    compare(lambda xp, x: x.reshape(new), a, device=device)


def test_reshape_empty_unknown(device):
    # The unknown dimension of an empty array is ambiguous when another one is 0.
    compare(lambda xp, x: xp.reshape(x, (-1, 0)), np.zeros((0, 6)), device=device)
    compare(lambda xp, x: xp.reshape(x, (-1, 3, 2)), np.zeros((0, 6)), device=device)
    compare(lambda xp, x: xp.reshape(x, (2, 0, 5)), np.zeros((0, 6)), device=device)


def test_reshape_view_or_copy(device, rng):
    a = loom.asarray(random_array(rng, (4, 6), "float32"), device=device)
    assert shares_memory(a.reshape(3, 8), a)
    assert shares_memory(a.T.reshape(2, 3, 4), a)  # splitting an axis of a view: still a view
    assert not shares_memory(a.T.reshape(24), a)
    assert shares_memory(a.T.reshape(24, order="F"), a)
    assert shares_memory(loom.flip(a).reshape(2, 2, 6), a)
    assert not shares_memory(loom.reshape(a, (24,), copy=True), a)
    with pytest.raises(ValueError):
        loom.reshape(a.T, (24,), copy=False)
    assert shares_memory(loom.reshape(a, (24,), copy=False), a)


def test_view_sees_writes_through_base(rng):
    base = loom.asarray(random_array(rng, (3, 4), "int64"), device=loom.cpu())
    views = [base.reshape(4, 3), base.T, loom.flip(base), loom.expand_dims(base, 1), base.ravel(),
             loom.broadcast_to(base, (2, 3, 4)), loom.split(base, 2, axis=1)[1], loom.moveaxis(base, 0, -1)]
    host = base.numpy()  # a view of the CPU buffer
    host[2, 3] = 12345
    assert base.reshape(4, 3).numpy()[3, 2] == 12345
    assert base.T.numpy()[3, 2] == 12345
    assert loom.flip(base).numpy()[0, 0] == 12345
    assert views[4].numpy()[-1] == 12345
    assert views[5].numpy()[1, 2, 3] == 12345
    assert views[6].numpy()[2, 1] == 12345
    for v in views:
        assert np.shares_memory(v.numpy(), host)
        assert 12345 in v.numpy()


@pytest.mark.parametrize("kind", ["", "T", "flip"])
def test_ravel_flatten(device, rng, kind):
    a = random_array(rng, (3, 5), "int16")
    for order in "CFAK":
        compare(lambda xp, x: xp.ravel(noncontig(xp, x, kind), order=order), a, device=device)
        compare(lambda xp, x: noncontig(xp, x, kind).ravel(order), a, device=device)
        compare(lambda xp, x: noncontig(xp, x, kind).flatten(order), a, device=device)
    x = loom.asarray(a, device=device)
    assert shares_memory(x.ravel(), x) and not shares_memory(x.flatten(), x)
    assert not shares_memory(x.T.ravel(), x) and shares_memory(x.T.ravel("F"), x)
    compare(lambda xp, x: xp.ravel(x), np.float32(3.5) * np.ones(()), device=device)


def test_shape_setter(device, rng):
    a = loom.asarray(random_array(rng, (4, 6), "float64"), device=device)
    want = a.numpy().reshape(8, 3)
    a.shape = (8, -1)
    assert a.shape == (8, 3)
    np.testing.assert_array_equal(a.numpy(), want)
    t = a.T
    with pytest.raises(AttributeError):
        t.shape = (24,)
    with pytest.raises(ValueError):
        a.shape = (5, 5)


# ---- axis permutations, squeeze, expand_dims ---------------------------------------------

def test_transpose_swap_move(device, rng):
    a = random_array(rng, (2, 3, 4, 5), "float64")
    compare(lambda xp, x: xp.transpose(x), a, device=device, exact=True)
    compare(lambda xp, x: xp.transpose(x, (1, -1, 0, 2)), a, device=device, exact=True)
    compare(lambda xp, x: x.transpose(3, 1, 2, 0), a, device=device, exact=True)
    compare(lambda xp, x: x.transpose((3, 1, 2, 0)), a, device=device, exact=True)
    compare(lambda xp, x: x.transpose(), a, device=device, exact=True)
    compare(lambda xp, x: xp.swapaxes(x, 0, -1), a, device=device, exact=True)
    compare(lambda xp, x: x.swapaxes(1, 2), a, device=device, exact=True)
    compare(lambda xp, x: xp.moveaxis(x, 0, -1), a, device=device, exact=True)
    compare(lambda xp, x: xp.moveaxis(x, [0, 1], [-1, -2]), a, device=device, exact=True)
    compare(lambda xp, x: xp.moveaxis(x, (3, 0), (0, 2)), a, device=device, exact=True)
    x = loom.asarray(a, device=device)
    for v in (loom.transpose(x), loom.swapaxes(x, 0, 2), loom.moveaxis(x, 1, 0)):
        assert shares_memory(v, x)


@pytest.mark.parametrize("fn", [
    lambda xp, x: xp.transpose(x, (0, 1)),
    lambda xp, x: xp.transpose(x, (0, 0, 1)),
    lambda xp, x: xp.transpose(x, (0, 1, 3)),
    lambda xp, x: xp.swapaxes(x, 0, 3),
    lambda xp, x: xp.moveaxis(x, 0, 3),
    lambda xp, x: xp.moveaxis(x, [0, 1], [0]),
    lambda xp, x: xp.moveaxis(x, [0, 0], [1, 2]),
    lambda xp, x: xp.squeeze(x, 0),
    lambda xp, x: xp.squeeze(x, -4),
    lambda xp, x: xp.expand_dims(x, 4),
    lambda xp, x: xp.expand_dims(x, (0, 0)),
])
def test_axis_errors(device, rng, fn):
    compare(fn, random_array(rng, (2, 1, 3), "float32"), device=device)


def test_squeeze_expand_dims(device, rng):
    a = random_array(rng, (1, 3, 1, 4, 1), "uint8")
    compare(lambda xp, x: xp.squeeze(x), a, device=device)
    compare(lambda xp, x: xp.squeeze(x, axis=-1), a, device=device)
    compare(lambda xp, x: xp.squeeze(x, axis=(0, 2)), a, device=device)
    compare(lambda xp, x: x.squeeze(), a, device=device)
    compare(lambda xp, x: x.squeeze(2), a, device=device)
    compare(lambda xp, x: xp.squeeze(x), np.ones((), dtype=np.int8) * 3, device=device)
    b = random_array(rng, (3, 4), "int32")
    for axis in (0, 1, 2, -1, -3, (0, 1), (0, -1), (3, 1, 0)):
        compare(lambda xp, x: xp.expand_dims(x, axis), b, device=device)
        compare(lambda xp, x: xp.expand_dims(x.T, axis), b, device=device)
    compare(lambda xp, x: xp.expand_dims(x, 0), np.ones((), dtype=np.float32), device=device)


# ---- broadcasting ------------------------------------------------------------------------

def test_broadcast_to(device, rng):
    a = random_array(rng, (3, 1), "float16")
    compare(lambda xp, x: xp.broadcast_to(x, (2, 3, 4)), a, device=device, exact=True)
    compare(lambda xp, x: xp.broadcast_to(x.T, (3, 3)), a, device=device, exact=True)
    compare(lambda xp, x: xp.broadcast_to(xp.flip(x), (0, 3, 5)), a, device=device, exact=True)
    compare(lambda xp, x: xp.broadcast_to(x, (3, 2)), a, device=device)
    compare(lambda xp, x: xp.broadcast_to(x, (3,)), a, device=device)
    compare(lambda xp, x: xp.broadcast_to(x, (-1, 3, 1)), a, device=device)
    compare(lambda xp, x: xp.broadcast_to(x, 4), np.float64(2.5) * np.ones(()), device=device, exact=True)
    x = loom.asarray(a, device=device)
    b = loom.broadcast_to(x, (2, 3, 4))
    assert b.strides == (0, x.strides[0], 0) and shares_memory(b, x)
    # A copy of a zero-stride view is a plain contiguous array.
    np.testing.assert_array_equal(b.copy().numpy(), np.broadcast_to(a, (2, 3, 4)))


def test_broadcast_arrays(device, rng):
    a, b, c = (random_array(rng, s, "int64") for s in [(3, 1), (4,), ()])
    got = compare(lambda xp, x, y, z: xp.broadcast_arrays(x, y, z), a, b, c, device=device)
    assert type(got) is type(np.broadcast_arrays(a, b, c)) is tuple  # NumPy 2, Array API 2025.12
    compare(lambda xp, x, y: xp.broadcast_arrays(x, y), a, random_array(rng, (2,), "int64"), device=device)


def test_atleast(device, rng):
    for shape in [(), (3,), (2, 3), (2, 3, 4)]:
        a = random_array(rng, shape, "float32")
        compare(lambda xp, x: xp.atleast_1d(x), a, device=device, exact=True)
        compare(lambda xp, x: xp.atleast_2d(x), a, device=device, exact=True)
        compare(lambda xp, x: xp.atleast_3d(x), a, device=device, exact=True)
    compare(lambda xp, x, y: xp.atleast_2d(x, y), random_array(rng, (3,), "int8"),
            random_array(rng, (), "int8"), device=device)


# ---- flip ----------------------------------------------------------------------------------

@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 2), (), (-1, 0, 1)])
def test_flip(device, rng, axis):
    a = random_array(rng, (3, 4, 5), "int32")
    compare(lambda xp, x: xp.flip(x, axis), a, device=device)
    compare(lambda xp, x: xp.flip(x.T, axis), a, device=device)
    compare(lambda xp, x: xp.flip(xp.flip(x, axis), 1), a, device=device)
    # A flipped view made contiguous (the GPU's strided copy with negative strides).
    compare(lambda xp, x: xp.flip(x, axis).copy(), a, device=device)
    compare(lambda xp, x: xp.flip(x, axis).astype(xp.float64), a, device=device)
    x = loom.asarray(a, device=device)
    assert shares_memory(loom.flip(x, axis), x)


def test_flip_lr_ud_and_errors(device, rng):
    a = random_array(rng, (3, 4), "bool")
    compare(lambda xp, x: xp.fliplr(x), a, device=device)
    compare(lambda xp, x: xp.flipud(x), a, device=device)
    compare(lambda xp, x: xp.fliplr(x), random_array(rng, (4,), "int8"), device=device)
    compare(lambda xp, x: xp.flip(x, 2), a, device=device)
    compare(lambda xp, x: xp.flip(x), np.ones((), dtype=np.int32), device=device)
    compare(lambda xp, x: xp.flip(x, 0), np.ones((0, 3), dtype=np.int32), device=device)


# ---- split -------------------------------------------------------------------------------

@pytest.mark.parametrize("ios", [1, 2, 3, 4, [1, 3], [2, -1], [5, 2], [0, 0, 10], [], np.array([1, 2])])
@pytest.mark.parametrize("axis", [0, -1])
def test_split(device, rng, ios, axis):
    a = random_array(rng, (6, 4), "float32")
    compare(lambda xp, x: xp.array_split(x, ios, axis=axis), a, device=device, exact=True)
    compare(lambda xp, x: xp.split(x, ios, axis=axis), a, device=device, exact=True)
    compare(lambda xp, x: xp.split(xp.flip(x.T), ios, axis), a, device=device, exact=True)


def test_split_views_and_errors(device, rng):
    a = loom.asarray(random_array(rng, (6, 4), "float32"), device=device)
    for part in loom.split(a, 3) + loom.array_split(a, [1, 3], axis=1):
        if part.size:
            assert shares_memory(part, a)
    b = random_array(rng, (7,), "int32")
    compare(lambda xp, x: xp.split(x, 3), b, device=device)
    compare(lambda xp, x: xp.array_split(x, 0), b, device=device)
    compare(lambda xp, x: xp.array_split(x, 10), b, device=device)
    compare(lambda xp, x: xp.split(x, 2, axis=1), b, device=device)
    compare(lambda xp, x: xp.split(x, 1.5), b, device=device, raises=(TypeError, ValueError))


# ---- concatenate, stack --------------------------------------------------------------------

@pytest.mark.parametrize("axis", [0, 1, 2, -1, None])
def test_concatenate(device, rng, axis):
    shapes = {0: [(2, 3, 4), (1, 3, 4), (0, 3, 4)], 1: [(2, 1, 4), (2, 3, 4)], 2: [(2, 3, 4), (2, 3, 5)],
              -1: [(2, 3, 4), (2, 3, 1)], None: [(2, 3), (5,), ()]}[axis]
    arrs = [random_array(rng, s, "float32") for s in shapes]
    compare(lambda xp, *xs: xp.concatenate(list(xs), axis=axis), *arrs, device=device, exact=True)
    compare(lambda xp, *xs: xp.concatenate([xp.flip(x) for x in xs], axis), *arrs, device=device, exact=True)
    if axis is not None:
        compare(lambda xp, *xs: xp.concatenate([x.T for x in xs], axis=-1 - axis if axis >= 0 else 0),
                *arrs, device=device, exact=True)


@pytest.mark.parametrize("da,db", [("int8", "uint8"), ("bool", "int16"), ("int32", "float32"),
                                   ("float16", "float64"), ("uint64", "int64"), ("bfloat16", "bfloat16"),
                                   ("uint32", "int8")])
def test_concatenate_promotes(device, rng, da, db):
    a, b = random_array(rng, (2, 3), da), random_array(rng, (4, 3), db)
    compare(lambda xp, x, y: xp.concatenate((x, y)), a, b, device=device, exact=True)
    compare(lambda xp, x, y: xp.concatenate((y.T, xp.flip(x).T), axis=1), a, b, device=device, exact=True)


def test_concatenate_dtype_casting(device, rng):
    a, b = random_array(rng, (2, 3), "float64"), random_array(rng, (2, 3), "int32")
    compare(lambda xp, x, y: xp.concatenate((x, y), dtype="float32"), a, b, device=device)
    compare(lambda xp, x, y: xp.concatenate((x, y), dtype="int32"), a, b, device=device)  # TypeError
    compare(lambda xp, x, y: xp.concatenate((y, y), dtype="int8", casting="same_kind"), a, b, device=device)
    compare(lambda xp, x, y: xp.concatenate((y, y), dtype="int64", casting="safe"), a, b, device=device)
    compare(lambda xp, x, y: xp.concatenate((y, y), dtype="int8", casting="safe"), a, b, device=device)
    compare(lambda xp, x, y: xp.concatenate((y, y), dtype="uint8", casting="unsafe"), a, b, device=device)
    compare(lambda xp, x, y: xp.concatenate((x, x), casting="no"), a, b, device=device)
    compare(lambda xp, x, y: xp.concatenate((x, y), casting="no"), a, b, device=device)
    compare(lambda xp, x, y: xp.concatenate((x, y), casting="bogus"), a, b, device=device)


def test_concatenate_out(device, rng):
    a, b = random_array(rng, (2, 3), "int32"), random_array(rng, (1, 3), "int32")
    out = loom.asarray(random_array(rng, (3, 3), "float64"), device=device)
    res = loom.concatenate([loom.asarray(a, device=device), loom.asarray(b, device=device)], out=out)
    assert res is out
    np.testing.assert_array_equal(out.numpy(), np.concatenate([a, b]).astype(np.float64))


@pytest.mark.parametrize("fn", [
    lambda xp, x, y: xp.concatenate((x, y)),
    lambda xp, x, y: xp.concatenate((x, y), axis=2),
    lambda xp, x, y: xp.concatenate((x, xp.ravel(y))),
    lambda xp, x, y: xp.concatenate(()),
    lambda xp, x, y: xp.stack((x, y)),
    lambda xp, x, y: xp.stack(()),
    lambda xp, x, y: xp.stack((x, x), axis=3),
    lambda xp, x, y: xp.hstack(()),
])
def test_join_errors(device, rng, fn):
    a, b = random_array(rng, (2, 3), "float32"), random_array(rng, (2, 4), "float32")
    compare(fn, a, b, device=device)


def test_concatenate_zero_d(device):
    compare(lambda xp, x: xp.concatenate((x, x)), np.ones((), dtype=np.float32), device=device)
    compare(lambda xp, x: xp.concatenate((x, x), axis=None), np.ones((), dtype=np.float32), device=device)


@pytest.mark.skipif(loom.num_gpus() == 0, reason="needs two devices")
def test_device_mismatch(rng):
    a = random_array(rng, (2, 3), "float32")
    x, y = loom.asarray(a, device=loom.cpu()), loom.asarray(a, device=loom.gpu(0))
    for fn in (lambda: loom.concatenate([x, y]), lambda: loom.stack([y, x]), lambda: loom.hstack([x, y]),
               lambda: loom.vstack([y, x])):
        with pytest.raises(loom.DeviceMismatchError):
            fn()


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3])
def test_stack(device, rng, axis):
    arrs = [random_array(rng, (3, 4), "int64") for _ in range(3)]
    compare(lambda xp, *xs: xp.stack(xs, axis=axis), *arrs, device=device)
    compare(lambda xp, *xs: xp.stack([x.T for x in xs], axis), *arrs, device=device)
    compare(lambda xp, x: xp.stack([x, x]), np.ones((), dtype=np.int8), device=device)
    compare(lambda xp, x: xp.stack([x, x], axis=1), np.ones((0, 2), dtype=np.int8), device=device)


def test_hstack_vstack(device, rng):
    for shapes in [[(3,), (2,)], [(2, 3), (2, 1)], [(), ()], [(2, 3, 1), (2, 2, 1)]]:
        arrs = [random_array(rng, s, "float32") for s in shapes]
        compare(lambda xp, *xs: xp.hstack(xs), *arrs, device=device, exact=True)
    for shapes in [[(3,), (3,)], [(2, 3), (1, 3)], [(), ()], [(2, 3), (3,)]]:
        arrs = [random_array(rng, s, "int16") for s in shapes]
        compare(lambda xp, *xs: xp.vstack(xs), *arrs, device=device)
    compare(lambda xp, x, y: xp.vstack((x, y)), np.ones((2, 3)), np.ones((2, 4)), device=device)


def test_list_inputs(device):
    # Lists become arrays on the default device, which the context makes `device`.
    with loom.device(device):
        compare(lambda xp: xp.concatenate([[1, 2], [3]]), device=device)
        compare(lambda xp: xp.stack([[1.5, 2], [3, 4]], axis=1), device=device)
        compare(lambda xp: xp.reshape([[1, 2], [3, 4]], -1), device=device)
        compare(lambda xp: xp.repeat([[1, 2], [3, 4]], [1, 2], axis=0), device=device)


# ---- tile, repeat ----------------------------------------------------------------------------

@pytest.mark.parametrize("reps", [2, (2,), (1, 1), (2, 3), (0, 2), (2, 1, 3), (), (3, 1, 1, 2)])
@pytest.mark.parametrize("shape", [(3, 4), (5,), (), (0, 2)])
def test_tile(device, rng, reps, shape):
    a = random_array(rng, shape, "float32")
    compare(lambda xp, x: xp.tile(x, reps), a, device=device, exact=True)
    if a.ndim:
        compare(lambda xp, x: xp.tile(xp.flip(x).T, reps), a, device=device, exact=True)
    x = loom.asarray(a, device=device)
    assert not shares_memory(loom.tile(x, 1), x) or x.size == 0
    compare(lambda xp, x: xp.tile(x, (-1, 2)), a, device=device)


@pytest.mark.parametrize("repeats,axis", [(2, None), (0, None), (3, 0), (2, 1), (2, -1), ([1], 0),
                                          ([1, 0, 3], 0), ([2, 2, 2, 2], 1), ([0, 1, 2, 3], -1),
                                          (np.array([1, 2, 0]), 0), ([0] * 12, None), (list(range(12)), None)])
def test_repeat(device, rng, repeats, axis):
    a = random_array(rng, (3, 4), "int16")
    compare(lambda xp, x: xp.repeat(x, repeats, axis=axis), a, device=device)
    compare(lambda xp, x: x.repeat(repeats, axis), a, device=device)
    if axis is not None:
        compare(lambda xp, x: xp.repeat(xp.flip(x), repeats, axis), a, device=device)
        compare(lambda xp, x: xp.repeat(xp.swapaxes(x.T, 0, 1), repeats, axis), a, device=device)


@pytest.mark.parametrize("dtype", DTYPE_NAMES)
def test_repeat_tile_dtypes(device, rng, dtype):
    a = random_array(rng, (5, 3), dtype)
    compare(lambda xp, x: xp.repeat(x, [3, 0, 1, 2, 1], axis=0), a, device=device, exact=True)
    compare(lambda xp, x: xp.repeat(x.T, [1, 2, 3], axis=0), a, device=device, exact=True)
    compare(lambda xp, x: xp.repeat(x, 2, axis=1), a, device=device, exact=True)
    compare(lambda xp, x: xp.tile(x, (2, 2)), a, device=device, exact=True)
    compare(lambda xp, x: xp.concatenate([x, xp.flip(x)], axis=1), a, device=device, exact=True)


def test_repeat_errors_and_edges(device, rng):
    a = random_array(rng, (3, 4), "float32")
    compare(lambda xp, x: xp.repeat(x, -1), a, device=device)
    compare(lambda xp, x: xp.repeat(x, [1, -1, 1], axis=0), a, device=device)
    compare(lambda xp, x: xp.repeat(x, [1, 2], axis=0), a, device=device)
    compare(lambda xp, x: xp.repeat(x, 2, axis=2), a, device=device)
    compare(lambda xp, x: xp.repeat(x, np.array([1.0, 2.0, 1.0]), axis=0), a, device=device)  # TypeError
    compare(lambda xp, x: xp.repeat(x, 3), np.float64(7) * np.ones(()), device=device)
    compare(lambda xp, x: xp.repeat(x, 3, axis=0), np.ones((), dtype=np.int32), device=device)
    compare(lambda xp, x: xp.repeat(x, [], axis=0), np.ones((0, 2), dtype=np.int32), device=device)
    compare(lambda xp, x: xp.repeat(x, 2, axis=1), np.ones((0, 2), dtype=np.int32), device=device)
    # Large rows and many rows: the wide and the parallel gather paths.
    b = random_array(rng, (300, 129), "float64")
    r = rng.integers(0, 4, size=300)
    compare(lambda xp, x: xp.repeat(x, r, axis=0), b, device=device, exact=True)
    r1 = rng.integers(0, 3, size=129)
    compare(lambda xp, x: xp.repeat(x, r1, axis=1), b, device=device, exact=True)
    c = random_array(rng, (70000,), "int8")
    rc = rng.integers(0, 3, size=70000)
    compare(lambda xp, x: xp.repeat(x, rc), c, device=device)


# ---- property-based --------------------------------------------------------------------------

shapes = st.lists(st.integers(0, 4), min_size=0, max_size=4).map(tuple)


# The device fixture does not change between examples, so sharing it is safe.
FIXTURE_OK = dict(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@settings(max_examples=40, **FIXTURE_OK)
@given(shape=shapes, data=st.data())
def test_hypothesis_views(device, shape, data):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    dtype = data.draw(st.sampled_from(["int32", "float64", "bool", "float16", "uint8"]))
    a = random_array(rng, shape, dtype)
    nd = len(shape)
    view = data.draw(st.sampled_from(["", "T", "flip"]))
    compare(lambda xp, x: noncontig(xp, x, view).reshape(-1), a, device=device, exact=True)
    compare(lambda xp, x: xp.ravel(noncontig(xp, x, view)), a, device=device, exact=True)
    if nd:
        axis = data.draw(st.integers(-nd, nd - 1))
        axis2 = data.draw(st.integers(-nd, nd - 1))
        compare(lambda xp, x: xp.swapaxes(noncontig(xp, x, view), axis, axis2), a, device=device, exact=True)
        compare(lambda xp, x: xp.moveaxis(noncontig(xp, x, view), axis, axis2), a, device=device, exact=True)
        compare(lambda xp, x: xp.flip(noncontig(xp, x, view), axis), a, device=device, exact=True)
        compare(lambda xp, x: xp.array_split(noncontig(xp, x, view), 3, axis), a, device=device, exact=True)
        perm = tuple(data.draw(st.permutations(range(nd))))
        compare(lambda xp, x: xp.transpose(noncontig(xp, x, view), perm), a, device=device, exact=True)
    ex = data.draw(st.integers(-nd - 1, nd))
    compare(lambda xp, x: xp.expand_dims(noncontig(xp, x, view), ex), a, device=device, exact=True)
    compare(lambda xp, x: xp.squeeze(noncontig(xp, x, view)), a, device=device, exact=True)
    # Any factorisation of the size: view or copy, the values agree.
    if a.size:
        new = [a.size]
        k = data.draw(st.integers(0, 2))
        for _ in range(k):
            d = data.draw(st.sampled_from([f for f in range(1, new[-1] + 1) if new[-1] % f == 0]))
            new[-1] //= d
            new.append(d)
        new[data.draw(st.integers(0, len(new) - 1))] = -1
        compare(lambda xp, x: xp.reshape(noncontig(xp, x, view), tuple(new)), a, device=device, exact=True)


@settings(max_examples=30, **FIXTURE_OK)
@given(shape=st.lists(st.integers(0, 4), min_size=1, max_size=3).map(tuple), data=st.data())
def test_hypothesis_copies(device, shape, data):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    nd = len(shape)
    axis = data.draw(st.integers(-nd, nd - 1))
    dts = [data.draw(st.sampled_from(["int8", "int64", "float32", "float64", "bool", "uint16"])) for _ in range(3)]
    arrs = []
    for dt in dts:
        s = list(shape)
        s[axis] = data.draw(st.integers(0, 3))
        arrs.append(random_array(rng, tuple(s), dt))
    reps = tuple(data.draw(st.lists(st.integers(0, 3), max_size=4)))
    counts = [data.draw(st.integers(0, 3)) for _ in range(shape[axis])]
    flip = data.draw(st.booleans())
    compare(lambda xp, *xs: xp.concatenate([xp.flip(x) if flip else x for x in xs], axis), *arrs,
            device=device, exact=True)
    compare(lambda xp, x: xp.stack([x, xp.flip(x)], axis), arrs[0], device=device, exact=True)
    compare(lambda xp, x: xp.tile(x.T if flip else x, reps), arrs[1], device=device, exact=True)
    base = random_array(rng, shape, dts[2])
    compare(lambda xp, x: xp.repeat(xp.flip(x) if flip else x, counts, axis), base, device=device, exact=True)
