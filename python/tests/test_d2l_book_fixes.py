"""What the d2l harness (tools/d2l_suite) found missing in loom, each against NumPy or a
direct formula on fresh random data, on cpu() and every GPU: Module.apply with PyTorch's
in-place initialisers (nn.init.*_), AdaptiveAvgPool2d, torch's parameter groups, random
layers inside a traced step (nn.random_keys, the Trainer's key per step), load_state_dict into
lazy layers, a lazy layer's UninitializedParameter, the board's every_n and d2l's model.board."""
import math

import numpy as np
import pytest

import loom
from loom import d2l, nn, optim


def _np(a):
    return np.asarray(a.numpy() if hasattr(a, "numpy") else a, dtype=np.float64)


def test_apply_visits_children_first_and_returns_self(device):
    net = nn.Sequential(nn.Linear(3, 4), nn.Sequential(nn.ReLU(), nn.Linear(4, 2))).to(device)
    seen = []
    assert net.apply(lambda m: seen.append(type(m).__name__)) is net
    assert seen == ["Linear", "ReLU", "Linear", "Sequential", "Sequential"]


@pytest.mark.parametrize("shape", [(64, 48), (16, 8, 3, 3)])
def test_inplace_initialisers_write_into_the_parameter(device, rng, shape):
    fan_in, fan_out = shape[1] * math.prod(shape[2:]), shape[0] * math.prod(shape[2:])
    w = loom.asarray(rng.standard_normal(shape).astype(np.float32), device=device)
    same = w
    assert nn.init.xavier_uniform_(w) is same
    bound = math.sqrt(6.0 / (fan_in + fan_out))
    v = _np(w)
    assert np.all(np.abs(v) <= bound * (1 + 1e-6)) and v.std() > bound / math.sqrt(3) * 0.8
    nn.init.kaiming_uniform_(w, a=math.sqrt(5))  # torch's default for Linear: U(+-1/sqrt(fan_in))
    assert np.all(np.abs(_np(w)) <= 1 / math.sqrt(fan_in) * (1 + 1e-6))
    c = float(rng.uniform(-3, 3))
    nn.init.constant_(w, c)
    np.testing.assert_allclose(_np(w), np.full(shape, c, np.float32))
    nn.init.zeros_(w)
    assert not _np(w).any()
    nn.init.normal_(w, mean=2.0, std=0.5)
    v = _np(w)
    assert abs(v.mean() - 2.0) < 5 * 0.5 / math.sqrt(v.size) and abs(v.std() - 0.5) < 0.1
    lo, hi = sorted(rng.uniform(-5, 5, size=2))
    nn.init.uniform_(w, lo, hi)
    v = _np(w)
    assert v.min() >= lo - 1e-6 and v.max() <= hi + 1e-6


def test_apply_with_an_initialiser_changes_the_module(device, rng):
    net = nn.Sequential(nn.Linear(5, 7), nn.ReLU(), nn.Linear(7, 3)).to(device)

    def init(m):
        if type(m) is nn.Linear:
            nn.init.constant_(m.weight, 1.0)
            nn.init.zeros_(m.bias)
    net.apply(init)
    x = rng.standard_normal((4, 5)).astype(np.float32)
    expect = np.maximum(x @ np.ones((5, 7)), 0) @ np.ones((7, 3))
    np.testing.assert_allclose(_np(net(loom.asarray(x, device=device))), expect, rtol=1e-5)


def _adaptive_ref(x, oh, ow):
    h, w = x.shape[-2:]
    out = np.empty(x.shape[:-2] + (oh, ow))
    for i in range(oh):
        for j in range(ow):
            r0, r1 = i * h // oh, -(-(i + 1) * h // oh)
            c0, c1 = j * w // ow, -(-(j + 1) * w // ow)
            out[..., i, j] = x[..., r0:r1, c0:c1].mean(axis=(-2, -1))
    return out


@pytest.mark.parametrize("size,out", [((7, 7), (1, 1)), ((8, 6), (4, 3)), ((7, 5), (3, 2)), ((5, 5), 5)])
def test_adaptive_avg_pool2d_against_numpy(device, rng, size, out):
    x = rng.standard_normal((2, 3) + size)
    got = nn.AdaptiveAvgPool2d(out)(loom.asarray(x, device=device))
    oh, ow = (out, out) if isinstance(out, int) else out
    np.testing.assert_allclose(_np(got), _adaptive_ref(x, oh, ow), rtol=1e-12)


def test_adaptive_avg_pool2d_gradient_finite_differences(device, rng):
    x = rng.standard_normal((1, 2, 5, 7))
    c = rng.standard_normal((1, 2, 2, 3))

    def f(a):
        return loom.sum(nn.adaptive_avg_pool2d(a, (2, 3)) * loom.asarray(c, device=device))
    g = _np(loom.grad(f)(loom.asarray(x, device=device)))
    eps = 1e-6
    num = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[idx] = eps
        num[idx] = ((_adaptive_ref(x + d, 2, 3) * c).sum() - (_adaptive_ref(x - d, 2, 3) * c).sum()) / (2 * eps)
    np.testing.assert_allclose(g, num, rtol=1e-6, atol=1e-9)


def test_parameter_groups_match_one_optimiser_per_group(device, rng):
    loom.random.seed(int(rng.integers(1 << 30)))
    net = nn.Sequential(nn.Linear(4, 3), nn.Tanh(), nn.Linear(3, 2)).to(device)
    first = ["0.weight", "0.bias"]
    params = dict(net.named_parameters())
    grouped = optim.SGD([{"params": [params[n] for n in first], "weight_decay": 0.1, "lr": 0.05},
                         {"params": [net[2].weight, net[2].bias]}], lr=0.2, momentum=0.9)
    a = optim.SGD(0.05, momentum=0.9, weight_decay=0.1)
    b = optim.SGD(0.2, momentum=0.9)
    state = grouped.init(params)
    sa, sb = a.init({n: params[n] for n in first}), b.init({n: p for n, p in params.items() if n not in first})
    ref = dict(params)
    for _ in range(3):
        grads = {n: loom.asarray(rng.standard_normal(p.shape).astype(np.float32), device=device)
                 for n, p in params.items()}
        params, state = grouped.apply(params, grads, state)
        pa, sa = a.apply({n: ref[n] for n in first}, {n: grads[n] for n in first}, sa)
        pb, sb = b.apply({n: v for n, v in ref.items() if n not in first},
                         {n: g for n, g in grads.items() if n not in first}, sb)
        ref = {**pa, **pb}
    for n in ref:
        np.testing.assert_array_equal(_np(params[n]), _np(ref[n]))


def test_parameter_group_hyperparameters_are_checked():
    net = nn.Linear(2, 2)
    with pytest.raises(ValueError, match="weight_decay"):
        optim.SGD([{"params": [net.weight], "weight_decay": -1.0}], lr=0.1)
    with pytest.raises(NotImplementedError, match="momentum"):
        optim.SGD([{"params": [net.weight], "momentum": 0.9}], lr=0.1)


def test_random_keys_give_dropout_a_seed_under_jit(device):
    drop = nn.Dropout(0.5)
    x = loom.ones((4096,), dtype=loom.float32, device=device)

    def f(seed, x):
        with nn.random_keys(seed):
            return drop(x), drop(x)
    run = loom.jit(f)
    s1, s2 = (loom.asarray(np.uint32(v), device=device) for v in (12345, 12346))
    a1, b1 = (_np(v) for v in run(s1, x))
    a2, _ = (_np(v) for v in run(s2, x))
    assert set(np.unique(a1)) <= {0.0, 2.0}
    assert abs((a1 == 0).mean() - 0.5) < 0.05  # about p of the elements dropped
    assert not np.array_equal(a1, b1)  # two calls in one block: two masks
    assert not np.array_equal(a1, a2)  # a new seed: a new mask, same trace
    assert abs(((a1 == 0) == (a2 == 0)).mean() - 0.5) < 0.05  # and an independent-looking one
    assert run._cache_size == 1
    np.testing.assert_array_equal(a1, _np(run(s1, x)[0]))


def test_scope_uniform_is_uniform(device):
    with nn.random_keys(loom.asarray(np.uint32(7), device=device)):
        u = _np(nn.scope_uniform((200, 100), device))
    assert u.min() >= 0 and u.max() < 1
    hist, _ = np.histogram(u, bins=10, range=(0, 1))
    assert np.all(np.abs(hist / u.size - 0.1) < 0.01)
    assert nn.scope_uniform((3,)) is None  # outside a block


class _DropoutClassifier(d2l.Classifier):
    def __init__(self):
        super().__init__()
        self.lr = 0.1
        self.net = nn.Sequential(nn.LazyLinear(16), nn.ReLU(), nn.Dropout(0.5), nn.LazyLinear(2))


class _Data(d2l.DataModule):
    def __init__(self, rng):
        super().__init__()
        self.batch_size = 16
        self.X = rng.standard_normal((64, 4)).astype(np.float32)
        self.y = (self.X[:, 0] > 0).astype(np.int64)

    def get_dataloader(self, train):
        return self.get_tensorloader((self.X, self.y), train)


@pytest.mark.parametrize("jit", [True, False])
def test_trainer_runs_dropout_with_a_key_per_step(device, rng, jit):
    model = _DropoutClassifier()
    trainer = loom.Trainer(max_epochs=2, progress=False, jit=jit, devices=[device])
    trainer.fit(model, _Data(rng))
    assert len(trainer.history["train_loss"]) == 2 and all(np.isfinite(trainer.history["train_loss"]))
    assert model.board is trainer.board and "train_loss" in model.board.data


def test_load_state_dict_makes_lazy_layers(device, rng):
    def make():
        return nn.Sequential(nn.LazyConv2d(4, 3, groups=2), nn.LazyBatchNorm2d(), nn.Flatten(), nn.LazyLinear(3))
    x = loom.asarray(rng.standard_normal((2, 6, 5, 5)).astype(np.float32), device=device)
    net = make().to(device)
    net(x)
    net.eval()
    clone = make().to(device)
    assert repr(clone[0].weight) == "<UninitializedParameter>"
    clone.load_state_dict(net.state_dict())
    clone.eval()
    assert type(clone[0]) is nn.Conv2d and clone[0].in_channels == 6
    np.testing.assert_array_equal(_np(clone(x)), _np(net(x)))


def test_board_every_n_draws_means():
    board = d2l.ProgressBoard("x", ylabel="y", yscale="log")
    xs = np.arange(0, 1, 0.1)
    for x in xs:
        board.draw(x, np.sin(x), "sin", every_n=3)
    pts = board.data["sin"]
    assert len(pts) == 3
    for i, (x, y) in enumerate(pts):
        np.testing.assert_allclose((x, y), (xs[3 * i:3 * i + 3].mean(), np.sin(xs[3 * i:3 * i + 3]).mean()))
