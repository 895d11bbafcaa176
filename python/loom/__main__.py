"""`python -m loom info`: devices, memory, driver/toolkit versions, cache location.
`python -m loom top` (monitor/_top.py) and `python -m loom dashboard` (monitor/dashboard.py): live views.
`python -m loom profile script.py [args]` (monitor/_profile_cli.py): a script under the profiler."""
import os
import sys


def _gib(n):
    return f"{n / 2**30:.2f} GiB"


def cache_dir():
    """Where compiled kernels are cached on disk: $LOOM_CACHE_DIR, else $XDG_CACHE_HOME/loom,
    else ~/.cache/loom; "" when LOOM_DISABLE_DISK_CACHE=1 keeps the cache in memory only."""
    from . import _loom

    return _loom._compile_cache_dir()


def _cache_line():
    d = cache_dir()
    if not d:
        return "memory only (LOOM_DISABLE_DISK_CACHE is set)"
    if not os.path.isdir(d):
        parent = d
        while parent and not os.path.exists(parent):
            parent = os.path.dirname(parent)
        writable = bool(parent) and os.path.isdir(parent) and os.access(parent, os.W_OK)
        return f"{d} (empty)" if writable else f"{d} (cannot be created: memory only)"
    if not os.access(d, os.W_OK | os.X_OK):
        return f"{d} (not writable: memory only)"
    n = size = 0
    for root, _, files in os.walk(d):
        for f in files:
            try:
                size += os.path.getsize(os.path.join(root, f))
                n += 1
            except OSError:  # removed meanwhile
                pass
    return f"{d} ({n} {'entry' if n == 1 else 'entries'}, {size / 2**20:.1f} MiB)"


def info(out=sys.stdout):
    import loom

    b = loom.build_info()
    p = lambda *a: print(*a, file=out)  # noqa: E731
    p(f"loom {b['version']}")
    p(f"  CUDA backend:   {'built' if b['cuda'] else 'not built (CPU only)'}")
    if b["cuda"]:
        p(f"  CUDA toolkit:   {b.get('cuda_toolkit') or 'unknown'}")
        p(f"  CUDA runtime:   {b['cuda_runtime'] or 'unknown'}")
        p(f"  driver:         {b['driver'] or 'none found'}")
        p(f"  NVRTC:          {b['nvrtc'] or 'unknown'}")
    p(f"  GPUs:           {b['num_gpus']}")
    p(f"  CPU BLAS:       {b.get('blas') or 'unknown'}")
    p(f"  default device: {loom.default_device()!r}")
    p(f"  kernel cache:   {_cache_line()}")
    p("devices:")
    for d in loom.devices():
        s = loom.memory.stats(d)
        line = f"  {d!r:8} {d.name}"
        if d.type == "cuda":
            cc = d.compute_capability
            line += f", compute capability {cc[0]}.{cc[1]}, {d.multiprocessor_count} SMs"
        p(line)
        p(f"           memory: total {_gib(d.total_memory)}, free {_gib(d.free_memory)}; "
          f"loom in use {_gib(s['in_use'])}, peak {_gib(s['peak'])}, cached {_gib(s['cached'])}"
          + (f", limit {_gib(s['limit'])}" if s["limit"] else ""))


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["info"]:
        try:
            info()
        except BrokenPipeError:  # `python -m loom info | head`
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    if argv[:1] == ["top"]:
        from .monitor import _top

        try:
            return _top.main(argv[1:])
        except BrokenPipeError:  # `python -m loom top --once | head`
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 0
    if argv[:1] == ["dashboard"]:
        from .monitor import dashboard

        return dashboard.main(argv[1:])
    if argv[:1] == ["profile"]:
        from .monitor import _profile_cli

        return _profile_cli.main(argv[1:])
    print("usage: python -m loom {info | top [--once] [--json] [--interval S] | "
          "dashboard [--host H] [--port P] | profile [--trace OUT.json] script.py [args]}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
