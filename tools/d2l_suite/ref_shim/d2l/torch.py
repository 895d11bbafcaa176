"""The reference run's `d2l.torch`: the book's own library (d2l/torch.py of $D2L_DIR) under real
PyTorch, with torchvision's FashionMNIST replaced by the harness's data (the real files from
$D2L_DATA when present, else the same stand-in the loom run uses: shim/torchvision/datasets.py),
so that loom's accuracies can be compared with PyTorch's on the same data. The board draws
nothing (display=False). D2L_SUITE_MAX_EPOCHS / D2L_SUITE_MAX_BATCHES cap as in the loom run."""
import importlib.util
import itertools
import os
import sys
from pathlib import Path

import numpy as np
import torch
import torchvision
from PIL import Image

_here = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("_d2l_suite_data", _here / "shim" / "torchvision" / "datasets.py")
_data = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_data)


class FashionMNISTData(torch.utils.data.Dataset):
    def __init__(self, root="../data", train=True, transform=None, download=False):
        d = _data.FashionMNIST(root, train)
        self.data, self.targets, self.transform = d.data, d.targets, transform
        self.stand_in = _data.STAND_IN

    def __len__(self):
        return len(self.targets)

    def __getitem__(self, i):
        img = Image.fromarray(self.data[i], mode="L")
        return (self.transform(img) if self.transform else img), int(self.targets[i])


torchvision.datasets.FashionMNIST = FashionMNISTData
STAND_IN = None

_book = Path(os.environ["D2L_DIR"]) / "d2l" / "torch.py"
d2l = sys.modules[__name__]
exec(compile(_book.read_text(), str(_book), "exec"), globals())
STAND_IN = _data.STAND_IN

_ProgressBoard_init = ProgressBoard.__init__  # noqa: F821 - defined by the book's library


def _quiet_board(self, *a, display=True, **k):
    _ProgressBoard_init(self, *a, display=False, **k)


ProgressBoard.__init__ = _quiet_board  # noqa: F821

_cap_e, _cap_b = os.environ.get("D2L_SUITE_MAX_EPOCHS"), os.environ.get("D2L_SUITE_MAX_BATCHES")
_Trainer_init, _prepare_data = Trainer.__init__, Trainer.prepare_data  # noqa: F821


def _init(self, max_epochs, *a, **k):
    _Trainer_init(self, min(max_epochs, int(_cap_e)) if _cap_e else max_epochs, *a, **k)


class _Capped:
    def __init__(self, inner, n):
        self.inner, self.n = inner, n

    def __iter__(self):
        return itertools.islice(iter(self.inner), self.n)

    def __len__(self):
        return min(len(self.inner), self.n)


def _prepare(self, data):
    _prepare_data(self, data)
    if _cap_b:
        n = int(_cap_b)
        self.train_dataloader = _Capped(self.train_dataloader, n)
        self.val_dataloader = _Capped(self.val_dataloader, n)
        self.num_train_batches = len(self.train_dataloader)
        self.num_val_batches = len(self.val_dataloader)


Trainer.__init__, Trainer.prepare_data = _init, _prepare  # noqa: F821
