"""loom.data.DataLoader: batches of arrays for training loops (d2l's data.train_dataloader()).

The arrays (NumPy or loom, equal first dimensions) are cut into batches along the first
dimension; with shuffle=True each epoch draws a fresh permutation from `key` folded with the
epoch number, so runs repeat exactly. Each batch is a tuple of loom arrays on `device`.
"""
import math

import numpy as np

from . import _loom


class DataLoader:
    def __init__(self, arrays, batch_size=1, shuffle=False, key=None, device=None, drop_last=False):
        if isinstance(arrays, (_loom.ndarray, np.ndarray)):
            arrays = (arrays,)
        self.arrays = tuple(arrays)
        if not self.arrays:
            raise ValueError("[DataLoader] needs at least one array")
        n = len(self.arrays[0])
        for i, a in enumerate(self.arrays):
            if not isinstance(a, (_loom.ndarray, np.ndarray)):
                raise TypeError(f"[DataLoader] array {i} is a {type(a).__name__}, not a NumPy or loom array")
            if len(a) != n:
                raise ValueError(f"[DataLoader] array {i} has {len(a)} rows, array 0 has {n}")
        if int(batch_size) < 1:
            raise ValueError(f"[DataLoader] batch_size must be >= 1, got {batch_size}")
        self.n, self.batch_size, self.shuffle, self.drop_last = n, int(batch_size), bool(shuffle), bool(drop_last)
        self.key = key if key is not None else _loom.random.key(0)
        self.device = device
        self.epoch = 0

    def __len__(self):
        return self.n // self.batch_size if self.drop_last else math.ceil(self.n / self.batch_size)

    def __iter__(self):
        order = None
        if self.shuffle:
            order = _loom.random.permutation(_loom.random.fold_in(self.key, self.epoch), self.n).numpy()
        self.epoch += 1
        for b in range(len(self)):
            lo, hi = b * self.batch_size, min((b + 1) * self.batch_size, self.n)
            rows = order[lo:hi] if order is not None else slice(lo, hi)
            yield tuple(self._take(a, rows) for a in self.arrays)

    def _take(self, a, rows):
        device = self.device
        if isinstance(a, np.ndarray):
            return _loom.asarray(np.ascontiguousarray(a[rows]), device=device)
        if not isinstance(rows, slice):
            rows = _loom.asarray(rows, device=a.device)
        part = a[rows]
        return part.to(device) if device is not None and part.device != device else part
