"""Device memory: statistics, cache and limits."""



def stats(device: object | None = None) -> dict:
    """
    Allocator statistics of `device` (default device when None), in bytes: dict with in_use (live buffers), peak (highest in_use), cached (free blocks kept for reuse), limit (cap from set_limit, 0 = none) and total (device memory).
    """

def empty_cache(device: object | None = None) -> None:
    """Returns cached, unused blocks to the device (every device when None)."""

def set_limit(nbytes: int, device: object | None = None) -> None:
    """
    Caps the bytes loom may hold on `device` (default device when None); 0 removes the cap. Allocations beyond it raise loom.OutOfMemoryError.
    """

def pinned_cache_stats() -> dict:
    """
    The page-locked host cache behind numpy() of GPU arrays, in bytes: dict with in_use (held by NumPy arrays), cached (free blocks kept for reuse) and limit (in_use + cached never exceeds it).
    """

def empty_pinned_cache() -> None:
    """
    Frees the page-locked blocks the numpy() cache keeps for reuse (arrays holding blocks keep theirs).
    """

def set_pinned_cache_limit(nbytes: int) -> None:
    """
    Caps the page-locked memory of the numpy() cache (default 2 GiB); 0 turns it off, so numpy() of a GPU array writes ordinary memory.
    """
