"""loom.data.DataLoader's prefetching: the same batches in the same order with and without
it, on cpu() and each GPU; early breaks; and, through fake copies that finish only when
waited for, that a pinned buffer is never refilled while its copy may still read it."""
import numpy as np
import pytest

import loom
from loom import data


def _epoch(dl):
    return [tuple(t.numpy() for t in b) for b in dl]


def _sources(n=37):
    rng = np.random.default_rng(0)
    return rng.standard_normal((n, 3, 2)).astype(np.float32), np.arange(n, dtype=np.int64) * 3


@pytest.mark.parametrize("prefetch", [0, 1, 2, 5])
@pytest.mark.parametrize("drop_last", [False, True])
def test_batches_equal_numpy_slicing(device, prefetch, drop_last):
    X, y = _sources()
    dl = data.DataLoader((X, y), batch_size=8, device=device, drop_last=drop_last, prefetch=prefetch)
    batches = list(dl)
    assert len(batches) == len(dl) == (4 if drop_last else 5)
    for b, (bx, by) in enumerate(batches):
        assert bx.device == device and by.device == device and bx.dtype == loom.float32 and by.dtype == loom.int64
        np.testing.assert_array_equal(bx.numpy(), X[8 * b:8 * b + 8])
        np.testing.assert_array_equal(by.numpy(), y[8 * b:8 * b + 8])


def test_shuffled_order_is_the_same_with_and_without_prefetch(device):
    X, y = _sources()
    key = loom.random.key(11)
    plain = data.DataLoader((X, y), batch_size=6, shuffle=True, key=key, device=device, prefetch=0)
    ahead = data.DataLoader((X, y), batch_size=6, shuffle=True, key=key, device=device, prefetch=3)
    for epoch in range(3):
        want, got = _epoch(plain), _epoch(ahead)
        perm = loom.random.permutation(loom.random.fold_in(key, epoch), len(X)).numpy()
        assert len(got) == len(want) == 7
        for b, ((wx, wy), (gx, gy)) in enumerate(zip(want, got)):
            np.testing.assert_array_equal(gy, wy)
            np.testing.assert_array_equal(gx, wx)
            np.testing.assert_array_equal(gy, y[perm[6 * b:6 * b + 6]])


def test_loom_sources_mixed_with_numpy(device):
    X, y = _sources()
    dl = data.DataLoader((X, loom.asarray(y, device=device)), batch_size=5, shuffle=True, device=device, prefetch=2)
    for bx, by in _epoch(dl):
        np.testing.assert_array_equal(bx, X[by // 3])


def test_early_break_then_a_fresh_epoch(device):
    X, y = _sources()
    key = loom.random.key(5)
    ahead = data.DataLoader((X, y), batch_size=4, shuffle=True, key=key, device=device, prefetch=2)
    plain = data.DataLoader((X, y), batch_size=4, shuffle=True, key=key, device=device, prefetch=0)
    for dl in (ahead, plain):
        for i, _ in enumerate(dl):
            if i == 1:
                break
    assert ahead.epoch == plain.epoch == 1
    for _ in range(2):
        got, want = _epoch(ahead), _epoch(plain)
        assert len(got) == len(want) == len(ahead) == 10
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g[0], w[0])
            np.testing.assert_array_equal(g[1], w[1])


def test_prefetch_must_not_be_negative():
    with pytest.raises(ValueError, match="prefetch"):
        data.DataLoader(np.zeros(4), prefetch=-1)


# ---- the staging, observed without a GPU ------------------------------------------------

class _FakeCopies:
    """A copy engine that reads the host buffer only when an event behind it is waited for,
    as a DMA may run any time before its event completes."""

    def __init__(self):
        self.queue = []  # copies not yet run, in stream order
        self.started = 0

    def run_through(self, copy):
        while copy in self.queue:
            c = self.queue.pop(0)
            c.value = np.array(c.host)


class _FakeCopy:
    def __init__(self, host):
        self.host, self.value, self.handed_over_with = host, None, None

    def numpy(self):
        assert self.value is not None, "read before its copy ran"
        return self.value


class _FakeEvent:
    def __init__(self, copies, last):
        self.copies, self.last = copies, last

    def query(self):
        return self.last not in self.copies.queue

    def synchronize(self):
        self.copies.run_through(self.last)


def _fake_loader(copies, arrays, **kw):
    class Staging(data._PinnedStaging):
        def _empty(self, shape, dtype):
            return np.empty(shape, loom.asarray(np.empty(0, dtype)).dtype.dtype)

        def _upload(self, host):
            c = _FakeCopy(host)
            copies.queue.append(c)
            copies.started += 1
            return c

        def _record(self):
            return _FakeEvent(copies, copies.queue[-1])

        def _hand_over(self, x, copied):
            assert x.handed_over_with is None
            x.handed_over_with = copied

    class Loader(data.DataLoader):
        _Staging = Staging

        def _stages(self, a):  # as a NumPy array bound for a GPU would
            return self.prefetch > 0 and isinstance(a, np.ndarray)

    return Loader(arrays, device=loom.cpu(), **kw)


@pytest.mark.parametrize("prefetch", [1, 3])
def test_a_pinned_buffer_is_not_refilled_while_its_copy_is_in_flight(prefetch):
    copies = _FakeCopies()
    X, y = _sources(50)
    Xs = X.astype(">f4")[:, :, ::-1]  # byte-swapped and strided: gathered with a conversion
    dl = _fake_loader(copies, (Xs, y), batch_size=4, shuffle=True, key=loom.random.key(2), prefetch=prefetch)
    batches = []
    for b, (bx, by) in enumerate(dl):
        # `prefetch` batches ahead of this one have been started, no more.
        assert copies.started == 2 * min(b + 1 + prefetch, len(dl))
        # Handed over once, with the event recorded behind both of its copies.
        assert bx.handed_over_with is by.handed_over_with and by.handed_over_with.last is by
        batches.append((bx, by))
    assert not copies.queue  # the end of the epoch waited for every copy
    for bx, by in batches:
        # Copies ran late, reading the buffers then: a refill before its event would show here.
        np.testing.assert_array_equal(bx.numpy(), Xs[by.numpy() // 3])
    assert len(batches) == 13 and sorted(np.concatenate([b.numpy() for _, b in batches])) == list(y)


def test_buffers_are_kept_across_epochs_and_an_early_break_waits_for_its_copies():
    copies = _FakeCopies()
    X, y = _sources(20)
    dl = _fake_loader(copies, (X, y), batch_size=4, prefetch=2)
    for b, _ in enumerate(dl):
        if b == 0:
            break
    assert not copies.queue  # the copies started ahead were waited for before the buffers may go
    first = [id(buf) for buf in dl._staging.slots[0][0]]
    list(dl)
    assert [id(buf) for buf in dl._staging.slots[0][0]] == first and len(dl._staging.slots) == 3


# ---- on a GPU: the real copies ------------------------------------------------------------

@pytest.mark.parametrize("user_stream", [False, True])
def test_gpu_batches_are_read_after_their_copy(gpu, user_stream):
    # 16 MiB batches read at once: the copy stream is not ordered with the user's stream by
    # CUDA, so a read that did not wait for its copy would see stale or partial rows.
    rng = np.random.default_rng(1)
    X = rng.standard_normal((8 * 4096, 1024)).astype(np.float32)
    dl = data.DataLoader((X, np.arange(len(X))), batch_size=4096, shuffle=True, device=gpu, prefetch=2)
    stream = loom.Stream(device=gpu) if user_stream else loom.default_stream(gpu)
    for _ in range(2):
        sums, rows = [], []
        with stream:
            for bx, idx in dl:
                sums.append(loom.sum(bx, axis=1))
                rows.append(idx)
        for s, idx in zip(sums, rows):
            np.testing.assert_allclose(s.numpy(), X[idx.numpy()].sum(axis=1), rtol=1e-4, atol=1e-3)
    assert len(dl._staging.slots) == 3


def test_gpu_batches_are_right_while_the_gpu_lags(gpu):
    # A slow consumer: copies of later batches are queued (and their device memory comes back
    # from the pool) while the GPU still works on earlier ones.
    rng = np.random.default_rng(2)
    X = rng.standard_normal((24 * 256, 512)).astype(np.float32)
    big = loom.ones((2048, 2048), dtype=loom.float32, device=gpu) / 2048
    dl = data.DataLoader((X, np.arange(len(X))), batch_size=256, shuffle=True, device=gpu, prefetch=2)
    for _ in range(2):
        sums, rows = [], []
        for bx, idx in dl:
            h = big
            for _ in range(10):
                h = h @ big
            sums.append(loom.sum(bx, axis=1) + 0 * loom.sum(h))
            rows.append(idx)
        for s, idx in zip(sums, rows):
            np.testing.assert_allclose(s.numpy(), X[idx.numpy()].sum(axis=1), rtol=1e-4, atol=1e-4)


def test_gpu_default_device_uses_the_staging(gpu):
    X, y = _sources()
    with loom.device(gpu):
        got = _epoch(data.DataLoader((X, y), batch_size=8))
    dl = data.DataLoader((X, y), batch_size=8, device=gpu)
    assert [g[1].tolist() for g in got] == [w[1].tolist() for w in _epoch(dl)]
    assert dl._staging is not None and dl._staging.device == gpu


def test_the_copy_bindings_refuse_the_cpu():
    with pytest.raises(ValueError, match="GPU"):
        loom._loom._upload_async(loom.empty_pinned((2,), np.float32), loom.Stream(device=loom.cpu()))
    with pytest.raises(ValueError, match="GPU"):
        loom._loom._hand_over(loom.zeros(2, device=loom.cpu()), loom.Event(loom.cpu()))


def test_gpu_upload_async_refuses_pageable_memory(gpu):
    with pytest.raises(ValueError, match="page-locked"):
        loom._loom._upload_async(np.zeros(1024, np.float32), loom.Stream(device=gpu))


def test_parallel_row_gather_matches_numpy():
    rng = np.random.default_rng()
    src = rng.standard_normal((300, 7, 5)).astype(np.float32)
    out = np.empty((40, 7, 5), np.float32)
    loom._loom._gather_rows(src, None, 123, out)
    np.testing.assert_array_equal(out, src[123:163])
    idx = rng.integers(0, 300, 40)
    loom._loom._gather_rows(src, idx.astype(np.int64), 0, out)
    np.testing.assert_array_equal(out, src[idx])
    with pytest.raises(ValueError, match="out of range"):
        loom._loom._gather_rows(src, None, 270, out)
    with pytest.raises(ValueError, match="rows differ in size"):
        loom._loom._gather_rows(src, None, 0, np.empty((40, 7, 4), np.float32))
