"""Finding the loom function behind a NumPy name, for the dispatch protocols.

Lookups go by name when first needed, so a function the extension gains later is found
without an edit here; found ones are cached (a miss is not: it is the error path).
"""
import inspect

# What a caller passes when it means "every keyword" (a **kwargs parameter, or a
# signature loom cannot read).
ANY = None


class Entry:
    """A loom callable and the keyword names it takes (ANY when it takes every one)."""

    __slots__ = ("fn", "keywords")

    def __init__(self, fn):
        self.fn = fn
        self.keywords = _keywords(fn)

    def takes(self, name):
        return self.keywords is ANY or name in self.keywords

    def takes_all(self, names):
        """True when it takes every name of `names` (a set or a dict's keys)."""
        return self.keywords is ANY or names <= self.keywords


_cache = {}  # "linalg.norm" -> Entry
_ufuncs = {}  # numpy.ufunc -> Entry (skips reading the ufunc's name on the common call)


def clear():
    """Forgets every lookup (for code that swaps a loom function, such as a test's monkeypatch)."""
    _cache.clear()
    _ufuncs.clear()


def find_ufunc(ufunc):
    """The Entry of loom's function named as the NumPy ufunc (np.abs: "absolute"), or None."""
    entry = _ufuncs.get(ufunc)
    if entry is None:
        entry = find(ufunc.__name__)
        if entry is not None:
            _ufuncs[ufunc] = entry
    return entry


def find(path):
    """The Entry of `loom.<path>` ("sum", "linalg.norm"), or None when loom lacks it.

    NumPy objects that loom re-exports (its LinAlgError) do not count: calling one on a
    loom array would dispatch straight back here."""
    entry = _cache.get(path)
    if entry is not None:
        return entry
    import loom  # lazy: the namespace searched is the package, which installs the protocols

    obj = loom
    for part in path.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    if not callable(obj) or isinstance(obj, type) or str(getattr(obj, "__module__", "")).startswith("numpy"):
        return None
    entry = _cache[path] = Entry(obj)
    return entry


def _keywords(fn):
    """The parameter names of fn (every bound function has an inspectable signature:
    _signatures.py); ANY when unknown or for **kwargs."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return ANY
    if any(p.kind is p.VAR_KEYWORD for p in params):
        return ANY
    return frozenset(p.name for p in params if p.kind is not p.VAR_POSITIONAL)
