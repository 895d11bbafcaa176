"""numpy.einsum's full call on loom (python/loom/_numpy/einsum.py): the interleaved form, and
out=, dtype=, order=, casting= and optimize=, compared with NumPy on fresh random data."""
import inspect

import numpy as np
import pytest

import loom
from conftest import assert_matches, compare, random_array

CASES = [("ij,jk->ik", [(3, 4), (4, 5)]), ("i,i", [(6,), (6,)]), ("ij->", [(3, 4)]), ("ii->i", [(4, 4)]),
         ("ij,jk,kl", [(2, 3), (3, 4), (4, 2)]), ("bij,bjk->bik", [(2, 3, 4), (2, 4, 2)]), ("", [()]),
         ("->", [()]), ("...ij->...ji", [(2, 3, 4)])]


def _ops(rng, shapes, dtype="float64"):
    return [random_array(rng, s, dtype) for s in shapes]


@pytest.mark.parametrize("optimize", [False, True, "greedy", "optimal", ("greedy", 0),
                                      ["einsum_path", (0, 1), (0, 1)]])
@pytest.mark.parametrize("subscripts, shapes", CASES)
def test_optimize_does_not_change_the_result(device, rng, subscripts, shapes, optimize):
    if isinstance(optimize, list) and len(shapes) != 3:
        optimize = ["einsum_path", (0,)] if len(shapes) == 1 else ["einsum_path", (0, 1)]
    compare(lambda xp, *xs: xp.einsum(subscripts, *xs, optimize=optimize), *_ops(rng, shapes), device=device,
            rtol=1e-12)


def test_optimize_of_an_unknown_kind_raises(device, rng):
    a = loom.asarray(random_array(rng, (2, 2), "float32"), device=device)
    with pytest.raises(TypeError, match="einsum"):
        loom.einsum("ij", a, optimize="fastest")


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128", "int64", "float16"])
@pytest.mark.parametrize("subscripts, shapes", [("ij,jk->ik", [(3, 4), (4, 2)]), ("ij->", [(3, 4)]),
                                                ("ii", [(3, 3)]), ("ij->ji", [(2, 3)]), ("->", [()])])
def test_dtype_casts_the_operands_as_numpy(device, rng, subscripts, shapes, dtype):
    ops = _ops(rng, shapes, "int8") if dtype != "float16" else _ops(rng, shapes, "bool")
    compare(lambda xp, *xs: xp.einsum(subscripts, *xs, dtype=dtype), *ops, device=device, rtol=1e-3)


def test_dtype_that_the_casting_rule_refuses_raises_type_error(device, rng):
    ops = _ops(rng, [(3, 4)], "float64")
    compare(lambda xp, x: xp.einsum("ij->", x, dtype="int8"), *ops, device=device)
    compare(lambda xp, x: xp.einsum("ij->", x, dtype="int8", casting="unsafe"), *ops, device=device)


@pytest.mark.parametrize("subscripts", ["->", ""])
@pytest.mark.parametrize("value", [2, 2.5])
def test_python_scalar_operands(device, subscripts, value):
    with loom.device(device):
        got = loom.einsum(subscripts, value, dtype="float32")
    assert_matches(loom.asarray(got), np.asarray(np.einsum(subscripts, value, dtype="float32")))


def test_out_receives_the_result(device, rng):
    a, b = _ops(rng, [(3, 4), (4, 5)], "float32")

    def run(xp, x, y):
        out = xp.zeros((3, 5), dtype="float64")
        r = xp.einsum("ij,jk->ik", x, y, out=out)
        assert r is out
        return out
    compare(run, a, b, device=device, rtol=1e-5)
    # float64 into float32 is not 'safe'.
    compare(lambda xp, x, y: xp.einsum("ij,jk", x.astype("float64"), y, out=xp.zeros((3, 5), dtype="float32")),
            a, b, device=device)


@pytest.mark.parametrize("order", ["C", "F"])
def test_order_lays_the_result_out(device, rng, order):
    a = loom.asarray(random_array(rng, (3, 4), "float64"), device=device)
    r = loom.einsum("ij->ji", a, order=order)
    assert r.flags.c_contiguous if order == "C" else r.flags.f_contiguous
    np.testing.assert_array_equal(r.numpy(), a.numpy().T)


@pytest.mark.parametrize("args", [([0, 1], [1, 2], [0, 2]), ([0, 1], [1, 2], None), ([Ellipsis, 26], [26, 51], [51]),
                                  ([0, 0], None, [0])])
def test_interleaved_form(device, rng, args):
    sub_a, sub_b, sub_out = args
    a = random_array(rng, (3, 3), "float64")
    b = random_array(rng, (3, 3), "float64")
    if sub_b is None:
        compare(lambda xp, x: xp.einsum(x, sub_a, sub_out), a, device=device, rtol=1e-12)
    elif sub_out is None:
        compare(lambda xp, x, y: xp.einsum(x, sub_a, y, sub_b), a, b, device=device, rtol=1e-12)
    else:
        compare(lambda xp, x, y: xp.einsum(x, sub_a, y, np.array(sub_b), sub_out), a, b, device=device, rtol=1e-12)


@pytest.mark.parametrize("args", [(), ("",), (0, 0), ("i,i",), ("", 0, 0)])
def test_call_errors_are_numpys(device, args):
    compare(lambda xp: xp.einsum(*args), device=device)


@pytest.mark.parametrize("sub", [[None], [0, 1], [Ellipsis, 0, Ellipsis], [52], [-1]])
def test_interleaved_errors_are_numpys(device, rng, sub):
    compare(lambda xp, x: xp.einsum(x, sub), random_array(rng, (2,), "float32"), device=device)


def test_signature_is_inspectable_and_numpy_dispatches(device, rng):
    params = inspect.signature(loom.einsum).parameters
    assert list(params)[1:] == ["out", "dtype", "order", "casting", "optimize"]
    # Values in [1, 2): positive sums have no cancellation, so an element-wise rtol holds
    # whatever order NumPy's optimized path and loom add the products in.
    a = random_array(rng, (3, 3), "float32", 1.0, 2.0)
    if device == loom.cpu():
        got = np.einsum("ij,jk", loom.asarray(a, device=device), loom.asarray(a, device=device), optimize=True)
        assert_matches(got, np.einsum("ij,jk", a, a), rtol=1e-5)
