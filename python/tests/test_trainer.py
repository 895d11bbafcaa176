"""loom.Trainer and loom.data.DataLoader: d2l's linear regression recovers the true weights
on cpu() and each GPU, the jitted step is traced once per batch shape, clipping, the errors
of the contract, and the loader's batches and shuffling."""
import numpy as np
import pytest

import loom
from loom import nn


class LinearRegression(nn.Module):
    def __init__(self, lr, dtype=loom.float32):
        super().__init__()
        self.net = nn.Linear(2, 1, dtype=dtype)
        self.lr = lr

    def forward(self, X):
        return self.net(X)

    def loss(self, y_hat, y):
        return loom.mean((y_hat - y) ** 2) / 2

    def training_step(self, batch):
        return self.loss(self(*batch[:-1]), batch[-1])

    def validation_step(self, batch):
        return self.loss(self(*batch[:-1]), batch[-1])

    def configure_optimizers(self):
        return loom.optim.SGD(self.lr)


class SyntheticRegressionData:
    """d2l's: y = X w + b + noise."""

    def __init__(self, w, b, noise=0.01, num_train=1024, num_val=1024, batch_size=32, seed=0):
        rng = np.random.default_rng(seed)
        n = num_train + num_val
        self.X = rng.standard_normal((n, len(w))).astype(np.float32)
        self.y = (self.X @ np.asarray(w, np.float32)[:, None] + b + noise * rng.standard_normal((n, 1))).astype(np.float32)
        self.num_train, self.batch_size = num_train, batch_size

    def train_dataloader(self):
        t = self.num_train
        return loom.data.DataLoader((self.X[:t], self.y[:t]), self.batch_size, shuffle=True, key=loom.random.key(7))

    def val_dataloader(self):
        t = self.num_train
        return loom.data.DataLoader((self.X[t:], self.y[t:]), self.batch_size)


def test_linear_regression_recovers_the_weights(device):
    loom.random.seed(0)
    model = LinearRegression(lr=0.03)
    data = SyntheticRegressionData(w=[2, -3.4], b=4.2)
    num_gpus = 0 if device == loom.cpu() else 1
    if num_gpus and device != loom.gpu(0):
        pytest.skip("the Trainer trains on gpu(0)")
    trainer = loom.Trainer(max_epochs=10, num_gpus=num_gpus, progress=False)
    trainer.fit(model, data)
    assert model.net.weight.device == (loom.gpu(0) if num_gpus else loom.cpu())
    np.testing.assert_allclose(model.net.weight.numpy().ravel(), [2, -3.4], atol=0.02)
    np.testing.assert_allclose(model.net.bias.numpy(), [4.2], atol=0.02)
    h = trainer.history
    assert h["epoch"] == list(range(1, 11)) and h["train_loss"][-1] < h["train_loss"][0] and h["val_loss"][-1] < 1e-3


def test_the_step_is_traced_once_and_matches_eager_training():
    results = []
    for use_jit in (True, False):
        loom.random.seed(1)
        model = LinearRegression(lr=0.05)
        trainer = loom.Trainer(max_epochs=2, jit=use_jit, gradient_clip_val=0.5, progress=False)
        trainer.fit(model, SyntheticRegressionData(w=[1.5, 0.5], b=-1.0, num_train=256))
        if use_jit:
            assert trainer._step_fn._cache_size == 1  # 8 batches of 32 an epoch: one shape
        results.append((model.net.weight.numpy(), model.net.bias.numpy()))
    np.testing.assert_allclose(results[0][0], results[1][0], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(results[0][1], results[1][1], rtol=1e-5, atol=1e-6)


def _parallel_matches_one_device(devices, clip, num_train=250):
    """Trainer over `devices` ends with the parameters of one device on the whole batches
    (250 rows in batches of 32: the last batch, of 26, splits unevenly)."""
    results = []
    for devs in (None, devices):
        loom.random.seed(3)
        model = LinearRegression(lr=0.05)
        trainer = loom.Trainer(max_epochs=2, gradient_clip_val=clip, progress=False, devices=devs)
        trainer.fit(model, SyntheticRegressionData(w=[1.5, 0.5], b=-1.0, num_train=num_train))
        results.append((model.net.weight.numpy(), model.net.bias.numpy(), trainer.history["train_loss"]))
    np.testing.assert_allclose(results[1][0], results[0][0], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(results[1][1], results[0][1], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(results[1][2], results[0][2], rtol=1e-5)


@pytest.mark.parametrize("k", [2, 3])
def test_several_replicas_train_like_one_device(k):
    # Replicas sharing cpu(): the splitting, weighting, all-reduce and update of num_gpus=k.
    _parallel_matches_one_device([loom.cpu()] * k, clip=0.5)


@pytest.mark.skipif(loom.num_gpus() < 2, reason="needs 2 GPUs")
def test_num_gpus_2_trains_like_one_gpu():
    _parallel_matches_one_device([loom.gpu(0), loom.gpu(1)], clip=0)
    model = LinearRegression(lr=0.03)
    trainer = loom.Trainer(max_epochs=1, num_gpus=2, progress=False)
    trainer.fit(model, SyntheticRegressionData(w=[2, -3.4], b=4.2))
    assert trainer.devices == [loom.gpu(0), loom.gpu(1)] and model.net.weight.device == loom.gpu(0)


def test_contract_errors():
    with pytest.warns(UserWarning, match="this machine has"):
        loom.Trainer(max_epochs=1, num_gpus=loom.num_gpus() + 1)
    with pytest.raises(ValueError, match="num_gpus must be"):
        loom.Trainer(max_epochs=1, num_gpus=-1)
    with pytest.raises(ValueError, match="devices must be"):
        loom.Trainer(max_epochs=1, devices=[])
    with pytest.raises(ValueError, match="gradient_clip_val"):
        loom.Trainer(max_epochs=1, gradient_clip_val=-1)

    class NoSteps(nn.Module):
        def forward(self, x):
            return x
    with pytest.raises(TypeError, match="training_step"):
        loom.Trainer(max_epochs=1, progress=False).fit(NoSteps(), SyntheticRegressionData([1, 1], 0))


def test_data_loader_batches_and_shuffles():
    X = np.arange(20, dtype=np.float32).reshape(10, 2)
    y = np.arange(10)
    dl = loom.data.DataLoader((X, y), batch_size=4, shuffle=True, key=loom.random.key(3))
    epochs = [[tuple(t.numpy() for t in b) for b in dl] for _ in range(2)]
    assert len(dl) == 3 and [len(b[1]) for b in epochs[0]] == [4, 4, 2]
    for batches in epochs:
        seen = np.concatenate([b[1] for b in batches])
        assert sorted(seen) == list(range(10))
        for bx, by in batches:
            np.testing.assert_array_equal(bx, X[by])
    assert not np.array_equal(np.concatenate([b[1] for b in epochs[0]]), np.concatenate([b[1] for b in epochs[1]]))
    again = loom.data.DataLoader((X, y), batch_size=4, shuffle=True, key=loom.random.key(3))
    np.testing.assert_array_equal(next(iter(again))[1].numpy(), epochs[0][0][1])
    assert len(loom.data.DataLoader(loom.asarray(X), batch_size=4, drop_last=True)) == 2
    with pytest.raises(ValueError, match="rows"):
        loom.data.DataLoader((X, y[:5]))


def test_plot_writes_the_loss_curves_to_a_png(tmp_path):
    pytest.importorskip("matplotlib")
    model = LinearRegression(lr=0.03)
    trainer = loom.Trainer(max_epochs=3, progress=False)
    trainer.fit(model, SyntheticRegressionData(w=[1.0, 2.0], b=0.5, num_train=256, num_val=128))
    path = trainer.plot(str(tmp_path / "loss.png"))
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000
