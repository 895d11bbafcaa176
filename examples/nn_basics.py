"""d2l's GPU snippets and its linear regression, with loom.nn and the Trainer:

    python3 examples/nn_basics.py

A network's parameters live on a device; net(X) runs there; an input on another device is
a clear error; the Trainer fits y = Xw + b and recovers w and b.
"""
import numpy as np

import loom
from loom import nn, optim

# ---- d2l 6.7 "GPUs": a network on a device ------------------------------------------------------
device = loom.try_gpu()                          # gpu(0), or cpu() without a GPU
net = nn.Sequential(nn.LazyLinear(1))
X = loom.ones((2, 3), device=device)
net(X)                                           # the lazy layer takes its input size here
net = net.to(device)
print("net(X) =", net(X).numpy().ravel(), "on", net[0].weight.device)
if device != loom.cpu():
    try:
        net(loom.ones((2, 3), device=loom.cpu()))
    except loom.DeviceMismatchError as e:
        print("an input on cpu():", e)


# ---- d2l 3.4: linear regression fitted by the Trainer -------------------------------------------
class LinearRegression(nn.Module):
    def __init__(self, lr):
        super().__init__()
        self.net = nn.Linear(2, 1)
        self.lr = lr

    def forward(self, X):
        return self.net(X)

    def training_step(self, batch):
        X, y = batch
        return nn.losses.mse_loss(self(X), y)

    def validation_step(self, batch):
        X, y = batch
        return nn.losses.mse_loss(self(X), y)

    def configure_optimizers(self):
        return optim.SGD(self.lr)


class SyntheticRegressionData:
    def __init__(self, w, b, noise=0.01, n=2000, batch_size=32):
        rng = np.random.default_rng(0)
        self.X = rng.standard_normal((n, len(w))).astype(np.float32)
        self.y = (self.X @ np.asarray(w, np.float32)[:, None] + b + noise * rng.standard_normal((n, 1))).astype(np.float32)
        self.batch_size, self.cut = batch_size, n // 2

    def train_dataloader(self):
        return loom.data.DataLoader((self.X[:self.cut], self.y[:self.cut]), self.batch_size, shuffle=True,
                                    key=loom.random.key(0))

    def val_dataloader(self):
        return loom.data.DataLoader((self.X[self.cut:], self.y[self.cut:]), self.batch_size)


loom.random.seed(0)
data = SyntheticRegressionData(w=[2, -3.4], b=4.2)
model = LinearRegression(lr=0.03)
trainer = loom.Trainer(max_epochs=5, num_gpus=1 if loom.num_gpus() else 0, progress=False)
trainer.fit(model, data)
w, b = model.net.weight.numpy().ravel(), model.net.bias.numpy()
print(f"error in estimating w: {np.array([2, -3.4]) - w}, b: {4.2 - b}")
assert np.abs(np.array([2, -3.4]) - w).max() < 0.05 and abs(4.2 - b[0]) < 0.05
