"""A tour of loom: devices, arrays on them, moving data, and what it costs.

Run it with `make demo` (or `python examples/tour.py` with loom importable). It runs on
any machine: without a GPU every array lives on cpu() and the same code runs there.
Each section is one small function; later milestones add sections of their own.
"""
import time

import numpy as np

import loom


def section(title):
    print(f"\n== {title} " + "=" * max(0, 66 - len(title)))


def gib(nbytes):
    return f"{nbytes / 2**30:.1f} GiB"


def check(label, got, want, **tol):
    """Compares a loom array with a NumPy reference and prints one line."""
    got = got.numpy() if hasattr(got, "numpy") else np.asarray(got)
    if tol:
        ok = got.shape == want.shape and np.allclose(got, want, **tol)
    else:
        ok = got.shape == want.shape and np.array_equal(got, want)
    print(f"  {label:<44} {'ok' if ok else 'MISMATCH'}")
    if not ok:
        raise SystemExit(f"tour: {label} differs from NumPy:\n{got}\nvs\n{want}")


def show_devices():
    section("devices")
    cuda = "with" if loom.build_info().get("cuda") else "without"
    print(f"loom {loom.__version__}, built {cuda} the CUDA backend")
    print(f"GPUs: {loom.num_gpus()}")
    for d in loom.devices():
        if d.type == "cpu":
            print(f"  {d!r:<8} {d.name}")
            continue
        major, minor = d.compute_capability
        print(f"  {d!r:<8} {d.name}: {gib(d.total_memory)} ({gib(d.free_memory)} free), "
              f"compute capability {major}.{minor}, {d.multiprocessor_count} SMs")
    default = loom.default_device()
    print(f"default device: {default!r}")
    if loom.num_gpus() == 0:
        print("no GPU here: everything below runs on cpu()")
    return default


def create_arrays(default):
    section("creating arrays")
    x = loom.arange(6, dtype=loom.float32)
    print(f"loom.arange(6) lands on the default device:\n  {x!r}")
    assert x.device == default
    for d in loom.try_all_gpus():
        z = loom.zeros((2, 3), dtype=loom.float16, device=d)
        f = loom.full((2, 2), 7, dtype=loom.int32, device=d)
        print(f"on {d!r}: zeros {z.shape} {z.dtype}, full {f.tolist()}, "
              f"eye(3)[1] = {loom.eye(3, device=d).numpy()[1].tolist()}")
    check("arange(2, 20, 3, int64) == NumPy", loom.arange(2, 20, 3, dtype=loom.int64),
          np.arange(2, 20, 3, dtype=np.int64))
    check("linspace(0, 1, 11) == NumPy", loom.linspace(0, 1, 11), np.linspace(0, 1, 11),
          rtol=0, atol=1e-15)
    check("eye(3, 4, k=1) == NumPy", loom.eye(3, 4, k=1), np.eye(3, 4, k=1))


def move_data(default):
    section("moving data between host and devices")
    host = np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32)
    for d in loom.try_all_gpus():
        x = loom.asarray(host, device=d)            # host -> device
        assert x.to(d) is x                         # already there: the same array
        back = x.copy_to(loom.cpu())                # device -> host, always a copy
        print(f"{d!r}: asarray -> {x.device!r}, copy_to(cpu()) -> {back.device!r}")
        check(f"round trip through {d!r}", back, host)
        check(f"{d!r} .numpy()", x, host)
    y = loom.asarray(host).to(loom.cpu())
    print(f"default {default!r} -> .to(cpu()) -> {y.device!r}")


def compute(default):
    section("computing (on the default device)")
    rng = np.random.default_rng(1)
    a = rng.standard_normal((4, 5)).astype(np.float32)
    x = loom.asarray(a, device=default)
    half = x.astype(loom.float16)
    check("float32 -> float16 -> float32 == NumPy", half.astype(loom.float32),
          a.astype(np.float16).astype(np.float32))
    check("x.T.copy() == a.T", x.T.copy(), a.T)
    print(f"  x.T is a view: shape {x.T.shape}, strides {x.T.strides}")
    ints = loom.arange(10, dtype=loom.int32, device=default).astype(loom.float64)
    check("arange(10, int32).astype(float64)", ints, np.arange(10, dtype=np.float64))


def numpy_ops(default):
    section("NumPy operations (the same code with np and loom)")
    rng = np.random.default_rng(2)
    a = rng.standard_normal((64, 48)).astype(np.float32)
    b = rng.standard_normal((48, 32)).astype(np.float32)
    x, y = loom.asarray(a, device=default), loom.asarray(b, device=default)

    def program(xp, p, q):
        z = xp.cos(p) ** 2 + xp.sin(p) ** 2          # elementwise, broadcasting
        m = (p @ q).astype(xp.float64)                 # matmul (cuBLAS / OpenBLAS)
        return z.sum(axis=1), m.std(axis=0), xp.sort(p[::2, 5:9], axis=0), xp.argmax(p, axis=1)

    for name, got, want in zip(["cos^2 + sin^2, summed", "std of a @ b", "sort of a strided view",
                                "argmax"], program(loom, x, y), program(np, a, b)):
        check(name, got, want, rtol=1e-4)
    mask = x > 0
    check("boolean-mask gather", x[mask], a[a > 0])
    key = loom.random.key(0)
    u = loom.random.uniform(key, (4,), device=default)
    same = u.to(loom.cpu()).numpy() == loom.random.uniform(key, (4,), device=loom.cpu()).numpy()
    print(f"  random.uniform(key(0)) on {default} and cpu(): {'same bits' if same.all() else 'DIFFERENT'}")
    print(f"  x.at[[0, 0]].add(1)[0, 0] - x[0, 0] = {float((x.at[[0, 0]].add(1.0) - x)[0, 0].item()):.1f}")


def memory(default):
    section("memory")
    before = loom.memory.stats(default)
    big = loom.ones((1024, 1024), dtype=loom.float32, device=default)
    after = loom.memory.stats(default)
    print(f"{default!r}: a 4 MiB array moves in_use from {before['in_use']} to "
          f"{after['in_use']} bytes (peak {after['peak']}, cached {after['cached']})")
    del big


def timed(fn, repeat=5):
    """Best wall time of fn() in seconds; fn must wait for its own result."""
    best = float("inf")
    fn()  # warm-up: allocator pools, first-touch pages, compiled kernels
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def timings(default):
    section("timings")
    nbytes = 64 * 2**20
    host = np.random.default_rng(2).random(nbytes // 4, dtype=np.float32)
    rows = []
    for d in loom.try_all_gpus():
        if d.type == "cpu":
            # On cpu() asarray and .numpy() share memory with NumPy: time real copies.
            upload, download = loom.array, np.array
            print("  on cpu(): loom.array(host) and np.array(x) copy; asarray and .numpy() would not")
        else:
            upload, download = loom.asarray, lambda x: x.numpy()
        dev = upload(host, device=d).block_until_ready()
        h2d = timed(lambda: upload(host, device=d).block_until_ready())
        d2h = timed(lambda: download(dev))
        rows.append((f"host -> {d!r} (64 MiB)", h2d, nbytes / h2d / 1e9))
        rows.append((f"{d!r} -> host (64 MiB)", d2h, nbytes / d2h / 1e9))
        small = loom.ones((1000,), dtype=loom.float32, device=d)
        op = timed(lambda: small.astype(loom.float16).block_until_ready(), repeat=50)
        rows.append((f"astype on {d!r}, 1000 elements", op, None))
        loom.synchronize(d)
    print(f"  {'what':<36} {'time':>12} {'GB/s':>8}")
    for what, t, gbs in rows:
        shown = f"{t * 1e3:9.3f} ms" if t >= 1e-3 else f"{t * 1e6:9.1f} us"
        print(f"  {what:<36} {shown:>12} {'' if gbs is None else f'{gbs:8.2f}':>8}")


def streams_and_events(default):
    section("streams and events")
    s = loom.Stream(device=default)
    start, end = loom.Event(), loom.Event()
    with s:
        start.record(s)
        x = loom.ones((2048, 2048), dtype=loom.float32, device=default).astype(loom.float16)
        end.record(s)
    end.synchronize()
    print(f"{default!r}: ones + astype on a side stream took "
          f"{start.elapsed_time(end):.3f} ms by events; result {x.shape} {x.dtype}")


def main():
    default = show_devices()
    create_arrays(default)
    move_data(default)
    compute(default)
    numpy_ops(default)
    memory(default)
    timings(default)
    streams_and_events(default)
    print("\ntour done.")


if __name__ == "__main__":
    main()
