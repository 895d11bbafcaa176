"""Device memory: allocator statistics, cache release and limits; the numpy() pinned host cache.

>>> loom.memory.stats(loom.cpu())
{'in_use': ..., 'peak': ..., 'cached': ..., 'limit': 0, 'total': ...}
"""
from ._loom import memory as _memory

stats = _memory.stats
empty_cache = _memory.empty_cache
set_limit = _memory.set_limit
pinned_cache_stats = _memory.pinned_cache_stats
empty_pinned_cache = _memory.empty_pinned_cache
set_pinned_cache_limit = _memory.set_pinned_cache_limit

__all__ = ["stats", "empty_cache", "set_limit", "pinned_cache_stats", "empty_pinned_cache", "set_pinned_cache_limit"]
