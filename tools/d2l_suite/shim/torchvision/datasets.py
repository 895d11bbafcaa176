"""datasets.FashionMNIST. The real data is read when its files are in $D2L_DATA/FashionMNIST/raw
(the IDX files torchvision downloads: train-images-idx3-ubyte.gz, ...); without them (this
harness downloads nothing) a stand-in of the same shapes and dtypes is made: 60000/10000
28x28 uint8 images in 10 classes, each class a fixed smooth random pattern, faint under
uniform noise, so that
training learns but accuracies say nothing about the book's."""
import gzip
import os
from pathlib import Path

import numpy as np

_FILES = {True: ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"),
          False: ("t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz")}
STAND_IN = None  # set once a dataset is made up


def _idx(path):
    with gzip.open(path, "rb") as f:
        data = f.read()
    ndim = data[3]
    shape = tuple(int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(ndim))
    return np.frombuffer(data, np.uint8, offset=4 + 4 * ndim).reshape(shape)


def _stand_in(train):
    n = 60000 if train else 10000
    rng = np.random.default_rng(39)
    coarse = rng.uniform(0, 255, size=(10, 7, 7))  # smooth class patterns (4x4 blocks, blurred):
    protos = np.kron(coarse, np.ones((4, 4)))        # pooling layers keep them, as they keep shapes
    protos = (protos + np.roll(protos, 1, 1) + np.roll(protos, 1, 2) + np.roll(protos, (1, 1), (1, 2))) / 4
    rng = np.random.default_rng(1 if train else 2)
    y = rng.integers(0, 10, size=n)
    x = 0.12 * protos[y] + rng.uniform(0, 220, size=(n, 28, 28))
    return x.astype(np.uint8), y.astype(np.int64)


class FashionMNIST:
    def __init__(self, root="../data", train=True, transform=None, download=False):
        global STAND_IN
        raw = Path(os.environ.get("D2L_DATA", root)) / "FashionMNIST" / "raw"
        files = [raw / f for f in _FILES[bool(train)]]
        if all(f.exists() for f in files):
            self.data, self.targets = _idx(files[0]), _idx(files[1]).astype(np.int64)
            STAND_IN = False
        else:
            self.data, self.targets = _stand_in(train)
            STAND_IN = True
        self.transform = transform
        self.arrays = (self.data, self.targets)

    def batch_transform(self, parts):
        x, y = parts
        return [self.transform(x) if self.transform else x, y]

    def __len__(self):
        return len(self.targets)

    def __getitem__(self, i):
        x = self.data[i:i + 1]
        return (self.transform(x)[0] if self.transform else x[0]), int(self.targets[i])
