"""CuPy's memory pools as far as the suite's tests use them, on loom's caching allocator
(loom.memory): free_all_blocks() empties the device's (or the pinned host) cache; the byte
counts read loom.memory.stats."""
import loom


class MemoryPool:
    """cupy.get_default_memory_pool(): loom's allocator of the default device."""

    def free_all_blocks(self, stream=None):
        loom.memory.empty_cache(loom.default_device())

    def used_bytes(self):
        return loom.memory.stats(loom.default_device())["in_use"]

    def total_bytes(self):
        s = loom.memory.stats(loom.default_device())
        return s["in_use"] + s["cached"]

    def free_bytes(self):
        return loom.memory.stats(loom.default_device())["cached"]

    def set_limit(self, size=None, fraction=None):
        if fraction is not None:
            size = int(fraction * loom.memory.stats(loom.default_device())["total"])
        loom.memory.set_limit(size or 0, loom.default_device())

    def get_limit(self):
        return loom.memory.stats(loom.default_device())["limit"]


class PinnedMemoryPool:
    """cupy.get_default_pinned_memory_pool(): loom's cache of page-locked host buffers."""

    def free_all_blocks(self):
        loom.memory.empty_pinned_cache()


_pool, _pinned = MemoryPool(), PinnedMemoryPool()


def get_default_memory_pool():
    return _pool


def get_default_pinned_memory_pool():
    return _pinned
