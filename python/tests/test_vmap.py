"""loom.vmap (loom/transforms/_vmap.py over loom/transforms/vmap.h), as jax.vmap: for each primitive
family vmap(f) equals f run on each example and stacked, on fresh random data, with
mapped/unmapped arguments and out_axes; the matrix times a batch of vectors is one matmul;
vmap nests with itself and with jit; pytrees of arguments and results; errors."""
import numpy as np
import pytest

import loom
from loom.transforms._vmap import vmap

from conftest import assert_matches, random_array


def as_list(x):
    return list(x) if isinstance(x, (tuple, list)) else [x]


def take(a, axis, i):
    return np.take(a, i, axis=axis) if axis is not None else a


def looped(f, args, in_axes, out_axes, device):
    """f on each example (loom arrays on `device`), stacked with loom.stack on out_axes."""
    size = next(np.shape(a)[ax] for a, ax in zip(args, in_axes) if ax is not None)
    outs = []
    for i in range(size):
        ex = [loom.asarray(np.ascontiguousarray(take(a, ax, i)), device=device) for a, ax in zip(args, in_axes)]
        outs.append(as_list(f(*ex)))
    axes = out_axes if isinstance(out_axes, (tuple, list)) else [out_axes] * len(outs[0])
    return [loom.stack([o[j] for o in outs], axis=axes[j]) for j in range(len(outs[0]))]


def check(f, args, in_axes, out_axes=0, device=None, rtol=1e-5, atol=1e-6):
    device = device or loom.cpu()
    got = as_list(vmap(f, in_axes=tuple(in_axes), out_axes=out_axes)(
        *[loom.asarray(a, device=device) for a in args]))
    want = looped(f, args, in_axes, out_axes, device)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=rtol, atol=atol)


def selu(x):
    return 1.05 * loom.where(x > 0, x, 1.67 * loom.exp(x) - 1.67)


def test_elementwise(rng, device):
    x = random_array(rng, (5, 7), "float32")
    check(selu, [x], [0], device=device)
    check(selu, [x], [1], out_axes=1, device=device)
    a, b, c = (random_array(rng, s, "float32") for s in [(4, 3), (3,), (3, 4)])
    check(lambda a, b, c: a * b + loom.sin(c), [a, b, c], [0, None, 1], device=device)
    check(lambda a, b, c: (a - b, loom.maximum(a, c)), [a, b, c], [0, None, 1], out_axes=(1, 0), device=device)
    i = random_array(rng, (6, 3), "int32", -50, 50)
    check(lambda i: (i // 7, i.astype(loom.float64) * 0.5, i > 3), [i], [0], device=device)


def test_matrix_times_batch_of_vectors_is_one_gemm(rng, device):
    # Unit normals: values spread over decades would make float32 sums cancel, and the GPU's
    # summation order differs from the CPU BLAS's.
    mat, vs = rng.standard_normal((150, 100)).astype(np.float32), rng.standard_normal((10, 100)).astype(np.float32)
    m, v = loom.asarray(mat, device=device), loom.asarray(vs, device=device)
    rec = loom._loom._DispatchRecorder()
    rec.start()
    try:
        out = vmap(lambda m, v: m @ v, in_axes=(None, 0))(m, v)
    finally:
        rec.stop()
    assert [e[0] for e in rec.events()] == ["matmul"]
    np.testing.assert_allclose(out.numpy(), vs @ mat.T, rtol=1e-4, atol=1e-4)
    # Under jit the traced plan holds one matmul too.
    j = loom.jit(vmap(lambda m, v: m @ v, in_axes=(None, 0)))
    np.testing.assert_allclose(j(m, v).numpy(), vs @ mat.T, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("in_axes,shapes", [
    ((None, 1), [(6, 5), (5, 4)]),       # shared matrix, batched vectors as columns
    ((0, None), [(3, 6, 5), (5, 2)]),    # batched rows, shared matrix
    ((0, 0), [(3, 6, 5), (3, 5, 2)]),    # both batched
    ((2, 1), [(6, 5, 3), (5, 3, 2)]),    # both batched on inner axes
    ((None, 2), [(2, 6, 5), (2, 5, 3, 4)]),  # a batched stack of matrices
])
def test_matmul(rng, in_axes, shapes, device):
    args = [random_array(rng, s, "float32", -1, 1) for s in shapes]
    check(lambda a, b: a @ b, args, in_axes, device=device, rtol=1e-4)
    check(lambda a, b: loom.matmul(a, b).T, args, in_axes, out_axes=-1, device=device, rtol=1e-4)


def test_einsum_and_dot(rng, device):
    a, b = random_array(rng, (4, 5), "float64"), random_array(rng, (5, 4), "float64")
    check(lambda a, b: loom.einsum("i,i->", a, b), [a, b], [0, 1], device=device)
    check(lambda a, b: loom.dot(a, b), [a, b], [0, None], device=device)


def test_reductions_and_scans(rng, device):
    x = random_array(rng, (4, 5, 6), "float32")
    f = lambda x: (x.sum(axis=0), loom.max(x), x.mean(axis=1), loom.var(x), loom.std(x, axis=0),
                   loom.argmax(x, axis=1), loom.any(x > 1))
    check(f, [x], [0], device=device, rtol=1e-4)
    check(f, [x], [2], out_axes=(1, 0, 0, 0, 1, 0, 0), device=device, rtol=1e-4)
    g = lambda x: (loom.cumsum(x, axis=1), loom.cumprod(x.T, axis=0))
    check(g, [random_array(rng, (3, 4, 5), "float64", 0.5, 1.5)], [1], device=device)


def test_creation_casts_and_copies(rng, device):
    x = random_array(rng, (3, 4), "float32")
    f = lambda x: (x + loom.arange(4, device=x.device), loom.eye(4, device=x.device) @ x,
                   x * loom.full((4,), 2.5, device=x.device), x.astype(loom.float16),
                   loom.zeros(4, device=x.device) + x.copy(), x + loom.linspace(0, 1, 4, device=x.device))
    check(f, [x], [0], device=device, rtol=1e-3)


def test_sort_repeat_and_shape_ops(rng, device):
    x = random_array(rng, (3, 5, 4), "float32")
    f = lambda x: (loom.sort(x, axis=0), loom.argsort(x), loom.repeat(x, [1, 3, 0], axis=0),
                   loom.concatenate([x, x * 2]), loom.tile(x, 2), x[1:3].T, loom.flip(x, 0))
    check(f, [x], [1], device=device)


def test_indexing_updates_and_searchsorted(rng, device):
    x = random_array(rng, (4, 6), "float32")
    check(lambda x: (x.at[2].add(5.0), x.at[1:3].set(0.5)), [x], [0], device=device)
    check(lambda x: loom.searchsorted(loom.sort(x), x), [x], [0], device=device)


def test_random_with_an_unbatched_key_is_the_same_for_every_example(device):
    key = loom.random.key(3)
    out = vmap(lambda x: x + loom.random.uniform(key, (5,), device=x.device), axis_size=None)(
        loom.zeros((4, 5), device=device))
    o = out.numpy()
    assert np.all(o == o[0]) and np.ptp(o[0]) > 0


def test_unbatched_result_is_broadcast_and_axis_size():
    f = lambda x, y: (loom.exp(y), x)
    e, x = vmap(f, in_axes=(0, None))(np.ones((3, 2), np.float32), np.arange(4.0))
    assert e.shape == (3, 4) and x.shape == (3, 2)
    y = vmap(lambda y: y * 2, in_axes=None, axis_size=5)(np.arange(4.0))
    assert y.shape == (5, 4)
    np.testing.assert_array_equal(y.numpy(), np.tile(np.arange(4.0) * 2, (5, 1)))
    z = vmap(lambda x, y: (x, y * 2), in_axes=(0, None), out_axes=(0, None))(np.ones((3, 2)), np.arange(4.0))
    assert z[1].shape == (4,)


def test_compositions(rng):
    x = random_array(rng, (3, 4, 5), "float32")
    w = random_array(rng, (5,), "float32")
    vv = vmap(vmap(lambda x, w: x * w + 1, in_axes=(0, None)), in_axes=(1, None))
    np.testing.assert_allclose(vv(x, w).numpy(), np.moveaxis(x * w + 1, 1, 0), rtol=1e-6)
    jv = loom.jit(vmap(selu))
    want = selu(loom.asarray(x)).numpy()
    for _ in range(2):
        np.testing.assert_allclose(jv(x).numpy(), want, rtol=1e-6)
    vj = vmap(loom.jit(selu), in_axes=1, out_axes=1)
    np.testing.assert_allclose(vj(x).numpy(), want, rtol=1e-6)
    sums = vmap(vmap(lambda x: x.sum()))(x)
    # atol: five values spread over decades can cancel; float32 rounding in another order
    # is then a large relative error (seen on an H100 machine: 1.5e-5 of -0.57).
    scale = float(np.abs(x).max())
    np.testing.assert_allclose(sums.numpy(), x.sum(axis=2), rtol=1e-5, atol=2.5e-6 * scale)  # (n-1) eps sum|x| for n = 5


def test_pytrees(rng):
    x, y = random_array(rng, (3, 4), "float32"), random_array(rng, (4, 2), "float32")
    f = lambda d, t: {"s": d["a"] * t[0], "p": (d["b"] @ t[1], 2.0)}
    out = vmap(f, in_axes=({"a": 0, "b": None}, (1, None)), out_axes={"s": 1, "p": (0, 0)})(
        {"a": x, "b": y.T}, (x.T, y))
    np.testing.assert_allclose(out["s"].numpy(), (x * x).T, rtol=1e-6)
    assert out["p"][0].shape == (3, 2, 2) and out["p"][1].shape == (3,)
    np.testing.assert_allclose(out["p"][0].numpy(), np.stack([y.T @ y] * 3), rtol=1e-5)
    # Non-array leaves pass through unmapped; keyword arguments map on axis 0.
    g = vmap(lambda x, n, scale=None: x * n * scale, in_axes=(0, None))
    np.testing.assert_allclose(g(x, 3, scale=y[:3, 0]).numpy(), x * 3 * y[:3, 0, None], rtol=1e-6)


def test_errors():
    f = vmap(lambda a, b: a + b)
    with pytest.raises(ValueError, match=r"argument 0 has size 3.*argument 1 has size 4"):
        f(np.ones((3, 2)), np.ones((4, 2)))
    with pytest.raises(ValueError, match="out of range"):
        vmap(selu, in_axes=2)(np.ones((3, 2)))
    with pytest.raises(ValueError, match="axis_size"):
        vmap(selu, in_axes=None)(np.ones(3))
    with pytest.raises(ValueError, match="in_axes"):
        vmap(lambda a, b: a, in_axes=(0,))(np.ones(3), np.ones(3))
    with pytest.raises(ValueError, match="only arrays can be mapped"):
        vmap(lambda a, n: a * n)(np.ones(3), 2)
    with pytest.raises(TypeError, match="in_axes"):
        vmap(selu, in_axes="x")(np.ones(3))


def test_out_axes_none_returns_an_unmapped_result_once_and_refuses_a_mapped_one():
    x, y = np.arange(6.0).reshape(3, 2), np.arange(4.0)
    a, b = vmap(lambda x, y: (x * 2, y + 1), in_axes=(0, None), out_axes=(0, None))(x, y)
    np.testing.assert_array_equal(a.numpy(), x * 2)
    np.testing.assert_array_equal(b.numpy(), y + 1)  # not stacked: one value for every example
    with pytest.raises(ValueError, match=r"out_axes\[0\] is None"):
        vmap(lambda x: x * 2, out_axes=None)(x)


@pytest.mark.parametrize("name", ["sum", "mean0", "max1", "prod", "var1", "std", "norm", "sum01"])
def test_grad_of_a_vmapped_reduction_is_each_examples(name, rng, device):
    """The batched reduction's record keeps its [outer][len][inner] shape, so its derivative
    reduces each example alone (a flat record once summed the whole batch)."""
    f = {"sum": loom.sum, "mean0": lambda x: loom.mean(x, axis=0), "max1": lambda x: loom.max(x, axis=1),
         "prod": loom.prod, "var1": lambda x: loom.var(x, axis=1), "std": loom.std, "norm": loom.linalg.norm,
         "sum01": lambda x: loom.sum(x, axis=(0, 1))}[name]
    xn = rng.standard_normal((5, 3, 4))
    got = loom.grad(lambda xs: loom.sum(loom.sin(loom.vmap(f)(xs))))(loom.asarray(xn, device=device))
    want = np.stack([loom.grad(lambda x: loom.sum(loom.sin(f(x))))(loom.asarray(xn[b], device=device)).numpy()
                     for b in range(5)])
    assert_matches(got, want, device=device, rtol=1e-12)
