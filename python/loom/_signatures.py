"""Inspectable signatures for loom's bound functions.

inspect.signature cannot read nanobind's function objects (Python 3.11 raises ValueError,
3.12 reports (*args, **kwargs)), so help(), IDEs and the Array API test suite's signature
checks saw nothing. Each public function of the extension (loom, loom.linalg, loom.fft, ...)
is replaced by a builtin function that carries its signature the way CPython's builtins do
and forwards every call to the bound function by vectorcall (python/src/signatures.cpp):
one extra C call per call, no Python frame.
"""
import math

from . import _loom

_NB_FUNC = type(_loom.sum)
_LITERALS = (type(None), bool, int, str)


def _split_top_level(text):
    """text split at the commas outside brackets and quotes."""
    parts, depth, quote, start = [], 0, None, 0
    for i, c in enumerate(text):
        if quote:
            quote = None if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def _default_text(value):
    """A default as Python source inspect can parse back, or `...` for an object it cannot."""
    if isinstance(value, _LITERALS) or (isinstance(value, float) and math.isfinite(value)):
        return repr(value)
    if isinstance(value, tuple) and all(isinstance(v, _LITERALS) for v in value):
        return repr(value)
    return "..."


def text_signature(fn):
    """The parameter list "(a, axis=None, *, out=None)" of a nanobind function."""
    text, _, defaults = fn.__nb_signature__[0]
    open_at = text.index("(")
    depth = 0
    for close_at in range(open_at, len(text)):
        depth += {"(": 1, ")": -1}.get(text[close_at], 0)
        if depth == 0:
            break
    params = []
    for p in _split_top_level(text[open_at + 1:close_at]):
        if p in ("*", "/"):
            params.append(p)
            continue
        head, eq, tail = p.partition("=")
        name = head.split(":")[0].strip()
        if eq:  # nanobind writes a default as \\k, the k-th entry of its defaults tuple
            tail = tail.strip()
            known = tail[:1] == "\\" and tail[1:].isdigit()
            params.append(f"{name}={_default_text(defaults[int(tail[1:])]) if known else '...'}")
        else:
            params.append(name)
    return "(" + ", ".join(params) + ")"


def signed(fn, module_name):
    """fn, a nanobind function, as a builtin function with an inspectable signature."""
    name = fn.__name__
    doc = fn.__nb_signature__[0][1] or ""
    return _loom._with_signature(fn, name, f"{name}{text_signature(fn)}\n--\n\n{doc}", module_name)


_wrapped = {}  # nanobind function -> its builtin, so a function in two namespaces stays one object


def sign_namespace(namespace, module_name):
    """Replaces every nanobind function among the public names of `namespace` (a dict)."""
    for name, value in list(namespace.items()):
        if not name.startswith("_") and isinstance(value, _NB_FUNC):
            if value not in _wrapped:
                _wrapped[value] = signed(value, module_name)
            namespace[name] = _wrapped[value]
