"""loom.Trainer with d2l's habits (issue 39): lazy layers under the Trainer and under
nn.value_and_grad, num_gpus beyond the machine, a generator data module re-obtained each
epoch, an empty data module's error, the jit hint of a failing step, loom.d2l's base classes
(save_hyperparameters, plot, accuracy next to the loss), schedulers stepped by the Trainer
and fit resuming. Runs on cpu() and every GPU; tiny data, 2-3 epochs."""
import warnings

import numpy as np
import pytest

import loom
from loom import d2l, nn, optim


def _regression(rng, n=96, d=3):
    X = rng.standard_normal((n, d)).astype(np.float32)
    w = rng.standard_normal((d, 1)).astype(np.float32)
    return X, (X @ w + 0.5).astype(np.float32)


class Regression(d2l.Module):
    def __init__(self, net, lr=0.05):
        super().__init__()
        self.save_hyperparameters(ignore=["net"])
        self.net = net

    def loss(self, y_hat, y):
        return loom.mean((y_hat - y) ** 2) / 2


class ArrayData(d2l.DataModule):
    """Batches from NumPy arrays; as_generator: train_dataloader() returns a generator."""

    def __init__(self, X, y, batch_size=16, as_generator=False, num_val=32):
        super().__init__()
        self.save_hyperparameters()
        self.calls = 0

    def get_dataloader(self, train):
        t = len(self.X) - self.num_val
        X, y = (self.X[:t], self.y[:t]) if train else (self.X[t:], self.y[t:])
        if train:
            self.calls += 1
        if not self.as_generator:
            return self.get_tensorloader((X, y), train)
        return ((X[i:i + self.batch_size], y[i:i + self.batch_size]) for i in range(0, len(X), self.batch_size))


def _trainer(device, epochs=2, **kw):
    return loom.Trainer(max_epochs=epochs, devices=[device], progress=False, **kw)


# ---- lazy layers -----------------------------------------------------------------------------
def test_lazy_linear_trains_under_the_trainer(device, rng):
    X, y = _regression(rng)
    model = Regression(nn.Sequential(nn.LazyLinear(8), nn.ReLU(), nn.LazyLinear(1)))
    trainer = _trainer(device, epochs=3)
    trainer.fit(model, ArrayData(X, y))
    first, last = model.net[0], model.net[2]
    assert type(first) is nn.Linear and type(last) is nn.Linear  # lazy layers become plain ones
    assert (first.in_features, last.in_features) == (3, 8)
    assert first.weight.device == device and model.device == device
    losses = trainer.history["train_loss"]
    assert len(losses) == 3 and losses[-1] < losses[0]


def test_lazy_conv_and_batch_norm_train_under_the_trainer(device, rng):
    X = rng.standard_normal((48, 2, 6, 6)).astype(np.float32)
    y = rng.standard_normal((48, 1)).astype(np.float32)
    net = nn.Sequential(nn.LazyConv2d(4, kernel_size=3, padding=1), nn.LazyBatchNorm2d(), nn.ReLU(), nn.Flatten(),
                        nn.LazyLinear(5), nn.LazyBatchNorm1d(), nn.ReLU(), nn.LazyLinear(1))
    model = Regression(net, lr=0.01)
    trainer = _trainer(device)
    trainer.fit(model, ArrayData(X, y, num_val=16))
    assert [type(m).__name__ for m in net] == ["Conv2d", "BatchNorm2d", "ReLU", "Flatten", "Linear", "BatchNorm1d",
                                              "ReLU", "Linear"]
    assert net[0].in_channels == 2 and net[1].num_features == 4 and net[4].in_features == 144
    # The eager first call ran in eval mode: only the training steps moved the statistics.
    assert int(net[1].num_batches_tracked.numpy()) == trainer.train_batch_idx == 4
    assert all(np.isfinite(v) for v in trainer.history["train_loss"])


def test_lazy_layers_under_value_and_grad(device, rng):
    X = loom.asarray(rng.standard_normal((10, 4)).astype(np.float32), device=device)
    y = loom.asarray(rng.standard_normal((10, 2)).astype(np.float32), device=device)
    net = nn.Sequential(nn.LazyLinear(6), nn.LazyBatchNorm1d(), nn.Tanh(), nn.LazyLinear(2))

    def loss_fn(m, X, y):
        return loom.mean((m(X) - y) ** 2)
    loss, grads = nn.value_and_grad(net, loss_fn)(net, X, y)
    assert sorted(grads) == sorted(n for n, _ in net.named_parameters())
    assert grads["0.weight"].shape == (6, 4) and grads["0.weight"].device == device
    assert int(net[1].num_batches_tracked.numpy()) == 1  # the first (eval-mode) call left it alone
    # Against a hand computation with the parameters the first call made (BatchNorm in train mode).
    W0, b0, W3, b3 = (net.state_dict()[k].numpy() for k in ("0.weight", "0.bias", "3.weight", "3.bias"))
    h = X.numpy() @ W0.T + b0
    h = np.tanh((h - h.mean(0)) / np.sqrt(h.var(0) + 1e-5))
    np.testing.assert_allclose(float(loss.numpy()), np.mean((h @ W3.T + b3 - y.numpy()) ** 2), rtol=1e-4)


def test_lazy_layers_under_jit_say_to_call_the_model_once():
    net = nn.Sequential(nn.LazyLinear(3))
    vg = nn.value_and_grad(net, lambda m, x: loom.sum(m(x)))
    x = loom.ones((2, 5), device=loom.cpu())
    with pytest.raises(loom._loom.ConcretizationTypeError, match=r"lazy layers \(0\) have no parameters yet.*Call the model once on a batch.*net\(X\)"):
        loom.jit(lambda m, x: vg(m, x))(net, x)
    with pytest.raises(loom._loom.ConcretizationTypeError, match=r"\[nn\.LazyLinear\] .*in_features.*net\(X\)"):
        loom.jit(lambda m, x: m(x))(net, x)
    net(x)  # d2l's habit: one call, then everything works
    loss, grads = loom.jit(lambda m, x: vg(m, x))(net, x)
    assert grads["0.weight"].shape == (3, 5)


# ---- devices ---------------------------------------------------------------------------------
def test_num_gpus_beyond_the_machine_warns_then_trains_on_what_exists(rng):
    have = loom.num_gpus()
    with pytest.warns(UserWarning, match=rf"num_gpus={have + 1}, but this machine has {have} GPU") as w:
        trainer = loom.Trainer(max_epochs=2, num_gpus=have + 1, progress=False)
    assert len(w) == 1
    assert trainer.gpus == [loom.gpu(i) for i in range(have)]
    assert trainer.devices == (trainer.gpus or [loom.cpu()])
    X, y = _regression(rng)
    model = Regression(nn.Linear(3, 1))
    trainer.fit(model, ArrayData(X, y))
    assert model.device == trainer.devices[0] and len(trainer.history["train_loss"]) == 2
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert loom.Trainer(max_epochs=1, num_gpus=have).gpus == [loom.gpu(i) for i in range(have)]
    assert loom.Trainer(max_epochs=1, devices=["cpu"]).devices == [loom.cpu()]


# ---- the data --------------------------------------------------------------------------------
@pytest.mark.parametrize("lazy", [False, True])
def test_a_generator_data_module_trains_every_epoch(device, rng, lazy):
    X, y = _regression(rng)
    data = ArrayData(X, y, as_generator=True)
    model = Regression(nn.LazyLinear(1) if lazy else nn.Linear(3, 1))
    trainer = _trainer(device, epochs=3)
    trainer.fit(model, data)
    losses = trainer.history["train_loss"]
    assert data.calls == 3  # one generator per epoch (the lazy layer's first batch is the first epoch's)
    assert len(set(losses)) == 3 and all(v > 0 for v in losses) and losses[-1] < losses[0]
    assert trainer.num_train_batches == 4 and trainer.train_batch_idx == 12
    assert all(v is not None for v in trainer.history["val_loss"])


def test_an_empty_data_module_is_an_error_naming_it(rng):
    class EmptyData:
        def train_dataloader(self):
            return iter(())

    with pytest.raises(ValueError, match=r"epoch 1: EmptyData\.train_dataloader\(\) gave no batches"):
        _trainer(loom.cpu()).fit(Regression(nn.Linear(3, 1)), EmptyData())

    class SharedGenerator:
        """Returns the same generator every time: the second epoch finds it used up."""

        def __init__(self):
            X, y = _regression(rng, n=32)
            self.gen = ((X[i:i + 8], y[i:i + 8]) for i in range(0, 32, 8))

        def train_dataloader(self):
            return self.gen

    with pytest.raises(ValueError, match=r"epoch 2: SharedGenerator\.train_dataloader\(\) gave no batches.*new one"):
        _trainer(loom.cpu()).fit(Regression(nn.Linear(3, 1)), SharedGenerator())


# ---- the jitted step's errors ----------------------------------------------------------------
class ReadsTheLoss(Regression):
    def training_step(self, batch):
        loss = self.loss(self(*batch[:-1]), batch[-1])
        if float(loss.numpy()) > 1e9:  # a host read of a traced value
            raise RuntimeError("diverged")
        return loss


class WrongShapes(Regression):
    def training_step(self, batch):
        return self.loss(self(batch[0][:, :2]), batch[-1])  # two features into Linear(3, 1)


def test_an_error_in_the_jitted_step_says_jit_and_jit_false(rng):
    X, y = _regression(rng, n=48)
    hint = r"training step, which runs under loom\.jit.*Trainer\(jit=False\) runs the step eagerly"
    with pytest.raises(loom._loom.ConcretizationTypeError, match=r"(?s)reads the value of a traced array.*" + hint) as e:
        _trainer(loom.cpu()).fit(ReadsTheLoss(nn.Linear(3, 1)), ArrayData(X, y))
    assert isinstance(e.value.__cause__, loom._loom.ConcretizationTypeError)  # the original stays attached
    with pytest.raises(ValueError, match=r"(?s)\[nn\.Linear\] expected inputs with 3 features.*" + hint):
        _trainer(loom.cpu()).fit(WrongShapes(nn.Linear(3, 1)), ArrayData(X, y))
    with pytest.raises(ValueError, match=r"\[nn\.Linear\] expected inputs with 3 features") as e:
        _trainer(loom.cpu(), jit=False).fit(WrongShapes(nn.Linear(3, 1)), ArrayData(X, y))
    assert "loom.jit" not in str(e.value)  # eagerly: the error as raised


def test_help_documents_the_trainer():
    doc = loom.Trainer.__doc__
    for words in ("num_gpus", "devices=", "train_dataloader()", "generator", "loom.jit", "jit=False", "Lazy layers",
                  "resumes", "scheduler", "plot"):
        assert words in doc, words


# ---- d2l's classes, the board, resuming --------------------------------------------------------
class SoftmaxRegression(d2l.Classifier):
    def __init__(self, num_outputs, lr):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential(nn.Flatten(), nn.LazyLinear(num_outputs))


def _classes(rng, n=96):
    X = rng.standard_normal((n, 2, 3)).astype(np.float32)
    return X, np.argmax(X[:, 0, :], axis=1).astype(np.int32)


def test_d2l_classifier_shows_accuracy_next_to_the_loss(device, rng, capsys):
    model = SoftmaxRegression(num_outputs=3, lr=0.5)
    assert model.hparams == {"num_outputs": 3, "lr": 0.5} and model.lr == 0.5
    trainer = loom.Trainer(max_epochs=3, devices=[device])
    trainer.fit(model, ArrayData(*_classes(rng)))
    h = trainer.history
    assert len(h["val_acc"]) == 3 and all(0 <= a <= 1 for a in h["val_acc"]) and h["val_acc"][-1] > 0.5
    assert h["train_loss"][-1] < h["train_loss"][0]
    assert list(trainer.board.data) == ["train_loss", "val_loss", "val_acc"]
    assert [x for x, _ in trainer.board.data["val_acc"]] == [1, 2, 3]
    lines = [ln for ln in capsys.readouterr().err.splitlines() if ln.startswith("epoch 3/3:")]
    assert lines and "train loss" in lines[-1] and "val loss" in lines[-1] and "val acc" in lines[-1]


def test_accuracy_from_a_module_that_only_defines_it(rng):
    class Plain(nn.Module):
        def __init__(self):
            super().__init__()
            self.net = nn.Linear(3, 3)

        def forward(self, X):
            return self.net(X)

        def training_step(self, batch):
            return nn.losses.cross_entropy(self(batch[0]), batch[1])

        def accuracy(self, Y_hat, Y):
            return loom.mean((loom.argmax(Y_hat, axis=1) == Y).astype(loom.float32))

        def configure_optimizers(self):
            return optim.SGD(self.parameters(), lr=0.5)

    X, y = _classes(rng)
    trainer = _trainer(loom.cpu())
    trainer.fit(Plain(), ArrayData(X[:, 0, :].copy(), y))
    assert len(trainer.history["val_acc"]) == 2 and trainer.history["val_loss"] == [None, None]


def test_fit_again_resumes(rng):
    X, y = _regression(rng)
    data = ArrayData(X, y)
    model = Regression(nn.Linear(3, 1), lr=0.05)
    trainer = _trainer(loom.cpu())
    trainer.fit(model, data)
    opt, state_step = trainer.optim, int(trainer.optim.state["step"].numpy())
    trainer.fit(model, data)
    assert state_step == 8 and trainer.optim is opt and int(opt.state["step"].numpy()) == 16
    assert trainer.history["epoch"] == [1, 2, 3, 4] and trainer.epoch == 4
    losses = trainer.history["train_loss"]
    assert losses[3] < losses[1]
    trainer.fit(Regression(nn.Linear(3, 1)), data)  # another model: a fresh start
    assert trainer.history["epoch"] == [1, 2] and trainer.optim is not opt


def test_plot_outside_a_trainer_says_so():
    with pytest.raises(RuntimeError, match=r"draws on the board of the Trainer"):
        Regression(nn.Linear(3, 1)).plot("loss", 1.0)


def test_the_board_writes_a_png(tmp_path, rng):
    pytest.importorskip("matplotlib")
    path = tmp_path / "board.png"
    trainer = _trainer(loom.cpu(), board_path=str(path))
    trainer.fit(Regression(nn.Linear(3, 1)), ArrayData(*_regression(rng)))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# ---- schedulers and PyTorch-form optimisers under the Trainer ---------------------------------------
class Scheduled(Regression):
    def __init__(self, net, form):
        super().__init__(net)
        self.form = form

    def configure_optimizers(self):
        if self.form == "torch":
            opt = optim.SGD(self.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-3)
            return {"optimizer": opt, "lr_scheduler": optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)}
        opt = optim.SGD(0.1, momentum=0.9, weight_decay=1e-3)
        return opt, optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)


def test_trainer_steps_schedulers_and_the_forms_agree(device, rng):
    X, y = _regression(rng)
    results = []
    for form, use_jit in (("torch", True), ("loom", True), ("loom", False)):
        loom.random.seed(5)
        model = Scheduled(nn.Linear(3, 1), form)
        trainer = _trainer(device, epochs=3, jit=use_jit)
        trainer.fit(model, ArrayData(X, y))
        assert trainer.optim.learning_rate == pytest.approx(0.1 * 0.5 ** 3)
        results.append(model.net.weight.numpy())
    np.testing.assert_allclose(results[0], results[1], rtol=1e-6)
    np.testing.assert_allclose(results[1], results[2], rtol=1e-5, atol=1e-6)


class WarmedUp(SoftmaxRegression):
    def configure_optimizers(self):
        return optim.SGD(self.parameters(), lr=optim.schedules.linear_warmup(self.lr, warmup_steps=4))


def test_replicas_train_a_lazy_classifier_like_one_device(rng):
    # Trainer(num_gpus=k)'s arithmetic on replicas sharing cpu(): lazy layers made before the
    # copies, plotted values weighted like the loss, a traced schedule.
    data = ArrayData(*_classes(rng))
    histories = []
    for devices in ([loom.cpu()], [loom.cpu()] * 2):
        loom.random.seed(2)
        trainer = loom.Trainer(max_epochs=2, devices=devices, progress=False)
        trainer.fit(WarmedUp(num_outputs=3, lr=0.3), data)
        histories.append(trainer.history)
    for key in ("train_loss", "val_loss", "val_acc"):
        np.testing.assert_allclose(histories[1][key], histories[0][key], rtol=1e-5, err_msg=key)
