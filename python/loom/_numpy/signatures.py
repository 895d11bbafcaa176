"""Inspectable signatures for loom's bound functions.

inspect.signature cannot read nanobind's function objects (Python 3.11 raises ValueError,
3.12 reports (*args, **kwargs)), so help(), IDEs and the Array API test suite's signature
checks saw nothing. Each public function of the extension (loom, loom.linalg, loom.fft, ...)
is replaced by a builtin function that carries its signature the way CPython's builtins do
and forwards every call to the bound function by vectorcall (python/src/signatures.cpp):
one extra C call per call, no Python frame.
"""
import math
import re

from .. import _loom

_NB_FUNC = type(_loom.sum)
_LITERALS = (type(None), bool, int, str)


# The characters that matter when splitting a parameter list: one regex step per delimiter
# rather than one Python step per character (this runs for every function at import).
_DELIMITERS = re.compile(r"[()\[\]{},'\"]")


def _parameter_texts(text):
    """The top-level parameters of the list that opens at text's first "(", split at the
    commas outside brackets and quotes."""
    start = piece = text.index("(") + 1
    pieces, depth, quote = [], 0, None
    for m in _DELIMITERS.finditer(text, start):
        c, i = m.group(), m.start()
        if quote:
            quote = None if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}" and depth > 0:
            depth -= 1
        elif c == ")" or (c == "," and depth == 0):
            pieces.append(text[piece:i])
            piece = i + 1
            if c == ")":
                break
    return [p.strip() for p in pieces if p.strip()]


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
    params = []
    for p in _parameter_texts(text):
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
