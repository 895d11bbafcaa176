"""ravel and flatten with order='K' (the elements as they lie in memory), against NumPy on
every device: transposed, strided, reversed, Fortran and broadcast layouts, views vs copies."""
import numpy as np
import pytest

import loom
from conftest import compare, random_array
from test_shape_ops import shares_memory


def test_ravel_flatten_in_memory_order(device, rng):
    """order='K': the axes by decreasing stride, each in its own direction; a view where the
    elements lie contiguously that way (a transposed array), a copy otherwise."""
    b = random_array(rng, (2, 3, 4), "float32")
    views = [lambda xp, x: x.transpose(2, 0, 1), lambda xp, x: x[:, ::2, :], lambda xp, x: x[::-1],
             lambda xp, x: x.transpose(1, 2, 0)[:, ::-1], lambda xp, x: xp.asfortranarray(x),
             lambda xp, x: x[:, :, ::-1].transpose(2, 1, 0), lambda xp, x: x[:, :1, :]]
    for view in views:
        compare(lambda xp, x: view(xp, x).ravel("K"), b, device=device)
        compare(lambda xp, x: view(xp, x).flatten("K"), b, device=device)
    # broadcast axes (zero strides) keep their C-order place, as NumPy's iterator orders them
    for base, shape in (((4, 1), (3, 4, 2)), ((2, 1), (3, 2, 4)), ((1, 4), (2, 3, 4))):
        src = random_array(rng, base, "float32")
        compare(lambda xp, s: xp.broadcast_to(s, shape).ravel("K"), src, device=device)
        compare(lambda xp, s: xp.broadcast_to(s.T, shape[::-1]).ravel("K"), src, device=device)
    x = loom.asarray(b, device=device)
    assert shares_memory(x.transpose(2, 0, 1).ravel("K"), x) and not shares_memory(x[::-1].ravel("K"), x)
    with pytest.raises(ValueError, match="not permitted for reshaping"):
        x.reshape((4, 6), order="K")

