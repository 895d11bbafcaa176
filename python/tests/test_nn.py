"""loom.nn modules: registration and traversal, state_dict round trips, devices, modes, the
layers against NumPy float64 references, their gradients against central finite
differences in float64, PyTorch's default initialisations, and modules as pytrees under
loom.jit and nn.value_and_grad. On cpu() and each GPU where a device is involved."""
import math

import numpy as np
import pytest

import loom
from conftest import central_differences as num_grad
from loom import nn


def f64(rng, *shape):
    return rng.standard_normal(shape)


def arr(x, device=None):
    return loom.asarray(np.asarray(x), device=device)


class TwoLayer(nn.Module):
    def __init__(self, dtype=None):
        super().__init__()
        self.hidden = nn.Linear(4, 5, dtype=dtype)
        self.out = nn.Linear(5, 2, dtype=dtype)
        self.scale = loom.ones((2,), dtype=dtype or loom.float32)
        self.register_buffer("count", loom.zeros((), dtype=loom.int64))

    def forward(self, x):
        return self.out(nn.relu(self.hidden(x))) * self.scale


# ---- registration, traversal, state ------------------------------------------------------------

def test_attributes_register_in_order_and_shared_ones_once():
    m = TwoLayer()
    assert [n for n, _ in m.named_parameters()] == ["scale", "hidden.weight", "hidden.bias", "out.weight", "out.bias"]
    assert [n for n, _ in m.named_buffers()] == ["count"]
    assert m.children() == [m.hidden, m.out] and m.modules() == [m, m.hidden, m.out]
    assert list(m.state_dict()) == ["scale", "hidden.weight", "hidden.bias", "out.weight", "out.bias", "count"]
    shared = nn.Sequential(m.hidden, nn.ReLU(), m.hidden.__class__(5, 5))
    shared.tied = shared[0]
    assert len(shared.parameters()) == 4  # the tied Linear once
    m.scale = 3  # a plain attribute now: no longer a parameter
    assert "scale" not in dict(m.named_parameters()) and m.scale == 3
    with pytest.raises(AttributeError, match="super"):
        class Bad(nn.Module):
            def __init__(self):
                self.w = loom.ones(2)
        Bad()


def test_state_dict_round_trip_and_errors(rng):
    loom.random.seed(1)
    a = TwoLayer()
    loom.random.seed(2)
    b = TwoLayer()
    x = arr(f64(rng, 3, 4).astype(np.float32))
    assert not np.allclose(a(x).numpy(), b(x).numpy())
    saved = {k: v.numpy().copy() for k, v in a.state_dict().items()}  # NumPy arrays load too
    b.load_state_dict(saved)
    np.testing.assert_array_equal(a(x).numpy(), b(x).numpy())
    with pytest.raises(KeyError, match="missing"):
        b.load_state_dict({k: v for k, v in saved.items() if k != "count"})
    with pytest.raises(ValueError, match="shape"):
        b.load_state_dict(dict(saved, scale=np.ones(3, np.float32)))
    b.load_state_dict({"scale": np.full(2, 2.0, np.float32)}, strict=False)
    np.testing.assert_array_equal(b.scale.numpy(), [2, 2])


def test_train_eval_and_jit_retraces_on_the_mode(rng):
    m = TwoLayer()
    assert all(x.training for x in m.modules())
    assert m.eval() is m and not any(x.training for x in m.modules())
    f = loom.jit(lambda model, x: model(x).sum())
    x = arr(f64(rng, 3, 4).astype(np.float32))
    f(m, x)
    f(m, x)
    assert f._cache_size == 1
    m.train()
    f(m, x)
    assert f._cache_size == 2


def test_to_moves_every_array_and_a_mismatch_names_both_devices(gpu, rng):
    m = TwoLayer()
    assert m.to(gpu) is m
    assert all(a.device == gpu for a in m.state_dict().values())
    assert m.hidden.weight.device == gpu and m.device == gpu
    x = arr(f64(rng, 3, 4).astype(np.float32), loom.cpu())
    with pytest.raises(loom.DeviceMismatchError) as e:
        m(x)
    assert "cpu" in str(e.value) and "gpu" in str(e.value)
    np.testing.assert_allclose(m(x.to(gpu)).numpy(), m.to(loom.cpu())(x).numpy(), rtol=1e-5, atol=1e-6)


def test_pytree_unflatten_is_a_functional_copy(rng):
    m = TwoLayer()
    leaves, tree = loom.tree_flatten(m)
    assert len(leaves) == 6
    doubled = loom.tree_unflatten(tree, [a * 2 if a.dtype == loom.float32 else a for a in leaves])
    assert type(doubled) is TwoLayer and doubled is not m
    np.testing.assert_array_equal(doubled.hidden.weight.numpy(), 2 * m.hidden.weight.numpy())
    assert doubled.hidden is not m.hidden


# ---- layers against NumPy ----------------------------------------------------------------------

def check_grad(module, x, rng):
    """The gradient of sum(module(x) * w) in the input and in every parameter, against central
    differences, all float64."""
    dev = module.device or loom.default_device()
    w = arr(f64(rng, *module(arr(x, dev)).shape), dev)
    names = [n for n, _ in module.named_parameters()]

    def loss(m, xx):
        return loom.sum(m(xx) * w)
    value, grads = nn.value_and_grad(module, loss)(module, arr(x, dev))
    # A copy: a module's forward may replace buffers (BatchNorm), which must not keep tracers.
    gx = loom.grad(lambda xx: loss(module._with_arrays(list(module.state_dict().values())), xx))(arr(x, dev))
    np.testing.assert_allclose(gx.numpy(), num_grad(lambda v: float(loss(module, arr(v, dev)).numpy()), x),
                               rtol=1e-6, atol=1e-7)
    for n in names:
        p0 = dict(module.named_parameters())[n].numpy()

        def at(v, n=n):
            return float(loss(module._with_arrays(
                [arr(v, dev) if k == n else a for k, a in module.state_dict().items()]), arr(x, dev)).numpy())
        np.testing.assert_allclose(grads[n].numpy(), num_grad(at, p0), rtol=1e-6, atol=1e-7, err_msg=n)


def test_linear_forward_and_gradients(device, rng):
    lin = nn.Linear(4, 3, dtype=loom.float64, device=device)
    x = f64(rng, 2, 5, 4)
    want = x @ lin.weight.numpy().T + lin.bias.numpy()
    np.testing.assert_allclose(lin(arr(x, device)).numpy(), want, rtol=1e-12)
    assert nn.Linear(4, 3, bias=False).bias is None
    with pytest.raises(ValueError, match="4 features"):
        lin(arr(f64(rng, 2, 5), device))
    if device == loom.cpu():
        check_grad(lin, x, rng)


def test_lazy_linear_takes_its_input_size(device, rng):
    lazy = nn.LazyLinear(6)
    x = arr(f64(rng, 3, 7), device)
    y = lazy(x)
    assert lazy.in_features == 7 and lazy.weight.shape == (6, 7) and y.shape == (3, 6)
    assert lazy.weight.device == device and lazy.weight.dtype == loom.float64
    np.testing.assert_allclose(y.numpy(), x.numpy() @ lazy.weight.numpy().T + lazy.bias.numpy(), rtol=1e-12)


def test_layer_norm_flatten_embedding_activations(device, rng):
    x = f64(rng, 2, 3, 4)
    ln = nn.LayerNorm((3, 4), dtype=loom.float64, device=device)
    ln.weight = arr(f64(rng, 3, 4), device)
    ln.bias = arr(f64(rng, 3, 4), device)
    mu = x.mean(axis=(1, 2), keepdims=True)
    var = x.var(axis=(1, 2), keepdims=True)
    want = (x - mu) / np.sqrt(var + 1e-5) * ln.weight.numpy() + ln.bias.numpy()
    np.testing.assert_allclose(ln(arr(x, device)).numpy(), want, rtol=1e-10, atol=1e-12)
    assert nn.Flatten()(arr(x, device)).shape == (2, 12)
    assert nn.Flatten(0, 1)(arr(x, device)).shape == (6, 4)
    emb = nn.Embedding(10, 3, dtype=loom.float64, device=device)
    idx = np.array([[1, 9], [0, 1]])
    np.testing.assert_array_equal(emb(arr(idx, device)).numpy(), emb.weight.numpy()[idx])
    with pytest.raises(TypeError, match="integers"):
        emb(arr(x, device))
    xa = arr(x, device)
    np.testing.assert_allclose(nn.ReLU()(xa).numpy(), np.maximum(x, 0))
    e = np.exp(-np.abs(x * 300))  # the stable form: 1/(1+exp(720)) would be 0, not the subnormal
    np.testing.assert_allclose(nn.Sigmoid()(xa * 300).numpy(), np.where(x >= 0, 1 / (1 + e), e / (1 + e)), rtol=1e-12)
    np.testing.assert_allclose(nn.Tanh()(xa).numpy(), np.tanh(x), rtol=1e-12)
    erf = np.vectorize(math.erf)
    np.testing.assert_allclose(nn.GELU()(xa).numpy(), 0.5 * x * (1 + erf(x / math.sqrt(2))), rtol=1e-12)
    tanh_form = 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))
    np.testing.assert_allclose(nn.GELU("tanh")(xa).numpy(), tanh_form, rtol=1e-12)


@pytest.mark.parametrize("make", [lambda: nn.LayerNorm(4, dtype=loom.float64), lambda: nn.GELU(),
                                  lambda: nn.Sigmoid(), lambda: nn.Sequential(nn.Linear(4, 4, dtype=loom.float64),
                                                                              nn.Tanh())])
def test_layer_gradients(make, rng):
    check_grad(make(), f64(rng, 3, 4), rng)


def test_default_initialisations_follow_pytorch():
    loom.random.seed(3)
    lin = nn.Linear(400, 300)
    w, b = lin.weight.numpy(), lin.bias.numpy()
    bound = 1 / math.sqrt(400)
    assert w.dtype == np.float32 and np.abs(w).max() <= bound and np.abs(b).max() <= bound
    assert abs(w.mean()) < 0.02 * bound and abs(w.var() / (bound ** 2 / 3) - 1) < 0.02
    emb = nn.Embedding(300, 400).weight.numpy()
    assert abs(emb.mean()) < 0.01 and abs(emb.std() - 1) < 0.01


def test_value_and_grad_of_a_model_under_jit(device, rng):
    net = nn.Sequential(nn.Linear(4, 8, dtype=loom.float64, device=device), nn.GELU(),
                        nn.Linear(8, 2, dtype=loom.float64, device=device))
    x, y = arr(f64(rng, 6, 4), device), arr(f64(rng, 6, 2), device)

    def loss_fn(model, x, y):
        return loom.mean((model(x) - y) ** 2)
    vg = nn.value_and_grad(net, loss_fn)
    loss, grads = vg(net, x, y)
    assert set(grads) == {n for n, _ in net.named_parameters()}
    jl, jg = loom.jit(vg)(net, x, y)
    np.testing.assert_allclose(jl.numpy(), loss.numpy(), rtol=1e-12)
    for k in grads:
        np.testing.assert_allclose(jg[k].numpy(), grads[k].numpy(), rtol=1e-10, atol=1e-14)
    with pytest.raises(TypeError, match="Module"):
        nn.value_and_grad(lambda: 0, loss_fn)


def test_a_buffer_that_escapes_a_trace_raises_when_used(rng):
    bn = nn.BatchNorm1d(2, dtype=loom.float64)
    x = arr(f64(rng, 4, 2))
    loom.grad(lambda x: loom.sum(bn(x)))(x)  # the real module keeps traced running statistics
    with pytest.raises(loom.ConcretizationTypeError, match="escaped"):
        bn.eval()(x)


def test_dropout_masks_scales_and_keys(device, rng):
    x = loom.asarray(np.abs(rng.standard_normal(20000)) + 1, device=device)
    d = nn.Dropout(0.25)
    y = d(x).numpy()
    kept = y != 0
    assert abs(kept.mean() - 0.75) < 0.02
    np.testing.assert_allclose(y[kept], x.numpy()[kept] / 0.75, rtol=1e-12)
    k = loom.random.key(5)
    np.testing.assert_array_equal(d(x, key=k).numpy(), d(x, key=k).numpy())
    assert not np.array_equal(d(x, key=k).numpy(), d(x, key=loom.random.key(6)).numpy())
    assert d.eval()(x) is x and nn.Dropout(0.0)(x) is x
    np.testing.assert_array_equal(nn.Dropout(1.0)(x).numpy(), 0)
    with pytest.raises(loom.ConcretizationTypeError, match="key"):
        loom.jit(nn.Dropout(0.5))(x)
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        nn.Dropout(1.5)


@pytest.mark.parametrize("cls,shape", [(nn.BatchNorm1d, (8, 3)), (nn.BatchNorm1d, (4, 3, 5)),
                                       (nn.BatchNorm2d, (4, 3, 5, 6))])
def test_batch_norm_training_eval_and_running_statistics(device, rng, cls, shape):
    bn = cls(3, momentum=0.2, dtype=loom.float64, device=device)
    bn.weight = arr(f64(rng, 3), device)
    bn.bias = arr(f64(rng, 3), device)
    axes = (0,) + tuple(range(2, len(shape)))
    bshape = (1, 3) + (1,) * (len(shape) - 2)
    rm, rv = np.zeros(3), np.ones(3)
    for step in range(2):
        x = f64(rng, *shape) * 2 + 1
        mean, var = x.mean(axis=axes), x.var(axis=axes)
        want = (x - mean.reshape(bshape)) / np.sqrt(var.reshape(bshape) + 1e-5) * bn.weight.numpy().reshape(bshape) \
            + bn.bias.numpy().reshape(bshape)
        np.testing.assert_allclose(bn(arr(x, device)).numpy(), want, rtol=1e-10, atol=1e-12)
        n = x.size // 3
        rm, rv = 0.8 * rm + 0.2 * mean, 0.8 * rv + 0.2 * var * n / (n - 1)
        np.testing.assert_allclose(bn.running_mean.numpy(), rm, rtol=1e-12)
        np.testing.assert_allclose(bn.running_var.numpy(), rv, rtol=1e-12)
    assert int(bn.num_batches_tracked.numpy()) == 2
    bn.eval()
    x = f64(rng, *shape)
    want = (x - rm.reshape(bshape)) / np.sqrt(rv.reshape(bshape) + 1e-5) * bn.weight.numpy().reshape(bshape) \
        + bn.bias.numpy().reshape(bshape)
    np.testing.assert_allclose(bn(arr(x, device)).numpy(), want, rtol=1e-10, atol=1e-12)
    with pytest.raises(ValueError, match="channels"):
        bn(arr(f64(rng, 4, 2), device))


def test_batch_norm_gradients_and_buffers_through_value_and_grad(rng):
    bn = nn.BatchNorm2d(2, dtype=loom.float64)
    check_grad(bn, f64(rng, 3, 2, 4, 3), rng)
    before = int(bn.num_batches_tracked.numpy())
    x = arr(f64(rng, 3, 2, 4, 3))
    nn.value_and_grad(bn, lambda m, x: loom.sum(m(x) ** 2))(bn, x)
    assert int(bn.num_batches_tracked.numpy()) == before + 1  # written back into the model
    step = loom.jit(nn.value_and_grad(bn, lambda m, x: loom.sum(m(x) ** 2)))
    step(bn, x)  # under jit the updates stay in jit's copy of the model: returned, not written
    assert int(bn.num_batches_tracked.numpy()) == before + 1


def test_softmax_layer_and_losses_namespace(device, rng):
    x = f64(rng, 3, 5)
    e = np.exp(x - x.max(axis=0, keepdims=True))
    np.testing.assert_allclose(nn.Softmax(dim=0)(arr(x, device)).numpy(), e / e.sum(axis=0), rtol=1e-12)
    labels = np.array([0, 4, 2])
    logp = x - np.log(np.exp(x).sum(axis=1, keepdims=True))
    got = nn.losses.cross_entropy(arr(x, device), arr(labels, device))
    np.testing.assert_allclose(got.numpy(), -logp[np.arange(3), labels].mean(), rtol=1e-12)
