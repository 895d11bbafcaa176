"""The errors of loom.optim: hyperparameters out of range (at construction, when set later,
and in load_state_dict), gradients that do not fit their parameters, states that do not fit
the optimiser, and schedules that return something else than a number. Each message names
the optimiser."""
import numpy as np
import pytest

import loom
from loom import optim


class ParamModel:
    """The model contract of opt.update (named_parameters, update_parameters)."""

    def __init__(self, params):
        self.params = dict(params)

    def named_parameters(self):
        return list(self.params.items())

    def update_parameters(self, mapping):
        self.params.update(mapping)
        return self


def test_load_state_dict_errors():
    opt = optim.Adam()
    with pytest.raises(ValueError, match=r"\[optim.Adam.load_state_dict\].*'state' and 'hyperparameters'"):
        opt.load_state_dict({"step": 1})
    with pytest.raises(ValueError, match="unknown hyperparameters.*momentum"):
        opt.load_state_dict({"state": None, "hyperparameters": {"momentum": 0.9}})
    with pytest.raises(ValueError, match="eps must be >= 0"):
        opt.load_state_dict({"state": None, "hyperparameters": {"eps": -1.0}})
    assert opt.eps == 1e-8  # a rejected state_dict changes nothing
    with pytest.raises(ValueError, match="keys.*exp_avg"):
        opt.load_state_dict({"state": {"step": np.int32(1)}, "hyperparameters": {}})


@pytest.mark.parametrize("make,exc,pattern", [
    (lambda: optim.SGD(-1), ValueError, r"\[optim.SGD\] learning_rate must be >= 0, got -1"),
    (lambda: optim.SGD("0.1"), TypeError, r"\[optim.SGD\] learning_rate must be a real number"),
    (lambda: optim.SGD(0.1, momentum=-0.5), ValueError, r"\[optim.SGD\] momentum must be >= 0"),
    (lambda: optim.SGD(0.1, weight_decay=-1e-4), ValueError, r"weight_decay must be >= 0"),
    (lambda: optim.SGD(0.1, nesterov=True), ValueError, r"\[optim.SGD\] nesterov=True requires momentum > 0"),
    (lambda: optim.SGD(0.1, momentum=0.9, nesterov=True, dampening=0.1), ValueError, "dampening == 0"),
    (lambda: optim.SGD(0.1, momentum=0.9, nesterov=1), TypeError, "nesterov must be a bool"),
    (lambda: optim.Adam(float("nan")), ValueError, r"\[optim.Adam\] learning_rate must be >= 0, got nan"),
    (lambda: optim.Adam(betas=(1.0, 0.999)), ValueError, r"\[optim.Adam\] betas\[0\] must be in \[0, 1\), got 1.0"),
    (lambda: optim.Adam(betas=(0.9, -0.1)), ValueError, r"betas\[1\] must be in"),
    (lambda: optim.Adam(betas=0.9), ValueError, "betas must be a pair"),
    (lambda: optim.Adam(eps=-1e-8), ValueError, r"\[optim.Adam\] eps must be >= 0"),
    (lambda: optim.AdamW(weight_decay=-0.01), ValueError, r"\[optim.AdamW\] weight_decay must be >= 0"),
])
def test_hyperparameter_errors(make, exc, pattern):
    with pytest.raises(exc, match=pattern):
        make()


def test_hyperparameter_set_later_is_checked(device):
    model = ParamModel({"w": loom.ones((2,), dtype=loom.float32, device=device)})
    opt = optim.SGD(0.1)
    opt.learning_rate = -0.5
    with pytest.raises(ValueError, match=r"\[optim.SGD\] learning_rate must be >= 0, got -0.5"):
        opt.update(model, {"w": loom.ones((2,), dtype=loom.float32, device=device)})


def test_gradient_errors(device):
    params = {"w": loom.ones((2, 3), dtype=loom.float32, device=device)}
    opt = optim.Adam()
    state = opt.init(params)
    with pytest.raises(ValueError, match=r"\[optim.Adam\] the gradient of 'w' has shape \(3, 2\) but the parameter "
                                         r"has shape \(2, 3\)"):
        opt.apply(params, {"w": loom.ones((3, 2), dtype=loom.float32, device=device)}, state)
    with pytest.raises(TypeError, match=r"\[optim.Adam\] the gradient of 'w' has dtype float64 but the parameter "
                                        "has dtype float32"):
        opt.apply(params, {"w": loom.ones((2, 3), dtype=loom.float64, device=device)}, state)
    with pytest.raises(ValueError, match=r"\[optim.Adam\] got a gradient for 'v', which is not a parameter"):
        opt.apply(params, {"v": loom.ones((2, 3), dtype=loom.float32, device=device)}, state)
    with pytest.raises(TypeError, match="must be an array, not list"):
        opt.apply(params, {"w": [[1.0] * 3] * 2}, state)
    with pytest.raises(TypeError, match="grads must be a dict"):
        opt.apply(params, [loom.ones((2, 3), device=device)], state)
    with pytest.raises(TypeError, match="params must be a dict"):
        opt.init([params["w"]])
    with pytest.raises(TypeError, match=r"parameter 'i' has dtype int32; optimisers update float parameters"):
        opt.init({"i": loom.ones((2,), dtype=loom.int32, device=device)})
    with pytest.raises(TypeError, match="state must be what init"):
        opt.apply(params, {}, None)
    with pytest.raises(ValueError, match="no 'exp_avg' buffers"):
        opt.apply(params, {}, optim.SGD(0.1).init(params))
    bigger = dict(params, extra=loom.ones((1,), dtype=loom.float32, device=device))
    with pytest.raises(ValueError, match="no 'exp_avg' for parameter 'extra'"):
        opt.apply(bigger, {"extra": loom.ones((1,), dtype=loom.float32, device=device)}, state)
    bad_schedule = optim.SGD(lambda step: "fast")
    with pytest.raises(TypeError, match=r"\[optim.SGD\] the learning_rate schedule returned a str"):
        bad_schedule.apply(params, {"w": params["w"]}, bad_schedule.init(params))


@pytest.mark.gpu
def test_gradient_on_another_device(gpu):
    params = {"w": loom.ones((2,), dtype=loom.float32, device=gpu)}
    opt = optim.SGD(0.1)
    with pytest.raises(loom.DeviceMismatchError, match=r"gradient of 'w' is on cpu\(\) but the parameter is on gpu"):
        opt.apply(params, {"w": loom.ones((2,), dtype=loom.float32, device=loom.cpu())}, opt.init(params))
