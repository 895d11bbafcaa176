"""numpy's column_stack, dstack, hsplit, vsplit, dsplit, append, rot90, kron and the Array
API's unstack, concat, permute_dims and matrix_transpose against NumPy on fresh random data,
on every device, with the errors."""
import numpy as np
import pytest

import loom


def L(x, device):
    return loom.asarray(x, device=device)


def test_column_stack_and_dstack(device, rng):
    a, b = rng.standard_normal(4), rng.standard_normal((4, 2))
    np.testing.assert_array_equal(loom.column_stack([L(a, device), L(b, device)]).numpy(), np.column_stack([a, b]))
    np.testing.assert_array_equal(loom.dstack([L(a, device), L(a, device)]).numpy(), np.dstack([a, a]))
    np.testing.assert_array_equal(loom.dstack([L(b, device), L(2 * b, device)]).numpy(), np.dstack([b, 2 * b]))


@pytest.mark.parametrize("ios", [2, [1, 3], [0, 5]])
def test_h_v_dsplit(device, rng, ios):
    x = rng.standard_normal((4, 4, 4))
    for name in ("hsplit", "vsplit", "dsplit"):
        got = getattr(loom, name)(L(x, device), ios)
        want = getattr(np, name)(x, ios)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g.numpy(), w)
    for g, w in zip(loom.hsplit(L(x[0, 0], device), 2), np.hsplit(x[0, 0], 2)):
        np.testing.assert_array_equal(g.numpy(), w)
    with pytest.raises(ValueError):
        loom.dsplit(L(x[0], device), 2)


def test_append(device, rng):
    a, b = rng.standard_normal((2, 3)), rng.standard_normal((1, 3))
    np.testing.assert_array_equal(loom.append(L(a, device), L(b, device)).numpy(), np.append(a, b))
    np.testing.assert_array_equal(loom.append(L(a, device), L(b, device), axis=0).numpy(), np.append(a, b, axis=0))
    np.testing.assert_array_equal(loom.append(L(a, device), [7.0, 8.0]).numpy(), np.append(a, [7.0, 8.0]))


@pytest.mark.parametrize("k", [-5, -1, 0, 1, 2, 3, 6])
@pytest.mark.parametrize("axes", [None, (1, 0), (0, 2), (-1, 1)])
def test_rot90(device, rng, k, axes):
    x = rng.standard_normal((2, 3, 4))
    kw = {} if axes is None else {"axes": axes}
    np.testing.assert_array_equal(loom.rot90(L(x, device), k, **kw).numpy(), np.rot90(x, k, **kw))
    with pytest.raises(ValueError, match="Axes must be different"):
        loom.rot90(L(x, device), 1, axes=(1, 1))


@pytest.mark.parametrize("sa,sb", [((2, 3), (4, 5)), ((3,), (2, 2)), ((2, 1, 2), (3,)), ((), (2,))])
def test_kron(device, rng, sa, sb):
    a, b = rng.standard_normal(sa), rng.integers(-3, 3, size=sb)
    np.testing.assert_allclose(loom.kron(L(a, device), L(b, device)).numpy(), np.kron(a, b), rtol=1e-15)


def test_array_api_spellings(device, rng):
    x = rng.standard_normal((2, 3, 4))
    parts = loom.unstack(L(x, device), axis=1)
    assert isinstance(parts, tuple) and len(parts) == 3
    np.testing.assert_array_equal(parts[2].numpy(), x[:, 2])
    np.testing.assert_array_equal(loom.concat([L(x, device), L(x, device)], axis=-1).numpy(),
                                  np.concatenate([x, x], axis=-1))
    np.testing.assert_array_equal(loom.concat([L(x, device), L(x, device)], axis=None).numpy(),
                                  np.concatenate([x, x], axis=None))
    np.testing.assert_array_equal(loom.permute_dims(L(x, device), (2, 0, 1)).numpy(), np.transpose(x, (2, 0, 1)))
    np.testing.assert_array_equal(loom.matrix_transpose(L(x, device)).numpy(), np.swapaxes(x, -1, -2))
    with pytest.raises(ValueError):
        loom.matrix_transpose(L(x[0, 0], device))
