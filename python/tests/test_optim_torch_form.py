"""PyTorch's optimiser forms (optim.SGD(model.parameters(), lr=0.1, ...)) match loom's
(optim.SGD(0.1, ...)) step by step on fresh random data, on cpu() and every GPU; only the
parameters given are updated; learning-rate schedules (loom's functions of the step) and
schedulers (torch's classes) against their formulas."""
import math

import numpy as np
import pytest

import loom
from loom import nn, optim

FORMS = [
    # (torch form, loom form)
    (lambda ps: optim.SGD(ps, lr=0.1), lambda: optim.SGD(0.1)),
    (lambda ps: optim.SGD(ps, 0.05, 0.9, 0.0, 1e-3), lambda: optim.SGD(0.05, momentum=0.9, weight_decay=1e-3)),
    (lambda ps: optim.SGD(ps, lr=0.05, momentum=0.9, nesterov=True, weight_decay=1e-2),
     lambda: optim.SGD(learning_rate=0.05, momentum=0.9, nesterov=True, weight_decay=1e-2)),
    (lambda ps: optim.SGD(ps, lr=0.05, momentum=0.8, dampening=0.3),
     lambda: optim.SGD(0.05, momentum=0.8, dampening=0.3)),
    (lambda ps: optim.Adam(ps, lr=1e-2, betas=(0.8, 0.99), weight_decay=1e-3),
     lambda: optim.Adam(learning_rate=1e-2, betas=(0.8, 0.99), weight_decay=1e-3)),
    (lambda ps: optim.AdamW(ps, 1e-2, (0.9, 0.999), 1e-8, 0.05, foreach=None),
     lambda: optim.AdamW(1e-2, weight_decay=0.05)),
]


def _net(device, seed):
    loom.random.seed(seed)
    return nn.Sequential(nn.Linear(4, 5), nn.Tanh(), nn.Linear(5, 2)).to(device)


def _loss(m, X, y):
    return loom.mean((m(X) - y) ** 2)


@pytest.mark.parametrize("i", range(len(FORMS)))
def test_torch_form_matches_loom_form_step_by_step(device, rng, i):
    torch_form, loom_form = FORMS[i]
    a, b = _net(device, 11), _net(device, 11)
    opt_a, opt_b = torch_form(a.parameters()), loom_form()
    vg = nn.value_and_grad(a, _loss)
    for _ in range(4):
        X = loom.asarray(rng.standard_normal((8, 4)).astype(np.float32), device=device)
        y = loom.asarray(rng.standard_normal((8, 2)).astype(np.float32), device=device)
        opt_a.zero_grad()  # torch's habit: nothing to do
        _, ga = vg(a, X, y)
        _, gb = vg(b, X, y)
        opt_a.update(a, ga)
        opt_b.update(b, gb)
        for (name, pa), (_, pb) in zip(a.named_parameters(), b.named_parameters()):
            np.testing.assert_array_equal(pa.numpy(), pb.numpy(), err_msg=name)
            assert pa.device == device


def test_torch_form_updates_only_the_parameters_given(rng):
    net = _net(loom.cpu(), 3)
    frozen = {n: p.numpy().copy() for n, p in net.named_parameters() if n.startswith("0.")}
    opt = optim.SGD(net[2].parameters(), lr=0.1, momentum=0.9)
    vg = nn.value_and_grad(net, _loss)
    before = net[2].weight.numpy().copy()
    for _ in range(2):
        X = loom.asarray(rng.standard_normal((6, 4)).astype(np.float32), device=loom.cpu())
        y = loom.asarray(rng.standard_normal((6, 2)).astype(np.float32), device=loom.cpu())
        opt.update(net, vg(net, X, y)[1])
    for n, p in net.named_parameters():
        if n in frozen:
            np.testing.assert_array_equal(p.numpy(), frozen[n])
    assert not np.array_equal(net[2].weight.numpy(), before)
    stale = optim.SGD(net[2].parameters(), lr=0.1)
    net.update_parameters({"2.weight": net[2].weight + 1})  # the array given is gone from the model
    with pytest.raises(ValueError, match=r"1 of the 2 parameters given to the optimiser are not the model's"):
        stale.update(net, vg(net, X, y)[1])


def test_torch_form_errors():
    net = _net(loom.cpu(), 0)
    with pytest.raises(ValueError, match="empty parameter list"):
        optim.SGD([], lr=0.1)
    with pytest.raises(TypeError, match="both lr= and learning_rate="):
        optim.SGD(net.parameters(), lr=0.1, learning_rate=0.1)
    with pytest.raises(NotImplementedError, match="amsgrad=True"):
        optim.Adam(net.parameters(), amsgrad=True)
    with pytest.raises(TypeError, match="must be loom arrays"):
        optim.SGD([np.zeros(3)], lr=0.1)
    assert optim.SGD(net.parameters()).learning_rate == 1e-3  # torch's default
    assert optim.SGD(net, lr=0.2).learning_rate == 0.2        # a model stands for its parameters


# ---- schedules ---------------------------------------------------------------------------------
def _lrs(sched, n):
    out = [sched.get_last_lr()[0]]
    for _ in range(n - 1):
        sched.step()
        out.append(sched.optimizer.learning_rate)
    return out


def test_schedulers_follow_their_formulas():
    base, n = 0.2, 12
    cases = [
        (lambda o: optim.lr_scheduler.StepLR(o, step_size=3, gamma=0.5), lambda t: base * 0.5 ** (t // 3)),
        (lambda o: optim.lr_scheduler.MultiStepLR(o, [2, 5], gamma=0.1), lambda t: base * 0.1 ** ((t >= 2) + (t >= 5))),
        (lambda o: optim.lr_scheduler.ExponentialLR(o, gamma=0.9), lambda t: base * 0.9 ** t),
        (lambda o: optim.lr_scheduler.CosineAnnealingLR(o, T_max=10, eta_min=0.01),
         lambda t: 0.01 + (base - 0.01) * (1 + math.cos(math.pi * t / 10)) / 2),
        (lambda o: optim.lr_scheduler.LinearLR(o, start_factor=0.25, total_iters=4),
         lambda t: base * (0.25 + 0.75 * min(t, 4) / 4)),
        (lambda o: optim.lr_scheduler.LambdaLR(o, lambda t: 1 / (t + 1)), lambda t: base / (t + 1)),
        (lambda o: optim.lr_scheduler.SequentialLR(o, [optim.lr_scheduler.LinearLR(o, 0.1, total_iters=3),
                                                       optim.lr_scheduler.CosineAnnealingLR(o, T_max=9)], [3]),
         lambda t: base * (0.1 + 0.9 * t / 3) if t < 3 else base * (1 + math.cos(math.pi * (t - 3) / 9)) / 2),
    ]
    for make, formula in cases:
        opt = optim.SGD(base, momentum=0.9)
        got = _lrs(make(opt), n)
        np.testing.assert_allclose(got, [formula(t) for t in range(n)], rtol=1e-12, err_msg=repr(make))
    with pytest.raises(TypeError, match="already a schedule"):
        optim.lr_scheduler.StepLR(optim.SGD(lambda step: 0.1), step_size=1)


def test_loom_schedules_follow_their_formulas_on_ints_and_traced_steps():
    s = optim.schedules
    cases = [
        (s.step_decay(0.3, step_size=4, gamma=0.5), lambda t: 0.3 * 0.5 ** (t // 4)),
        (s.cosine_decay(0.3, T_max=10, eta_min=0.03),
         lambda t: 0.03 + 0.27 * (1 + math.cos(math.pi * min(t, 10) / 10)) / 2),
        (s.linear_warmup(0.3, warmup_steps=5, start_factor=0.2), lambda t: 0.3 * (0.2 + 0.8 * t / 5) if t < 5 else 0.3),
        (s.linear_warmup(s.cosine_decay(0.3, T_max=8), warmup_steps=4),
         lambda t: 0.3 * t / 4 if t < 4 else 0.3 * (1 + math.cos(math.pi * min(t - 4, 8) / 8)) / 2),
    ]
    traced = loom.jit(lambda f, t: f(t), static_argnums=0)
    for sched, formula in cases:
        want = [formula(t) for t in range(16)]
        np.testing.assert_allclose([sched(t) for t in range(16)], want, rtol=1e-12)
        got = [float(traced(sched, loom.asarray(t, dtype=loom.int32)).numpy()) for t in range(16)]
        np.testing.assert_allclose(got, want, rtol=1e-12)


def test_a_schedule_drives_the_optimiser_step_by_step(device, rng):
    sched = optim.schedules.step_decay(0.1, step_size=2, gamma=0.5)
    a, b = _net(device, 4), _net(device, 4)
    opt_a = optim.SGD(a.parameters(), lr=sched)
    opt_b = optim.SGD(0.1)
    vg = nn.value_and_grad(a, _loss)
    for t in range(5):
        X = loom.asarray(rng.standard_normal((8, 4)).astype(np.float32), device=device)
        y = loom.asarray(rng.standard_normal((8, 2)).astype(np.float32), device=device)
        opt_b.learning_rate = 0.1 * 0.5 ** (t // 2)
        opt_a.update(a, vg(a, X, y)[1])
        opt_b.update(b, vg(b, X, y)[1])
        for pa, pb in zip(a.parameters(), b.parameters()):
            np.testing.assert_allclose(pa.numpy(), pb.numpy(), rtol=1e-6, atol=1e-7)
