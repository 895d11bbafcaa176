"""GPU rows of bench/ops.py for NumPy functions beyond the core: median, percentile, histogram,
bincount, take, roll and pad on 2^24 float32 (int32 for bincount), loom against CuPy and PyTorch.

Each peer is called the way its users would write it: torch.median (the lower of the two middle
values; NumPy's median averages them), torch.quantile, torch.histc (uniform bins, range from the
data like NumPy's), torch.nn.functional.pad. Before timing, loom's answer is checked against
NumPy's on the same data, so a fast wrong answer cannot show up as a row.
"""
import numpy as np

N = 1 << 24
BINS = 256
PAD = 16


def inputs():
    rng = np.random.default_rng(7)
    x = rng.standard_normal(N, dtype=np.float32)
    counts = rng.integers(0, 1024, N, dtype=np.int32)
    idx = rng.integers(0, N, N, dtype=np.int64)
    return x, counts, idx


def numpy_style_calls(xp):
    """The seven calls in NumPy's spelling, which loom and CuPy share."""
    return {
        "median": lambda x: xp.median(x),
        "percentile": lambda x: xp.percentile(x, 90.0),
        "histogram": lambda x: xp.histogram(x, bins=BINS),
        "bincount": lambda c: xp.bincount(c),
        "take": lambda x, i: xp.take(x, i),
        "roll": lambda x: xp.roll(x, 12345),
        "pad": lambda m: xp.pad(m, PAD),
    }


def loom_calls(dev):
    import loom
    return lambda a: loom.asarray(a, device=dev), lambda: loom.synchronize(dev), numpy_style_calls(loom)


def cupy_calls():
    import cupy
    return cupy.asarray, cupy.cuda.Device().synchronize, numpy_style_calls(cupy)


def torch_calls():
    import torch
    import torch.nn.functional as F
    put = lambda a: torch.from_numpy(np.ascontiguousarray(a)).cuda()  # noqa: E731
    return put, torch.cuda.synchronize, {
        "median": lambda x: torch.median(x),
        "percentile": lambda x: torch.quantile(x, 0.9),
        "histogram": lambda x: torch.histc(x, bins=BINS),
        "bincount": lambda c: torch.bincount(c),
        "take": lambda x, i: torch.take(x, i),
        "roll": lambda x: torch.roll(x, 12345),
        "pad": lambda m: F.pad(m, (PAD, PAD, PAD, PAD)),
    }


def check_loom(calls, put, x, counts, idx):
    """loom's answers against NumPy's; raises AssertionError on a wrong one."""
    host = lambda a: np.asarray(a.numpy() if hasattr(a, "numpy") else a)  # noqa: E731
    np.testing.assert_allclose(host(calls["median"](put(x))), np.median(x), rtol=1e-6)
    np.testing.assert_allclose(host(calls["percentile"](put(x))), np.percentile(x, 90.0), rtol=1e-6)
    h, e = calls["histogram"](put(x))
    hn, en = np.histogram(x, bins=BINS)
    assert host(e).dtype == en.dtype, "histogram edges' dtype"  # NumPy's bin type: float32 here
    np.testing.assert_array_equal(host(e), en)
    np.testing.assert_array_equal(host(h), hn)  # NumPy's counts exactly
    np.testing.assert_array_equal(host(calls["bincount"](put(counts))), np.bincount(counts))
    np.testing.assert_array_equal(host(calls["take"](put(x), put(idx))), np.take(x, idx))
    np.testing.assert_array_equal(host(calls["roll"](put(x))), np.roll(x, 12345))
    m = x.reshape(4096, 4096)
    np.testing.assert_array_equal(host(calls["pad"](put(m))), np.pad(m, PAD))


def rows(dev, reps, inner, timed, notes):
    """[(label, unit, higher_is_better, {peer: ms})] for the seven functions."""
    x, counts, idx = inputs()
    peers = {"loom": lambda: loom_calls(dev)}
    for name, make in (("cupy", cupy_calls), ("torch", torch_calls)):
        peers[name] = make
    made = {}
    for name, make in peers.items():
        try:
            made[name] = make()
        except Exception as e:  # noqa: BLE001 - a missing peer is a note and "n/a"
            notes.append(f"{name}: {type(e).__name__}: {str(e).splitlines()[0][:100]}")
    if "loom" in made:
        put, _, calls = made["loom"]
        check_loom(calls, put, x, counts, idx)
    cases = [
        ("median", lambda p: (p(x),)),
        ("percentile", lambda p: (p(x),)),
        ("histogram", lambda p: (p(x),)),
        ("bincount", lambda p: (p(counts),)),
        ("take", lambda p: (p(x), p(idx))),
        ("roll", lambda p: (p(x),)),
        ("pad", lambda p: (p(x.reshape(4096, 4096)),)),
    ]
    out = []
    for op, args_of in cases:
        row = {}
        for name, (put, sync, calls) in made.items():
            try:
                args = args_of(put)
                row[name] = timed(lambda: calls[op](*args), sync, reps, inner) * 1e3
            except Exception as e:  # noqa: BLE001 - an op a peer lacks is "n/a", with the reason
                row[name] = None
                notes.append(f"{name}, {op}: {type(e).__name__}: {str(e).splitlines()[0][:100]}")
        dt = "int32" if op == "bincount" else "float32"
        shape = "4096x4096" if op == "pad" else "2^24"
        out.append((f"{op} {shape} {dt}", "ms", False, row))
    return out
