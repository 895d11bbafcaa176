"""NumPy's dispatch protocols on loom arrays: NumPy's ufuncs (and their methods) and
functions called on loom arrays give loom arrays on the same device, equal to NumPy's
results on the same data; what loom lacks raises TypeError naming it."""
import numpy as np
import pytest

import loom
from conftest import assert_matches, compare, random_array


def _loom(a, device):
    # A copy: on cpu() loom.asarray shares NumPy's memory, and some tests write in place.
    return loom.asarray(a.copy(), device=device)


def _pos(rng, shape, dtype=np.float64):
    return random_array(rng, shape, dtype, low=0.5, high=4.0)


@pytest.mark.parametrize("ufunc", [np.sin, np.exp, np.sqrt, np.absolute, np.negative, np.floor, np.isfinite,
                                   np.deg2rad, np.signbit])
def test_unary_ufunc(device, rng, ufunc):
    a = _pos(rng, (5, 7)) * np.where(rng.random((5, 7)) < 0.5, -1, 1) if ufunc is not np.sqrt else _pos(rng, (5, 7))
    compare(lambda xp, x: ufunc(x), a, device=device)


@pytest.mark.parametrize("ufunc", [np.add, np.subtract, np.multiply, np.divide, np.power, np.arctan2, np.maximum,
                                   np.fmin, np.hypot, np.less_equal, np.logaddexp, np.heaviside])
def test_binary_ufunc(device, rng, ufunc):
    # Broadcasting (5, 1) against (1, 6), positive bases for power.
    compare(lambda xp, x, y: ufunc(x, y), _pos(rng, (5, 1)), _pos(rng, (1, 6)) - 2, device=device)


def test_ufunc_dtypes_follow_numpy(device, rng):
    a = random_array(rng, (4, 3), np.float32)
    i = random_array(rng, (4, 3), np.int16, low=-50, high=50)
    compare(lambda xp, x: np.multiply(x, 2.5), a, device=device)  # a weak Python float keeps float32
    compare(lambda xp, x: np.add(x, np.float32(1.5)), i, device=device)  # a NumPy scalar is strong
    compare(lambda xp, x: np.add(x, 7), i, device=device)
    compare(lambda xp, x, y: np.add(x, y, dtype=np.float32), i, i, device=device)


@pytest.mark.parametrize("side", ["left", "right"])
def test_numpy_array_operand_goes_to_the_loom_operands_device(device, rng, side):
    # loom's own rule for array-likes beside a loom array (loom.add(x, np_array) does the same).
    a, b = random_array(rng, (3, 4), np.float32), random_array(rng, (4,), np.float64)
    x = _loom(a, device)
    got = np.subtract(x, b) if side == "left" else np.subtract(b, x)
    assert_matches(got, np.subtract(a, b) if side == "left" else np.subtract(b, a), device=device)
    assert_matches(b * x, b * a, device=device)  # NumPy's operator defers to the loom operand


def test_matmul_ufunc(device, rng):
    compare(lambda xp, x, y: np.matmul(x, y), random_array(rng, (3, 4), np.float64),
            random_array(rng, (4, 5), np.float64), device=device)


def test_out_is_written_and_returned(device, rng):
    a, b = random_array(rng, (4, 5), np.float64), random_array(rng, (5,), np.float64)
    x, y, z = _loom(a, device), _loom(b, device), _loom(random_array(rng, (4, 5), np.float64), device)
    r = np.add(x, y, out=z)
    assert r is z
    assert_matches(z, a + b, device=device)
    # A loom function without out= of its own (a composition) is written into out too.
    r = np.deg2rad(x, out=z)
    assert r is z
    assert_matches(z, np.deg2rad(a), device=device)


def test_out_with_where_keeps_masked_elements(device, rng):
    a, c = random_array(rng, (4, 5), np.float32), random_array(rng, (4, 5), np.float32)
    mask = rng.random((4, 5)) < 0.5
    want = c.copy()
    np.multiply(a, 3, out=want, where=mask)
    z = _loom(c, device)
    np.multiply(_loom(a, device), 3, out=z, where=mask)
    assert_matches(z, want, device=device)
    # The same through the emulated path (logaddexp has no where= of its own). Positive inputs:
    # a float32 logaddexp near 0 (log of a sum near 1) keeps no relative precision to compare.
    a, c = np.abs(a) + 0.5, np.abs(c) + 0.5
    want = c.copy()
    np.logaddexp(a, c, out=want, where=mask)
    z = _loom(c, device)
    np.logaddexp(_loom(a, device), _loom(c, device), out=z, where=mask)
    assert_matches(z, want, device=device)


def test_out_casting(device, rng):
    a = random_array(rng, (6,), np.float64)
    z = loom.zeros((6,), dtype=loom.int32, device=device)
    with pytest.raises(TypeError):  # float64 into int32 is not same_kind
        np.add(_loom(a, device), 0.5, out=z)
    want = np.zeros(6, np.int32)
    np.add(a, 0.5, out=want, casting="unsafe")
    assert np.add(_loom(a, device), 0.5, out=z, casting="unsafe") is z
    assert_matches(z, want, device=device)


def test_out_must_be_a_loom_array(device, rng):
    x = _loom(random_array(rng, (3,), np.float64), device)
    with pytest.raises(TypeError, match="out= must be a loom array"):
        np.sin(x, out=np.empty(3))


@pytest.mark.parametrize("kw", [{}, {"axis": 1, "keepdims": True}, {"axis": None}, {"axis": (0, 2)}])
def test_add_reduce(device, rng, kw):
    # Positive terms: no cancellation, so a different summation order stays within tolerance.
    compare(lambda xp, x: np.add.reduce(x, **kw), _pos(rng, (3, 4, 5)), device=device)


def test_reduce_methods(device, rng):
    a = random_array(rng, (4, 6), np.float32, low=0.1, high=2.0)  # positive: sums do not cancel
    mask = rng.random((4, 6)) < 0.6
    compare(lambda xp, x: np.multiply.reduce(x, axis=0, dtype=np.float64), a, device=device)
    compare(lambda xp, x: np.maximum.reduce(x, axis=1, initial=0.25, where=mask), a, device=device)
    compare(lambda xp, x: np.add.reduce(x, axis=1, where=mask), a, device=device)
    compare(lambda xp, x: np.add.reduce(x, axis=0, initial=5.0, where=mask), a, device=device)
    compare(lambda xp, x: np.multiply.reduce(x, axis=1, initial=2, where=mask), a, device=device)
    compare(lambda xp, x: np.minimum.reduce(x, axis=None), a, device=device)
    compare(lambda xp, x: np.logical_or.reduce(x > 1, axis=0), a, device=device)
    compare(lambda xp, x: np.logical_and.reduce(x > 0.3, axis=1), a, device=device)
    compare(lambda xp, x: np.add.reduce(x, axis=0), random_array(rng, (5, 3), np.int8), device=device)  # int64
    b = a.copy()
    b[0, :3] = np.nan
    compare(lambda xp, x: np.fmax.reduce(x, axis=1), b, device=device)  # NaNs skipped
    compare(lambda xp, x: np.maximum.reduce(x, axis=1, initial=-1.0), np.zeros((0, 3), np.float32), device=device)


def test_reduce_into_out(device, rng):
    a = _pos(rng, (4, 6))
    z = loom.zeros((6,), dtype=loom.float64, device=device)
    assert np.add.reduce(_loom(a, device), out=z) is z
    assert_matches(z, np.add.reduce(a), device=device)
    assert np.maximum.reduce(_loom(a, device), axis=0, initial=0.0, out=z) is z
    assert_matches(z, np.maximum.reduce(a, axis=0, initial=0.0), device=device)


def test_accumulate(device, rng):
    a = random_array(rng, (4, 5), np.float64, low=0.5, high=1.5)
    compare(lambda xp, x: np.multiply.accumulate(x, axis=1), a, device=device)
    compare(lambda xp, x: np.add.accumulate(x), a, device=device)
    compare(lambda xp, x: np.add.accumulate(x, axis=1, dtype=np.float32), a, device=device)
    compare(lambda xp, x: np.add.accumulate(x), random_array(rng, (7,), np.bool_), device=device)  # int64
    z = loom.zeros((4, 5), dtype=loom.float64, device=device)
    assert np.add.accumulate(_loom(a, device), axis=0, out=z) is z
    assert_matches(z, np.add.accumulate(a, axis=0), device=device)


def test_outer(device, rng):
    a, b = random_array(rng, (3, 4), np.float64), random_array(rng, (5,), np.float64)
    compare(lambda xp, x, y: np.maximum.outer(x, y), a, b, device=device)
    compare(lambda xp, x, y: np.subtract.outer(y, x), a, b, device=device)
    compare(lambda xp, y: np.multiply.outer(y, 2.0), b, device=device)


@pytest.mark.parametrize("ufunc", [np.add, np.subtract, np.multiply, np.maximum, np.minimum])
def test_at_updates_in_place_with_repeated_indices(device, rng, ufunc):
    a = random_array(rng, (8,), np.float64, low=0.5, high=2.0)
    idx = np.array([1, 3, 1, 7, 1, 0])
    v = random_array(rng, (6,), np.float64, low=0.5, high=2.0)
    want = a.copy()
    ufunc.at(want, idx, v)
    x = _loom(a, device)
    assert ufunc.at(x, idx, _loom(v, device)) is None
    assert_matches(x, want, device=device)


def test_at_on_a_view_and_with_a_scalar(device, rng):
    a = random_array(rng, (4, 5), np.int32, low=-100, high=100)
    want = a.copy()
    np.add.at(want[1:], (np.array([0, 0, 2]), np.array([4, 4, 1])), 3)
    base = _loom(a, device)
    np.add.at(base[1:], (np.array([0, 0, 2]), np.array([4, 4, 1])), 3)
    assert_matches(base, want, device=device)  # the view's base sees the update, as in NumPy


@pytest.mark.parametrize("call, name", [
    (lambda x: np.subtract.reduce(x), "numpy.subtract.reduce"),
    (lambda x: np.maximum.accumulate(x), "numpy.maximum.accumulate"),
    (lambda x: np.add.reduceat(x, [0, 2]), "numpy.add.reduceat"),
    (lambda x: np.divide.at(x, [0], 2.0), "numpy.divide.at"),
    (lambda x: np.isnat(x), "numpy.isnat"),  # README: loom has no datetime dtypes
    (lambda x: np.polyval([1.0, 2.0], x), "numpy.polyval"),  # README: the legacy polynomial API
    (lambda x: np.array2string(x), "numpy.array2string"),
    (lambda x: np.sin(x, order="F"), "numpy.sin"),
])
def test_what_loom_lacks_raises_naming_it(device, rng, call, name):
    x = _loom(random_array(rng, (4,), np.float64), device)
    with pytest.raises(TypeError, match=name.replace(".", r"\.")):
        call(x)


@pytest.mark.parametrize("fn", [
    lambda x: np.mean(x), lambda x: np.mean(x, axis=1), lambda x: np.sum(x, axis=0, keepdims=True),
    lambda x: np.sum(x, axis=(0, 1)), lambda x: np.linalg.norm(x), lambda x: np.linalg.norm(x, ord=1),
    lambda x: np.fft.fft(x), lambda x: np.transpose(x), lambda x: np.cumsum(x, axis=1),
])
def test_array_function(device, rng, fn):
    compare(lambda xp, x: fn(x), _pos(rng, (4, 6)), device=device)  # positive: sums do not cancel


def test_array_function_several_arrays(device, rng):
    a, b = random_array(rng, (3, 4), np.float32), random_array(rng, (2, 4), np.float32)
    compare(lambda xp, x, y: np.concatenate([x, y]), a, b, device=device)
    compare(lambda xp, x, y: np.concatenate((x, y.T), axis=None), a, b, device=device)
    compare(lambda xp, x, y: np.where(x > 0, x, y), a, a[::-1].copy(), device=device)
    # A NumPy array among loom ones goes to their device, as in loom's ops.
    got = np.concatenate([_loom(a, device), b])
    assert_matches(got, np.concatenate([a, b]), device=device)


def test_like_creates_on_the_like_arrays_device(device, rng):
    x = _loom(random_array(rng, (2,), np.float32), device)
    assert_matches(np.zeros((2, 3), like=x), np.zeros((2, 3)), device=device)
    assert_matches(np.asarray([1.5, 2.5], like=x), np.asarray([1.5, 2.5]), device=device)


def test_metadata_functions(device, rng):
    x = _loom(random_array(rng, (3, 5), np.float64), device)
    assert (np.shape(x), np.ndim(x), np.size(x), np.size(x, 1)) == ((3, 5), 2, 15, 5)


class _Foreign:
    """Another library's array: the protocols must leave it its turn (NotImplemented)."""

    def __array_function__(self, func, types, args, kwargs):
        return ("foreign", func.__name__)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return ("foreign", ufunc.__name__, method)


def test_foreign_types_get_their_turn(device, rng):
    x = _loom(random_array(rng, (3,), np.float64), device)
    assert np.concatenate([x, _Foreign()]) == ("foreign", "concatenate")
    assert np.add(x, _Foreign()) == ("foreign", "add", "__call__")
    assert np.add.reduce(x, out=(_Foreign(),)) == ("foreign", "add", "reduce")


def test_lookup_is_by_name_at_call_time(device, rng, monkeypatch):
    # A function the extension gains later (here: patched in) is found with no edit.
    from loom._numpy import lookup as _numpy_lookup

    x = _loom(random_array(rng, (3,), np.float64), device)
    with pytest.raises(TypeError, match="numpy.polyfit"):
        np.polyfit(x, x, 1)
    monkeypatch.setattr(loom, "polyfit", lambda a, b, deg: a * deg + b, raising=False)
    try:
        assert_matches(np.polyfit(x, x, 3), x.numpy() * 4, device=device)
    finally:
        monkeypatch.undo()
        _numpy_lookup.clear()
    with pytest.raises(TypeError, match="numpy.polyfit"):
        np.polyfit(x, x, 1)


def test_numpy_calls_trace_under_the_transforms(device, rng):
    # The protocols call loom's ops, so jit records them and grad differentiates them.
    a = random_array(rng, (6,), np.float64, low=-2.0, high=2.0)
    x = _loom(a, device)
    assert_matches(loom.jit(lambda v: np.sin(v) * 2 + np.sum(v))(x), np.sin(a) * 2 + np.sum(a), device=device)
    assert_matches(loom.grad(lambda v: np.sum(np.sin(v)))(x), np.cos(a), device=device)


def test_numpy_scalars_are_strong_as_in_numpy_2(device):
    x = loom.asarray(np.ones(3, "float32"), device=device)
    for scalar in (np.float64(2.0), np.complex128(1j), np.float32(2.0), 2.0, 2):
        want = (np.ones(3, "float32") * scalar).dtype
        assert (x * scalar).dtype.name == want.name, (type(scalar), want)
        assert np.multiply(x, scalar).dtype.name == want.name
