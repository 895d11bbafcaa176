"""loom.scipy.special's distribution functions (bdtr, chdtr, fdtr, gdtr, nbdtr, pdtr, their
complements and inverses) and gammaincinv, gammainccinv, betaincinv against scipy.special on
fresh random arguments, on every device: values, SciPy's dtypes for every argument dtype (its
loop order), its edge values and NaNs outside the domain."""
import itertools

import numpy as np
import pytest
import scipy.special as ss

import loom
from loom.scipy import special as ls
from scipy_compare import check

# SciPy warns on float counts (its deprecated non-integer n, truncated k); the values compare.
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::RuntimeWarning")


def _draw(rng, kind, shape):
    if kind == "p":
        return rng.uniform(0.02, 0.98, shape)
    if kind == "count":
        return rng.integers(0, 30, shape).astype(np.float64)
    return rng.uniform(0.2, 25.0, shape)


# (name, kinds of the arguments)
CASES = [("chdtr", "xx"), ("chdtrc", "xx"), ("chdtri", "xp"), ("pdtr", "cx"), ("pdtrc", "cx"), ("pdtri", "cp"),
         ("gdtr", "xxx"), ("gdtrc", "xxx"), ("fdtr", "xxx"), ("fdtrc", "xxx"), ("fdtri", "xxp"),
         ("nbdtr", "ccp"), ("nbdtrc", "ccp"), ("nbdtri", "ccp"),
         ("gammaincinv", "xp"), ("gammainccinv", "xp"), ("betaincinv", "xxp")]


@pytest.mark.parametrize("name, kinds", CASES, ids=[c[0] for c in CASES])
def test_values_against_scipy(device, rng, name, kinds):
    kind_of = {"x": "x", "p": "p", "c": "count"}
    args = [_draw(rng, kind_of[k], (4, 25)) for k in kinds]
    if name.startswith("nbdtr"):
        args[1] += 1  # n >= 1
    got = getattr(ls, name)(*[loom.asarray(a, device=device) for a in args])
    check(got, getattr(ss, name)(*args), device=device, rtol=1e-9)


@pytest.mark.parametrize("name", ["bdtr", "bdtrc", "bdtri"])
def test_binomial_against_scipy(device, rng, name):
    n = rng.integers(1, 60, (30,)).astype(np.float64)
    k = np.floor(rng.uniform(0, 1, 30) * n)
    p = rng.uniform(0.01, 0.99, 30)
    got = getattr(ls, name)(*[loom.asarray(a, device=device) for a in (k, n, p)])
    check(got, getattr(ss, name)(k, n, p), device=device, rtol=1e-9)


EDGES = {
    "chdtr": [(1, 0), (0.7, np.inf), (1, -1)], "chdtri": [(1, 1), (1, 0), (0, 0.5), (1, 1.5)],
    "pdtr": [(2, 0), (-1, 1), (1, -1)], "pdtrc": [(2, 0)], "pdtri": [(0, 0.5), (1, 0), (1, 1), (-1, 0.5)],
    "gdtr": [(1, 1, 0), (1, 1, np.inf), (-1, 1, 2), (1, 1, -1)], "gdtrc": [(1, 1, 0)],
    "fdtr": [(1, 1, np.inf), (0, 1, 1), (1e-6, 5, 10)], "fdtrc": [(1, 1, 0), (2, 0.1, 1e10)],
    # (21.2, 0.276, 0.962): the root is near w = 1 in the upper tail, where only the lower
    # tail's solve is free of cancellation.
    "fdtri": [(0.1, 1, 0.8756751669632106), (1, 1, 1), (0, 1, 0.5), (21.226, 0.2757, 0.9618)],
    "bdtr": [(1, 1, 0.5), (3, 2, 0.5), (-1, 2, 0.5), (0, 3, 0.3)], "bdtrc": [(1, 3, 0.5), (-1, 3, 0.5), (0, 3, 0.3)],
    "bdtri": [(1, 3, 0.5), (0, 3, 0.5), (0, 3, 0.9), (3, 3, 0.5)],
    "nbdtr": [(1, 1, 1), (1, 0, 0.5)], "nbdtrc": [(1, 1, 1)], "nbdtri": [(1, 1, 1), (1, 0, 0), (1, 0, 0.5)],
    "gammaincinv": [(0, 0.5), (0, 1), (1, 0), (2, 1), (-1, 0.5), (1, 1.2)],
    "gammainccinv": [(0, 0.5), (0, 1), (1, 0), (2, 1)], "betaincinv": [(1, 1, 1), (1, 1, 0), (0, 1, 0.5), (1, np.inf, 0.3)],
}


@pytest.mark.parametrize("name", sorted(EDGES))
def test_edges_and_domain_as_scipy(device, name):
    for args in EDGES[name]:
        with np.errstate(all="ignore"):
            want = getattr(ss, name)(*[np.float64(a) for a in args])
        got = getattr(ls, name)(*[loom.asarray(np.float64(a), device=device) for a in args])
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-9, err_msg=f"{name}{args}")


@pytest.mark.parametrize("name", ["chdtr", "gdtr", "pdtri", "nbdtr", "gammaincinv", "betaincinv", "bdtri"])
def test_dtypes_follow_scipys_loops(device, name):
    """NumPy's choice among SciPy's loops: an exact match, else the first safe one ('f' or 'd'
    first, 'l' loops for integers) — float16 gives float32 or float64 by the function."""
    nin = getattr(ss, name).nin
    for dts in itertools.product([np.float16, np.int8, np.int64, np.float32, np.float64], repeat=nin):
        args = [np.full(2, 0.5 if np.dtype(dt).kind == "f" else 1, dt) for dt in dts]
        with np.errstate(all="ignore"):
            want = getattr(ss, name)(*args)
        got = getattr(ls, name)(*[loom.asarray(a, device=device) for a in args])
        assert got.dtype.name == want.dtype.name, (name, dts)


def test_complex_arguments_are_refused_as_scipy(device):
    z = loom.asarray(np.array([0.5 + 1j]), device=device)
    with pytest.raises(TypeError, match="chdtr"):
        ls.chdtr(z, z)
    with pytest.raises(TypeError):
        ss.chdtr(np.array([0.5 + 1j]), np.array([0.5 + 1j]))
