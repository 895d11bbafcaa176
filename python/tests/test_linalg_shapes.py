"""numpy.linalg's shape errors and lstsq's rank type on loom (python/loom/_numpy/linalg_shapes.py):
LinAlgError for fewer than two dimensions or non-square stacks, compared with NumPy on fresh
random data."""
import inspect

import numpy as np
import pytest

import loom
from conftest import compare, random_array

SQUARE = ["eig", "eigvals", "eigh", "eigvalsh", "inv", "det", "slogdet", "cholesky"]


@pytest.mark.parametrize("name", SQUARE)
@pytest.mark.parametrize("shape", [(), (3,), (3, 4), (2, 2, 3), (0, 2, 3), (4, 0)])
def test_non_square_raises_linalg_error(dev, rng, name, shape):
    a = random_array(rng, shape, "float64")
    compare(lambda xp, x: getattr(xp.linalg, name)(x), a, device=dev)


def test_solve_of_a_non_square_matrix(dev, rng):
    a, b = random_array(rng, (3, 4), "float64"), random_array(rng, (3,), "float64")
    compare(lambda xp, x, y: xp.linalg.solve(x, y), a, b, device=dev)


@pytest.mark.parametrize("name", SQUARE)
def test_square_input_still_computes(dev, rng, name):
    a = random_array(rng, (2, 3, 3), "float64")
    a = a @ np.swapaxes(a, -1, -2) + 3 * np.eye(3)  # Hermitian positive definite: every function applies
    got = getattr(loom.linalg, name)(loom.asarray(a, device=dev))
    want = getattr(np.linalg, name)(a)
    if name in ("eigvalsh", "det", "inv", "cholesky"):
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-10)


@pytest.mark.parametrize("shape_a, shape_b", [((5, 3), (5,)), ((4, 4), (4, 2)), ((0, 0), (0,)), ((3, 0), (3, 2))])
def test_lstsq_rank_is_numpys_int32(dev, rng, shape_a, shape_b):
    a, b = random_array(rng, shape_a, "float64"), random_array(rng, shape_b, "float64")
    x, res, rank, s = loom.linalg.lstsq(loom.asarray(a, device=dev), loom.asarray(b, device=dev), None)
    wx, wres, wrank, ws = np.linalg.lstsq(a, b, rcond=None)
    assert type(rank) is type(wrank) and rank == wrank
    np.testing.assert_allclose(x.numpy(), wx, rtol=1e-8, atol=1e-12)


def test_signatures_are_numpys():
    assert list(inspect.signature(loom.linalg.eigh).parameters) == ["a", "UPLO"]
    assert inspect.signature(loom.linalg.cholesky).parameters["upper"].kind is inspect.Parameter.KEYWORD_ONLY
    assert loom.linalg.eig.__module__ == "loom.linalg"
