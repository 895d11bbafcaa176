"""loom.optim on every device: SGD, Adam and AdamW against NumPy float64 transcriptions of
PyTorch's documented update rules on a quadratic over several steps (fresh random data each
run), the stateful update on a stand-in model, opt.apply under loom.jit (equal to eager, one
trace for many steps) and under loom.grad, schedules, state_dict round trips, and PyTorch
itself when it is installed. clip_grad_norm and the errors have their own files."""
import numpy as np
import pytest

import loom
from loom import optim


class ParamModel:
    """The model contract loom.optim relies on (loom.nn.Module implements it): parameters
    by dotted name, replaced by update_parameters."""

    def __init__(self, params):
        self.params = dict(params)

    def named_parameters(self):
        return list(self.params.items())

    def update_parameters(self, mapping):
        unknown = set(mapping) - set(self.params)
        assert not unknown, unknown
        self.params.update(mapping)
        return self


SHAPES = {"layer.weight": (3, 4), "layer.bias": (4,), "scale": ()}

# (optimizer class, keyword arguments); each is checked against the reference below.
CONFIGS = [
    (optim.SGD, dict(learning_rate=0.1)),
    (optim.SGD, dict(learning_rate=0.05, momentum=0.9)),
    (optim.SGD, dict(learning_rate=0.05, momentum=0.9, dampening=0.3)),
    (optim.SGD, dict(learning_rate=0.05, momentum=0.8, nesterov=True)),
    (optim.SGD, dict(learning_rate=0.05, momentum=0.9, weight_decay=0.1)),
    (optim.SGD, dict(learning_rate=0.05, weight_decay=0.1, momentum=0.5, dampening=0.5)),
    (optim.Adam, dict()),
    (optim.Adam, dict(learning_rate=0.05, betas=(0.8, 0.99), eps=1e-6)),
    (optim.Adam, dict(learning_rate=0.02, weight_decay=0.1)),
    (optim.AdamW, dict(learning_rate=0.02)),
    (optim.AdamW, dict(learning_rate=0.05, betas=(0.5, 0.9), weight_decay=0.3)),
]
CONFIG_IDS = [f"{cls.__name__}-{'-'.join(f'{k}={v}' for k, v in kw.items()) or 'defaults'}" for cls, kw in CONFIGS]
STEPS = 6


# -- NumPy float64 references: the pseudo-code of torch.optim's documentation -----------------
def reference_step(cls, kw, p, g, buf, t, lr):
    """One update of one parameter (NumPy float64); t counts from 1; buf is a dict of the
    parameter's buffers, changed in place. Returns the new parameter."""
    if cls is optim.SGD:
        momentum, dampening = kw.get("momentum", 0.0), kw.get("dampening", 0.0)
        g = g + kw.get("weight_decay", 0.0) * p
        if momentum:
            buf["b"] = g.copy() if t == 1 else momentum * buf["b"] + (1 - dampening) * g
            g = g + momentum * buf["b"] if kw.get("nesterov", False) else buf["b"]
        return p - lr * g
    beta1, beta2 = kw.get("betas", (0.9, 0.999))
    eps = kw.get("eps", 1e-8)
    wd = kw.get("weight_decay", 0.01 if cls is optim.AdamW else 0.0)
    if cls is optim.AdamW:
        p = p * (1 - lr * wd)
    else:
        g = g + wd * p
    buf["m"] = beta1 * buf.get("m", 0.0) + (1 - beta1) * g
    buf["v"] = beta2 * buf.get("v", 0.0) + (1 - beta2) * g * g
    m_hat = buf["m"] / (1 - beta1 ** t)
    v_hat = buf["v"] / (1 - beta2 ** t)
    return p - lr * m_hat / (np.sqrt(v_hat) + eps)


def quadratic_problem(rng):
    """Initial parameters, and each parameter's curvature and centre: the loss is
    sum over parameters of 0.5 * sum(curv * (p - centre)**2), so the gradient is
    curv * (p - centre)."""
    init = {n: rng.standard_normal(s) for n, s in SHAPES.items()}
    curv = {n: rng.uniform(0.5, 2.0, s) for n, s in SHAPES.items()}
    centre = {n: rng.standard_normal(s) for n, s in SHAPES.items()}
    return init, curv, centre


def reference_run(cls, kw, init, curv, centre, steps, lr_at=None):
    params = {n: v.copy() for n, v in init.items()}
    bufs = {n: {} for n in params}
    for t in range(1, steps + 1):
        lr = kw.get("learning_rate", 1e-3) if lr_at is None else lr_at(t - 1)
        for n in params:
            g = curv[n] * (params[n] - centre[n])
            params[n] = reference_step(cls, kw, params[n], g, bufs[n], t, lr)
    return params


def to_loom(tree, device, dtype):
    return {n: loom.asarray(np.asarray(v, dtype=dtype), device=device) for n, v in tree.items()}


def loom_grads(params, curv, centre):
    return {n: curv[n] * (params[n] - centre[n]) for n in params}


def assert_params_close(got, want, dtype, device=None):
    assert set(got) == set(want)
    rtol, atol = (1e-10, 1e-12) if dtype == np.float64 else (2e-5, 1e-6)
    for n in want:
        assert got[n].dtype == np.dtype(dtype), (n, got[n].dtype)
        if device is not None:
            assert got[n].device == device
        np.testing.assert_allclose(np.asarray(got[n]), want[n], rtol=rtol, atol=atol, err_msg=n)


# -- update rules --------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("cls,kw", CONFIGS, ids=CONFIG_IDS)
def test_apply_matches_published_rule(device, rng, cls, kw, dtype):
    init, curv, centre = quadratic_problem(rng)
    want = reference_run(cls, kw, init, curv, centre, STEPS)
    opt = cls(**kw)
    params = to_loom(init, device, dtype)
    c, z = to_loom(curv, device, dtype), to_loom(centre, device, dtype)
    state = opt.init(params)
    for _ in range(STEPS):
        params, state = opt.apply(params, loom_grads(params, c, z), state)
    assert_params_close(params, want, dtype, device)
    assert int(state["step"]) == STEPS
    assert state["step"].dtype == loom.int32


@pytest.mark.parametrize("cls,kw", CONFIGS, ids=CONFIG_IDS)
def test_update_on_a_model_matches_published_rule(device, rng, cls, kw):
    init, curv, centre = quadratic_problem(rng)
    want = reference_run(cls, kw, init, curv, centre, STEPS)
    model = ParamModel(to_loom(init, device, np.float64))
    c, z = to_loom(curv, device, np.float64), to_loom(centre, device, np.float64)
    opt = cls(**kw)
    assert opt.state is None
    for _ in range(STEPS):
        # The gradient through loom.grad, as a training step would take it.
        grads = loom.grad(lambda p: sum(loom.sum(0.5 * c[n] * (p[n] - z[n]) ** 2) for n in p))(model.params)
        opt.update(model, grads)
    assert_params_close(model.params, want, np.float64, device)
    assert int(opt.state["step"]) == STEPS
    # The compiled step traced once for all the updates.
    assert [j._cache_size for j in opt._jitted.values()] == [1]


def test_update_eager_matches_compiled(device, rng):
    init, curv, centre = quadratic_problem(rng)
    c, z = to_loom(curv, device, np.float32), to_loom(centre, device, np.float32)
    models = [ParamModel(to_loom(init, device, np.float32)) for _ in range(2)]
    opts = [optim.Adam(learning_rate=0.05, weight_decay=0.1) for _ in range(2)]
    opts[1].jit_update = False
    for _ in range(STEPS):
        for model, opt in zip(models, opts):
            opt.update(model, loom_grads(model.params, c, z))
    assert not opts[1]._jitted
    for n in SHAPES:
        np.testing.assert_allclose(np.asarray(models[0].params[n]), np.asarray(models[1].params[n]),
                                   rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("cls,kw", [CONFIGS[2], CONFIGS[6], CONFIGS[10]], ids=[CONFIG_IDS[2], CONFIG_IDS[6], CONFIG_IDS[10]])
def test_schedule_is_evaluated_on_the_step(device, rng, cls, kw):
    init, curv, centre = quadratic_problem(rng)
    kw = dict(kw, learning_rate=lambda step: 0.1 * 0.7 ** step)
    want = reference_run(cls, kw, init, curv, centre, STEPS, lr_at=lambda s: 0.1 * 0.7 ** s)
    c, z = to_loom(curv, device, np.float64), to_loom(centre, device, np.float64)
    opt = cls(**kw)
    model = ParamModel(to_loom(init, device, np.float64))
    params = dict(model.params)
    state = opt.init(params)
    for _ in range(STEPS):
        params, state = opt.apply(params, loom_grads(params, c, z), state)
        opt.update(model, loom_grads(model.params, c, z))
    assert_params_close(params, want, np.float64, device)
    assert_params_close(model.params, want, np.float64, device)


def test_changing_learning_rate_between_updates(device, rng):
    """A float learning rate is an argument of the compiled step: setting a new one takes
    effect at once and does not trace again."""
    init, curv, centre = quadratic_problem(rng)
    rates = [0.1, 0.05, 0.02, 0.01, 0.005, 0.001]
    want = reference_run(optim.SGD, dict(momentum=0.9), init, curv, centre, len(rates), lr_at=lambda s: rates[s])
    c, z = to_loom(curv, device, np.float64), to_loom(centre, device, np.float64)
    model = ParamModel(to_loom(init, device, np.float64))
    opt = optim.SGD(learning_rate=rates[0], momentum=0.9)
    for lr in rates:
        opt.learning_rate = lr
        opt.update(model, loom_grads(model.params, c, z))
    assert_params_close(model.params, want, np.float64, device)
    assert [j._cache_size for j in opt._jitted.values()] == [1]


def test_unhashable_schedule_and_many_settings_run_eagerly(device, rng):
    """opt.update compiles per hyperparameter setting; a schedule that cannot key a cache,
    or a ninth setting, runs op by op with the same results."""
    class Schedule:
        __hash__ = None

        def __call__(self, step):
            return 0.1 / (1 + step)

    init, curv, centre = quadratic_problem(rng)
    c, z = to_loom(curv, device, np.float64), to_loom(centre, device, np.float64)
    model = ParamModel(to_loom(init, device, np.float64))
    opt = optim.SGD(Schedule(), momentum=0.5)
    for _ in range(3):
        opt.update(model, loom_grads(model.params, c, z))
    assert not opt._jitted
    want = reference_run(optim.SGD, dict(momentum=0.5), init, curv, centre, 3, lr_at=lambda s: 0.1 / (1 + s))
    assert_params_close(model.params, want, np.float64, device)

    decays = [0.01 * i for i in range(10)]
    model = ParamModel(to_loom(init, device, np.float64))
    opt = optim.SGD(0.05)
    params = {n: v.copy() for n, v in init.items()}
    for t, weight_decay in enumerate(decays, 1):
        opt.weight_decay = weight_decay
        opt.update(model, loom_grads(model.params, c, z))
        for n in params:
            g = curv[n] * (params[n] - centre[n])
            params[n] = reference_step(optim.SGD, dict(weight_decay=weight_decay), params[n], g, {}, t, 0.05)
    assert len(opt._jitted) == 8
    assert_params_close(model.params, params, np.float64, device)


def test_half_precision_parameters_keep_their_dtype(device, rng):
    init, curv, centre = quadratic_problem(rng)
    params = to_loom(init, device, np.float16)
    opt = optim.AdamW(learning_rate=0.01)
    state = opt.init(params)
    grads = loom_grads(params, to_loom(curv, device, np.float16), to_loom(centre, device, np.float16))
    new, state = opt.apply(params, grads, state)
    want = reference_run(optim.AdamW, dict(learning_rate=0.01), {n: np.asarray(params[n], np.float64) for n in init},
                         curv, centre, 1)
    for n in SHAPES:
        # Updated in float32 with float32 moments (in float16 the second moment and eps
        # underflow to 0 and the step divides by zero), rounded to float16 once.
        assert new[n].dtype == loom.float16 and state["exp_avg"][n].dtype == loom.float32
        np.testing.assert_allclose(np.asarray(new[n], np.float64), want[n], rtol=2e-3, atol=2e-3)


def test_missing_or_none_gradient_leaves_parameter_and_buffers(device, rng):
    init, curv, centre = quadratic_problem(rng)
    params = to_loom(init, device, np.float64)
    opt = optim.Adam(learning_rate=0.1)
    state = opt.init(params)
    grads = loom_grads(params, to_loom(curv, device, np.float64), to_loom(centre, device, np.float64))
    grads["layer.bias"] = None
    del grads["scale"]
    new, new_state = opt.apply(params, grads, state)
    for n in ("layer.bias", "scale"):
        assert new[n] is params[n]
        assert new_state["exp_avg"][n] is state["exp_avg"][n]
    assert not np.allclose(np.asarray(new["layer.weight"]), init["layer.weight"])
    # The stateful update hands the model only what changed.
    model = ParamModel(params)
    seen = []
    model.update_parameters = lambda mapping: seen.append(sorted(mapping)) or model
    opt.update(model, grads)
    assert seen == [["layer.weight"]]


def test_apply_is_pure(device, rng):
    init, curv, centre = quadratic_problem(rng)
    params = to_loom(init, device, np.float64)
    opt = optim.SGD(learning_rate=0.1, momentum=0.9)
    state = opt.init(params)
    grads = loom_grads(params, to_loom(curv, device, np.float64), to_loom(centre, device, np.float64))
    a = opt.apply(params, grads, state)
    b = opt.apply(params, grads, state)
    for n in SHAPES:
        np.testing.assert_array_equal(np.asarray(a[0][n]), np.asarray(b[0][n]))
        np.testing.assert_array_equal(np.asarray(params[n]), init[n])
        np.testing.assert_array_equal(np.asarray(state["momentum_buffer"][n]), 0.0)
    assert int(state["step"]) == 0 and opt.state is None


def test_init_layout(device):
    params = {"w": loom.ones((2, 3), dtype=loom.float32, device=device)}
    assert set(optim.SGD(0.1).init(params)) == {"step"}
    state = optim.SGD(0.1, momentum=0.9).init(params)
    assert set(state) == {"step", "momentum_buffer"}
    state = optim.AdamW().init(ParamModel(params))   # a model stands for its parameters
    assert set(state) == {"step", "exp_avg", "exp_avg_sq"}
    buf = state["exp_avg_sq"]["w"]
    assert buf.shape == (2, 3) and buf.dtype == loom.float32 and buf.device == device
    assert state["step"].shape == () and state["step"].device == device


# -- transforms ------------------------------------------------------------------------------
@pytest.mark.parametrize("cls,kw", [CONFIGS[3], CONFIGS[8], CONFIGS[10]], ids=[CONFIG_IDS[3], CONFIG_IDS[8], CONFIG_IDS[10]])
def test_apply_under_jit_equals_eager_and_traces_once(device, rng, cls, kw):
    init, curv, centre = quadratic_problem(rng)
    c, z = to_loom(curv, device, np.float32), to_loom(centre, device, np.float32)
    opt = cls(**kw)

    @loom.jit
    def train_step(params, state):
        return opt.apply(params, loom_grads(params, c, z), state)

    eager = to_loom(init, device, np.float32)
    jitted = dict(eager)
    eager_state = opt.init(eager)
    jit_state = opt.init(jitted)
    for _ in range(STEPS):
        eager, eager_state = opt.apply(eager, loom_grads(eager, c, z), eager_state)
        jitted, jit_state = train_step(jitted, jit_state)
    assert train_step._cache_size == 1
    assert int(jit_state["step"]) == STEPS
    for n in SHAPES:
        assert jitted[n].dtype == loom.float32 and jitted[n].device == device
        np.testing.assert_allclose(np.asarray(jitted[n]), np.asarray(eager[n]), rtol=1e-6, atol=1e-7)


def test_schedule_under_jit_traces_once(device, rng):
    init, curv, centre = quadratic_problem(rng)
    c, z = to_loom(curv, device, np.float64), to_loom(centre, device, np.float64)
    opt = optim.SGD(learning_rate=lambda step: 0.2 / (1 + step), momentum=0.5)
    step_fn = loom.jit(lambda p, s: opt.apply(p, loom_grads(p, c, z), s))
    params = to_loom(init, device, np.float64)
    state = opt.init(params)
    for _ in range(STEPS):
        params, state = step_fn(params, state)
    want = reference_run(optim.SGD, dict(momentum=0.5), init, curv, centre, STEPS, lr_at=lambda s: 0.2 / (1 + s))
    assert_params_close(params, want, np.float64, device)
    assert step_fn._cache_size == 1


def test_apply_under_grad(device, rng):
    """The update is differentiable: d/dp of sum((p - lr * 2p)**2) = 2 (1 - 2 lr)**2 p."""
    x = rng.standard_normal((3, 2))
    lr = 0.1
    opt = optim.SGD(learning_rate=lr)

    def after_step(p):
        new, _ = opt.apply({"w": p}, {"w": 2 * p}, opt.init({"w": p}))
        return loom.sum(new["w"] ** 2)

    got = loom.grad(after_step)(loom.asarray(x, device=device))
    np.testing.assert_allclose(np.asarray(got), 2 * (1 - 2 * lr) ** 2 * x, rtol=1e-12)


# -- state_dict ------------------------------------------------------------------------------
@pytest.mark.parametrize("cls,kw", [CONFIGS[2], CONFIGS[10]], ids=[CONFIG_IDS[2], CONFIG_IDS[10]])
def test_state_dict_round_trip(device, rng, cls, kw):
    init, curv, centre = quadratic_problem(rng)
    c, z = to_loom(curv, device, np.float64), to_loom(centre, device, np.float64)
    want = reference_run(cls, kw, init, curv, centre, STEPS)
    model = ParamModel(to_loom(init, device, np.float64))
    opt = cls(**kw)
    assert opt.state_dict()["state"] is None
    for _ in range(2):
        opt.update(model, loom_grads(model.params, c, z))
    saved = opt.state_dict()
    # As a checkpoint would hold it: NumPy arrays.
    saved = {"state": loom.tree_map(np.asarray, saved["state"]), "hyperparameters": saved["hyperparameters"]}
    fresh = cls(learning_rate=123.0)
    fresh.load_state_dict(saved)
    assert fresh.learning_rate == kw["learning_rate"]
    for _ in range(STEPS - 2):
        fresh.update(model, loom_grads(model.params, c, z))
    assert_params_close(model.params, want, np.float64, device)
    for b in fresh.buffers:
        assert fresh.state[b]["layer.weight"].device == device


# -- PyTorch itself --------------------------------------------------------------------------
@pytest.mark.parametrize("cls,kw", CONFIGS, ids=CONFIG_IDS)
def test_matches_torch(rng, cls, kw):
    torch = pytest.importorskip("torch")
    init, curv, centre = quadratic_problem(rng)
    names = list(SHAPES)
    tparams = [torch.tensor(init[n], dtype=torch.float64, requires_grad=True) for n in names]
    torch_kw = {"lr": kw.get("learning_rate", 1e-3)}
    for k in ("momentum", "weight_decay", "nesterov", "dampening", "betas", "eps"):
        if k in kw:
            torch_kw[k] = kw[k]
    topt = getattr(torch.optim, cls.__name__)(tparams, **torch_kw)
    model = ParamModel(to_loom(init, loom.cpu(), np.float64))
    c, z = to_loom(curv, loom.cpu(), np.float64), to_loom(centre, loom.cpu(), np.float64)
    opt = cls(**kw)
    for _ in range(STEPS):
        topt.zero_grad()
        loss = sum((0.5 * torch.tensor(curv[n]) * (p - torch.tensor(centre[n])) ** 2).sum() for n, p in zip(names, tparams))
        loss.backward()
        topt.step()
        opt.update(model, loom_grads(model.params, c, z))
    for n, p in zip(names, tparams):
        np.testing.assert_allclose(np.asarray(model.params[n]), p.detach().numpy(), rtol=1e-10, atol=1e-12)
