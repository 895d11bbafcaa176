"""Optimisers (loom.optim): SGD, Adam and AdamW with PyTorch's update rules, and clipping of
gradients by their global norm, written with loom's array ops so that they run on every
device and inside loom.jit and loom.grad.

Two ways in, as MLX and Optax have them:

    opt = optim.Adam(learning_rate=1e-3)
    opt.update(model, grads)                      # stateful: the state lives in opt.state

    state = opt.init(params)                      # functional and pure: usable under loom.jit
    params, state = opt.apply(params, grads, state)

`params` and `grads` are dicts name -> array (a model's named_parameters()); a gradient that
is missing or None leaves its parameter, and that parameter's buffers, unchanged. The state is
a dict: "step", an int32 0-d array counting the updates applied (an array, not a Python int,
so that a jitted training step does not retrace as it counts), and one dict name -> array per
buffer of the optimiser ("momentum_buffer"; "exp_avg" and "exp_avg_sq").

`learning_rate` is a float or a schedule: a callable step -> learning rate, called with the
"step" array (0 for the first update, as Optax and MLX count) and written with loom ops.

Where this differs from torch.optim: one step count for all parameters (torch counts per
parameter, which differs only for a parameter that skipped updates: its bias correction);
float16/bfloat16 parameters are updated in float32 with float32 buffers and rounded once
(as torch's fused kernels compute; in 16 bits Adam's second moment and eps underflow to 0);
amsgrad, maximize and parameter groups are not offered.

PyTorch's form works too: optim.SGD(model.parameters(), lr=0.1, momentum=0.9) updates the
parameters given (all of the model's, here) exactly as optim.SGD(0.1, momentum=0.9) does;
opt.zero_grad() does nothing and opt.step() says to use opt.update(model, grads).
Learning-rate schedules: `schedules` (loom's form, functions of the update count) and
`lr_scheduler` (torch's classes, stepped once an epoch).
"""
from . import lr_scheduler, schedules
from .adam import Adam, AdamW
from .clip import clip_grad_norm
from .optimizer import Optimizer
from .sgd import SGD

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "clip_grad_norm", "lr_scheduler", "schedules"]
