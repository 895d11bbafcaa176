"""A small convolutional network trained on scikit-learn's 8x8 handwritten digits with
loom.nn, loom.optim and loom.Trainer, on cpu() or a GPU:

    python3 examples/nn_digits.py            # cpu()
    python3 examples/nn_digits.py --gpu      # gpu(0)

It prints the time of each epoch and the test accuracy, and exits with status 1 below 97%.
It needs scikit-learn (for the data): without it, it says so in one line and exits with
status 2, having trained nothing.
"""
import argparse
import math
import sys

import numpy as np

import loom
from loom import nn, optim


class DigitsNet(nn.Module):
    """Three 3x3 convolutions and two poolings, then two linear layers; Adam with a learning
    rate that falls from 3e-3 to 0 along a cosine over `total_steps`."""

    def __init__(self, total_steps):
        super().__init__()
        self.total_steps = total_steps
        self.net = nn.Sequential(
            nn.Conv2d(1, 32, 3, padding=1), nn.ReLU(),
            nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),   # 32 x 4 x 4
            nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),   # 64 x 2 x 2
            nn.Flatten(), nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, 10))

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch):
        X, y = batch
        return nn.losses.cross_entropy(self(X), y)

    def validation_step(self, batch):
        X, y = batch
        return nn.losses.cross_entropy(self(X), y)

    def configure_optimizers(self):
        total = self.total_steps
        # A function of the step (a traced array inside the jitted step): no retrace per step.
        return optim.Adam(learning_rate=lambda step: 1.5e-3 * (1 + loom.cos(math.pi * step.astype(loom.float32) / total)))


class Digits:
    """The 1797 digits as (N, 1, 8, 8) float32 in [0, 1], split 80/20 by a fixed permutation."""

    def __init__(self, batch_size=64, seed=0):
        from sklearn.datasets import load_digits
        d = load_digits()
        X = (d.images / 16.0).astype(np.float32)[:, None]
        y = d.target.astype(np.int64)
        order = np.random.default_rng(seed).permutation(len(y))
        cut = int(0.8 * len(y))
        self.train = (X[order[:cut]], y[order[:cut]])
        self.test = (X[order[cut:]], y[order[cut:]])
        self.batch_size = batch_size

    def train_dataloader(self):
        return loom.data.DataLoader(self.train, self.batch_size, shuffle=True, key=loom.random.key(1))

    def val_dataloader(self):
        return loom.data.DataLoader(self.test, 256)


def accuracy(model, X, y):
    model.eval()
    device = model.device
    correct = 0
    for i in range(0, len(y), 256):
        logits = model(loom.asarray(X[i:i + 256], device=device))
        correct += int((logits.numpy().argmax(axis=1) == y[i:i + 256]).sum())
    return correct / len(y)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gpu", action="store_true", help="train on gpu(0)")
    parser.add_argument("--epochs", type=int, default=20)
    args = parser.parse_args()
    try:
        import sklearn  # noqa: F401  (the data set comes from scikit-learn)
    except ImportError:
        print("nn_digits.py needs scikit-learn: pip install scikit-learn", file=sys.stderr)
        return 2
    loom.random.seed(0)
    data = Digits()
    model = DigitsNet(total_steps=args.epochs * len(data.train_dataloader()))
    trainer = loom.Trainer(max_epochs=args.epochs, num_gpus=1 if args.gpu else 0, progress=False)
    trainer.fit(model, data)
    for e, s, l, v in zip(trainer.history["epoch"], trainer.history["epoch_seconds"], trainer.history["train_loss"],
                          trainer.history["val_loss"]):
        print(f"epoch {e:2d}: {s:.2f} s, train loss {l:.4f}, test loss {v:.4f}")
    acc = accuracy(model, *data.test)
    print(f"device {model.device}: test accuracy {acc:.4f}, {sum(trainer.history['epoch_seconds']):.1f} s in all")
    return 0 if acc >= 0.97 else 1


if __name__ == "__main__":
    sys.exit(main())
