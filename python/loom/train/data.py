"""loom.data.DataLoader: batches of arrays for training loops (d2l's data.train_dataloader()).

The arrays (NumPy or loom, equal first dimensions) are cut into batches along the first
dimension; with shuffle=True each epoch draws a fresh permutation from `key` folded with the
epoch number, so runs repeat exactly. Each batch is a tuple of loom arrays on `device`.

NumPy arrays bound for a GPU are prefetched: `prefetch` batches ahead of the one handed out,
their rows are gathered into pinned host buffers and copied on a stream of the loader's own,
so the copies overlap the user's work on the GPU and the host never waits for them. Loom
arrays and CPU targets are taken when their batch is handed out, as with prefetch=0.
"""
import collections
import math

import numpy as np

from .. import _loom

__all__ = ["DataLoader"]


class _PinnedStaging:
    """Pinned host buffers and a copy stream for a loader's NumPy arrays on one GPU.

    depth + 1 slots of buffers (one set per batch in flight, plus the one being refilled);
    a slot is refilled only after the event recorded behind its last copy has completed,
    since the DMA reads the pinned memory until then."""

    def __init__(self, device, depth):
        self.device = device
        # Non-blocking: a stream of the default kind would be ordered with the legacy default
        # stream, where most user work runs, and its copies would wait for that work instead
        # of overlapping it. The order that matters is made with events (finish()).
        self.stream = _loom.Stream(device=device, non_blocking=True)
        self.slots = [None] * (depth + 1)  # per slot: (host buffers, event after their copies)
        self.next = 0

    def start(self, arrays, rows, batch_size):
        """Gathers `rows` of each array into the next slot and enqueues the copies; returns
        (device arrays, event) for finish()."""
        i, self.next = self.next, (self.next + 1) % len(self.slots)
        if self.slots[i] is None:
            bufs = [self._empty((batch_size,) + a.shape[1:], a.dtype) for a in arrays]
        else:
            bufs, copied = self.slots[i]
            copied.synchronize()  # usually long done: copies run in order, this one depth batches ago
        m = _count(rows)
        out = []
        for a, buf in zip(arrays, bufs):
            _gather(a, rows, buf[:m])
            out.append(self._upload(buf[:m]))
        copied = self._record()
        self.slots[i] = (bufs, copied)
        return out, copied

    def finish(self, started):
        out, copied = started
        for x in out:
            self._hand_over(x, copied)
        return out

    def drain(self):
        """Waits for every copy: the pinned buffers may then be freed or refilled."""
        for slot in self.slots:
            if slot is not None:
                slot[1].synchronize()

    # The steps that touch the GPU; a test replaces them to watch the buffers without one.
    def _empty(self, shape, dtype):
        return _loom.empty_pinned(shape, dtype)

    def _upload(self, host):
        return _loom._upload_async(host, self.stream)

    def _record(self):
        e = _loom.Event(self.device, enable_timing=False)
        e.record(self.stream)
        return e

    def _hand_over(self, x, copied):
        _loom._hand_over(x, copied)  # the user's stream waits for this copy, not for later ones


def _count(rows):
    return rows.stop - rows.start if isinstance(rows, slice) else len(rows)


def _gather(a, rows, out):
    if a.dtype != out.dtype or not a.flags.c_contiguous:
        np.copyto(out, a[rows])  # also converts a byte-swapped source
    elif isinstance(rows, slice):
        _loom._gather_rows(a, None, rows.start, out)  # in parallel: one thread is slower than the DMA
    else:
        _loom._gather_rows(a, np.ascontiguousarray(rows, dtype=np.int64), 0, out)


class DataLoader:
    _Staging = _PinnedStaging

    def __init__(self, arrays, batch_size=1, shuffle=False, key=None, device=None, drop_last=False, prefetch=2):
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
        if int(prefetch) < 0:
            raise ValueError(f"[DataLoader] prefetch must be >= 0, got {prefetch}")
        self.n, self.batch_size, self.shuffle, self.drop_last = n, int(batch_size), bool(shuffle), bool(drop_last)
        self.key = key if key is not None else _loom.random.key(0)
        self.device = device
        self.prefetch = int(prefetch)
        self.epoch = 0
        self._staging = None  # made on the first prefetched epoch, kept: pinned memory is slow to allocate

    def __len__(self):
        return self.n // self.batch_size if self.drop_last else math.ceil(self.n / self.batch_size)

    def __iter__(self):
        order = None
        if self.shuffle:
            order = _loom.random.permutation(_loom.random.fold_in(self.key, self.epoch), self.n).numpy()
        self.epoch += 1
        batches = (self._rows(order, b) for b in range(len(self)))
        staged = [i for i, a in enumerate(self.arrays) if self._stages(a)]
        if not staged:
            for rows in batches:
                yield tuple(self._take(a, rows) for a in self.arrays)
            return
        staging = self._staging_for(self._target())
        sources = [self.arrays[i] for i in staged]
        pending = collections.deque()
        try:
            for rows in batches:
                pending.append((rows, staging.start(sources, rows, self.batch_size)))
                if len(pending) > self.prefetch:
                    yield self._assemble(staged, staging, *pending.popleft())
            while pending:
                yield self._assemble(staged, staging, *pending.popleft())
        finally:
            # An early break leaves copies in flight; the pinned buffers must outlive them.
            staging.drain()

    def _rows(self, order, b):
        lo, hi = b * self.batch_size, min((b + 1) * self.batch_size, self.n)
        return order[lo:hi] if order is not None else slice(lo, hi)

    def _target(self):
        return _loom.default_device() if self.device is None else _loom.device(self.device)

    def _stages(self, a):
        """Whether array `a` goes through the pinned buffers (a NumPy array bound for a GPU)."""
        return self.prefetch > 0 and isinstance(a, np.ndarray) and self._target().type == "cuda"

    def _staging_for(self, device):
        if self._staging is None or self._staging.device != device or len(self._staging.slots) != self.prefetch + 1:
            if self._staging is not None:
                self._staging.drain()
            self._staging = self._Staging(device, self.prefetch)
        return self._staging

    def _assemble(self, staged, staging, rows, started):
        copied = iter(staging.finish(started))
        return tuple(next(copied) if i in staged else self._take(a, rows) for i, a in enumerate(self.arrays))

    def _take(self, a, rows):
        device = self.device
        if isinstance(a, np.ndarray):
            return _loom.asarray(np.ascontiguousarray(a[rows]), device=device)
        if not isinstance(rows, slice):
            rows = _loom.asarray(rows, device=a.device)
        part = a[rows]
        return part.to(device) if device is not None and part.device != device else part
