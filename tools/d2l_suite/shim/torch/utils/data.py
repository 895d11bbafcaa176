"""torch.utils.data: TensorDataset and a DataLoader over datasets that hold their examples
as arrays (TensorDataset, the shim's torchvision datasets): batches are cut from the arrays
(loom.data.DataLoader's shuffling), a dataset's transform applied per batch.
D2L_SUITE_MAX_BATCHES caps the batches an epoch gives (a quick run)."""
import os

import numpy as np

import loom
from loom.data import DataLoader as _LoomLoader


class Dataset:
    pass


class TensorDataset(Dataset):
    def __init__(self, *tensors):
        self.arrays = tuple(tensors)

    def __len__(self):
        return self.arrays[0].shape[0]

    def __getitem__(self, i):
        return tuple(a[i] for a in self.arrays)


def _cap():
    v = os.environ.get("D2L_SUITE_MAX_BATCHES")
    return int(v) if v else None


class DataLoader:
    def __init__(self, dataset, batch_size=1, shuffle=False, num_workers=0, drop_last=False, **kw):
        self.dataset, self.batch_size, self.shuffle, self.drop_last = dataset, batch_size, shuffle, drop_last
        self._epoch = 0

    def __len__(self):
        n = len(self.dataset)
        full = n // self.batch_size if self.drop_last else -(-n // self.batch_size)
        cap = _cap()
        return min(full, cap) if cap else full

    def __iter__(self):
        ds = self.dataset
        arrays = getattr(ds, "arrays", None)
        if arrays is None:
            raise TypeError(f"[d2l shim] DataLoader over {type(ds).__name__}: only datasets holding arrays")
        transform = getattr(ds, "batch_transform", None)
        n = len(ds)
        if self.shuffle:
            order = np.random.default_rng(self._epoch).permutation(n)
        else:
            order = np.arange(n)
        self._epoch += 1
        for b in range(len(self)):
            idx = order[b * self.batch_size:(b + 1) * self.batch_size]
            parts = [np.asarray(a)[idx] if not isinstance(a, loom.ndarray) else a[loom.asarray(idx)]
                     for a in arrays]
            if transform is not None:
                parts = transform(parts)
            yield [p if isinstance(p, loom.ndarray) else loom.asarray(p) for p in parts]
