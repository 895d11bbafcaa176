"""Device memory: allocator statistics, cache release and limits.

>>> loom.memory.stats(loom.cpu())
{'in_use': ..., 'peak': ..., 'cached': ..., 'limit': 0, 'total': ...}
"""
from ._loom import memory as _memory

stats = _memory.stats
empty_cache = _memory.empty_cache
set_limit = _memory.set_limit

__all__ = ["stats", "empty_cache", "set_limit"]
