"""loom.vmap of the indexing primitives (loom/ops/indexing_batch.cpp, sorting_batch.cpp):
gathers, scatters and .at[] updates, the index offsets and searchsorted equal f run on each
example and stacked, on fresh random data, for every mix of batched and shared source,
indices and values; they compose with jit and grad; and each runs as a fixed number of
dispatches whatever the batch size (no loop over examples)."""
import numpy as np
import pytest

import loom
from loom.transforms._vmap import vmap

from conftest import events_of, random_array
from test_vmap import check


def idx(rng, shape, n):
    """Random indices into an axis of n, negative ones included."""
    return rng.integers(-n, n, size=shape).astype(np.int64)


GATHERS = {
    "x[i]": lambda x, i: x[i],
    "x[:, i]": lambda x, i: x[:, i],
    "x[i, ::-1]": lambda x, i: x[i, ::-1],
    "x[i[0]]": lambda x, i: x[i[0]],
}


@pytest.mark.parametrize("name", list(GATHERS))
@pytest.mark.parametrize("in_axes", [(0, None), (None, 0), (0, 0), (1, 0), (0, 1), (2, None)])
def test_gather(rng, device, name, in_axes):
    f = GATHERS[name]
    x = random_array(rng, (5, 4, 6), "float32")
    if in_axes[0] is not None:
        x = np.moveaxis(random_array(rng, (3, 5, 4, 6), "float32"), 0, in_axes[0])
    n = 4 if "[:," in name else 5
    i = idx(rng, (2, 3), n)
    if in_axes[1] is not None:
        i = np.moveaxis(idx(rng, (3, 2, 3), n), 0, in_axes[1])
    check(f, [x, i], in_axes, device=device)


@pytest.mark.parametrize("in_axes", [(0, None, None), (None, 0, None), (None, None, 0), (None, 0, 1),
                                     (0, 0, None), (1, 0, 0)])
def test_gather_two_index_arrays(rng, device, in_axes):
    shapes = {"x": (5, 6), "i": (4,), "j": (2, 1)}  # i and j broadcast to (2, 4)
    args = []
    for (name, shape), ax, n in zip(shapes.items(), in_axes, [None, 5, 6]):
        a = random_array(rng, shape, "float64") if n is None else idx(rng, shape, n)
        if ax is not None:
            full = (random_array(rng, (3,) + shape, "float64") if n is None else idx(rng, (3,) + shape, n))
            a = np.moveaxis(full, 0, ax)
        args.append(a)
    check(lambda x, i, j: (x[i, j], x[1:4, j] * 2), args, in_axes, device=device)
    # int32 index arrays are converted in the trace: the conversion is batched too.
    args[1], args[2] = args[1].astype(np.int32), args[2].astype(np.int32)
    check(lambda x, i, j: x[i, j], args, in_axes, device=device)


UPDATES = {
    "set": lambda x, i, v: x.at[i].set(v),
    "add": lambda x, i, v: x.at[i].add(v),
    "multiply": lambda x, i, v: x.at[i].multiply(v),
    "min": lambda x, i, v: x.at[i].min(v),
    "max": lambda x, i, v: x.at[i].max(v),
    "add (columns)": lambda x, i, v: x.at[:, i].add(v.T),
    "set (basic)": lambda x, i, v: x.at[1:3].set(v[0]) + i[0],
}
# Where repeated indices would make the GPU's result depend on which write wins.
UNIQUE = ("set", "set (basic)")


@pytest.mark.parametrize("name", list(UPDATES))
@pytest.mark.parametrize("in_axes", [(0, None, None), (None, 0, None), (None, None, 0), (0, 0, 0),
                                     (None, 0, 0), (1, None, 1)])
def test_at_updates(rng, device, name, in_axes):
    def indices():
        return rng.permutation(4)[:3] - 4 * rng.integers(0, 2) if name in UNIQUE else idx(rng, (3,), 4)

    def one(k):  # an example of argument k: x (4, 4), i (3,), v (3, 4)
        return [lambda: random_array(rng, (4, 4), "float32"), indices,
                lambda: random_array(rng, (3, 4), "float32")][k]()

    args = []
    for k, ax in enumerate(in_axes):
        args.append(one(k) if ax is None else np.moveaxis(np.stack([one(k) for _ in range(3)]), 0, ax))
    # Repeated indices add in another order batched than looped (GPU atomics): float32
    # rounding of the summands' size, not of the result's.
    scale = max(float(np.abs(a).max()) for a in args if a.dtype.kind == "f")
    check(UPDATES[name], args, in_axes, device=device, atol=max(1e-6, 4 * float(np.finfo(np.float32).eps) * scale))


def test_setitem_inside_the_function(rng, device):
    def f(x, i, v):
        y = x * 1.0
        y[i] = v
        y[i[::-1], 1] = -v[:, 1]
        return y

    x, v = random_array(rng, (3, 6, 4), "float32"), random_array(rng, (3, 2, 4), "float32")
    i = np.stack([rng.permutation(6)[:2] for _ in range(3)]).astype(np.int64)
    for in_axes in [(0, 0, 0), (None, 0, None), (0, None, 0), (None, None, 0)]:
        args = [a if ax is not None else a[0] for a, ax in zip([x, i, v], in_axes)]
        check(f, args, in_axes, device=device)


def test_writing_a_batched_value_into_a_shared_array_batches_it(rng, device):
    # x is not mapped, but each example writes its own v into it: every example gets a copy.
    x, v = random_array(rng, (6,), "float32"), random_array(rng, (4, 2), "float32")
    i = np.array([1, -2])
    check(lambda x, v: x.at[i].set(v), [x, v], [None, 0], device=device)
    check(lambda x, v: loom.maximum(x, 0).at[i].add(v), [x, v], [None, 0], device=device)


@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("in_axes", [(None, 0), (0, None), (0, 0), (1, 1)])
def test_searchsorted(rng, device, side, in_axes):
    a = np.sort(rng.integers(-5, 5, size=(4, 7)).astype(np.float32), axis=1)  # repeated values
    a[:, -1] = np.nan  # NaN sorts last
    v = rng.integers(-6, 6, size=(4, 3, 2)).astype(np.float32)
    v[0, 0, 0], v[1, 2, 1] = np.nan, -0.0
    args = [a if in_axes[0] is not None else a[0], v if in_axes[1] is not None else v[0]]
    args = [np.moveaxis(x, 0, ax) if ax else x for x, ax in zip(args, in_axes)]
    f = lambda a, v: loom.searchsorted(a, v, side=side)
    check(f, args, in_axes, device=device)
    ints = [np.where(np.isnan(x), 100, x).astype(np.int32) for x in args]  # a stays sorted
    check(f, ints, in_axes, device=device)


@pytest.mark.parametrize("case", ["gather", "gather2", "at_add", "setitem", "searchsorted_v", "searchsorted_a"])
def test_one_dispatch_whatever_the_batch_size(rng, device, case):
    """The ops dispatched do not depend on the batch size: no loop over examples."""
    fs = {
        "gather": (lambda x, i: x[i] * 2, (5, 4), (3,), (0, 0)),
        "gather2": (lambda x, i: x[i, i], (5, 5), (3,), (None, 0)),
        "at_add": (lambda x, i: x.at[i].add(1.0), (5, 4), (3,), (0, 0)),
        "setitem": (lambda x, i: x.at[i].set(x[0]), (5, 4), (3,), (0, None)),
        "searchsorted_v": (lambda a, v: loom.searchsorted(a, v), (5,), (3,), (None, 0)),
        "searchsorted_a": (lambda a, v: loom.searchsorted(a, v), (5,), (3,), (0, 0)),
    }
    f, xs, ishape, in_axes = fs[case]
    runs = []
    for size in (2, 7):
        x = np.sort(random_array(rng, ((size,) if in_axes[0] == 0 else ()) + xs, "float32"), axis=-1)
        i = idx(rng, ((size,) if in_axes[1] == 0 else ()) + ishape, 5)
        if case.startswith("searchsorted"):
            i = i.astype(np.float32)
        lx, li = loom.asarray(x, device=device), loom.asarray(i, device=device)
        names, out = events_of(vmap(f, in_axes=in_axes), lx, li)
        assert out.shape[0] == size
        want = looped_numpy(f, [x, i], in_axes, device)
        np.testing.assert_array_equal(out.numpy(), want)
        runs.append(names)
    assert runs[0] == runs[1]
    assert sum(n in ("getitem", "setitem", "at", "searchsorted") for n in runs[0]) <= 2, runs[0]


def looped_numpy(f, args, in_axes, device):
    size = next(a.shape[0] for a, ax in zip(args, in_axes) if ax == 0)
    return np.stack([f(*[loom.asarray(a[b] if ax == 0 else a, device=device) for a, ax in zip(args, in_axes)]).numpy()
                     for b in range(size)])


def test_under_jit_the_plan_holds_one_gather(rng):
    x, i = random_array(rng, (4, 6, 3), "float32"), idx(rng, (4, 5), 6)
    g = vmap(lambda x, i: x[i] + 1.0)
    j = loom.jit(g)
    want = np.stack([x[b][i[b]] + 1 for b in range(4)])
    for _ in range(2):
        np.testing.assert_array_equal(j(x, i).numpy(), want)
    names, _ = events_of(j, loom.asarray(x), loom.asarray(i))
    assert names.count("getitem") == 2, names  # the offsets and the gather, once each
    # vmap of a jitted function, and vmap of vmap.
    np.testing.assert_array_equal(vmap(loom.jit(lambda x, i: x[i] + 1.0))(x, i).numpy(), want)
    xx, ii = random_array(rng, (2, 3, 6, 3), "float32"), idx(rng, (2, 3, 5), 6)
    vv = vmap(vmap(lambda x, i: x[i]))(xx, ii).numpy()
    np.testing.assert_array_equal(vv, np.stack([np.stack([xx[a, b][ii[a, b]] for b in range(3)]) for a in range(2)]))


def test_per_example_gradients_of_a_gather(rng, device):
    x, w = random_array(rng, (4, 6), "float64"), random_array(rng, (6,), "float64")
    i = np.stack([idx(rng, (5,), 6) for _ in range(4)])

    def loss(w, x, i):
        return (loom.tanh(x[i] * w[i]) ** 2).sum() + w.at[i[:2]].multiply(x[:2]).sum()

    g = vmap(loom.grad(loss), in_axes=(None, 0, 0))(loom.asarray(w, device=device), loom.asarray(x, device=device),
                                                      loom.asarray(i, device=device))
    want = [loom.grad(loss)(*(loom.asarray(a, device=device) for a in (w, x[b], i[b]))).numpy() for b in range(4)]
    np.testing.assert_allclose(g.numpy(), np.stack(want), rtol=1e-12, atol=1e-12)
    # jit(vmap(grad)) too.
    jg = loom.jit(vmap(loom.grad(loss), in_axes=(None, 0, 0)))
    np.testing.assert_allclose(jg(w, x, i).numpy(), np.stack(want), rtol=1e-12, atol=1e-12)


def test_nested_vmap_of_updates_and_searchsorted(rng, device):
    x, i = random_array(rng, (2, 3, 6), "float32"), idx(rng, (2, 3, 4), 6)
    got = vmap(vmap(lambda x, i: x.at[i].add(1.0)))(loom.asarray(x, device=device), loom.asarray(i, device=device))
    want = x.copy()
    for a in range(2):
        for b in range(3):
            np.add.at(want[a, b], i[a, b], 1.0)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)
    a, v = np.sort(random_array(rng, (2, 3, 5), "float32"), axis=-1), random_array(rng, (2, 3, 4), "float32")
    got = vmap(vmap(loom.searchsorted), in_axes=(0, 1))(a, np.moveaxis(v, 1, 0))
    np.testing.assert_array_equal(got.numpy(), np.stack([np.stack([np.searchsorted(a[p, q], v[p, q])
                                                                    for q in range(3)]) for p in range(2)]))


def test_every_index_array_is_an_input_of_the_offsets():
    # The second index array is an intermediate that only the offsets read: jit must keep it.
    x, i, j = np.arange(20.0).reshape(4, 5), np.array([0, 1, -1]), np.array([4, 3, 2])
    f = lambda x, i, j: x[i, j * 1 + 0]
    np.testing.assert_array_equal(loom.jit(f)(x, i, j).numpy(), x[i, j])
