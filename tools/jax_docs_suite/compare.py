"""Compares a cell's output under loom with its output under JAX: the numbers in order (rtol
1e-4, atol 1e-6: JAX computes in float32, loom's default is float64) and the plain text lines
(a line of words without digits or brackets, such as a label a cell prints, must appear in
the same order). Formatting is ignored: `Array(...)` against loom's `array(..., device=...)`,
dtype names and suffixes, device reprs (CpuDevice(id=0), cpu()), spacing and line breaks of printed arrays."""
import re

_DROP = re.compile(r"dtype=[\w.]+|device=\w+\(\d*\)|\b\w*Device\(id=\d+\)|\b[cg]pu\(\d*\)|weak_type=\w+|\b[A-Za-z_]\w*\d\w*\b|\w+\[[\d,\s]*\]")
_NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|(?<!\w)-?(?:nan|inf)\b|\bTrue\b|\bFalse\b")
_WORDS = {"True": 1.0, "False": 0.0, "nan": float("nan"), "inf": float("inf"), "-inf": float("-inf")}


def numbers(text):
    """The numbers in text, in order, once dtype names and device reprs are dropped."""
    out = []
    text = re.sub(r"(?<=[\d.])([-+])(?=[\d.]+j)", r" \1", _DROP.sub(" ", text or ""))  # 3.-4.j
    for tok in _NUMBER.findall(text):
        out.append(_WORDS[tok] if tok in _WORDS else float(tok))
    return out


def text_lines(text):
    """The lines of text that are words only (no digits, no brackets or reprs)."""
    return [ln.strip() for ln in (text or "").splitlines()
            if ln.strip() and not re.search(r"[\d<>()\[\]{}=]", ln)]


def _close(a, b, rtol=1e-4, atol=1e-6):
    if a != a or b != b:
        return a != a and b != b
    if a in (float("inf"), float("-inf")) or b in (float("inf"), float("-inf")):
        return a == b
    return abs(a - b) <= atol + rtol * abs(b)


def _subsequence(want, have):
    it = iter(have)
    return all(any(w == h for h in it) for w in want)


def differs(ref_text, loom_text):
    """None when loom's output agrees with JAX's, else a short reason."""
    want, have = numbers(ref_text), numbers(loom_text)
    if len(want) != len(have):
        return f"prints {len(have)} numbers where JAX prints {len(want)}"
    bad = [i for i, (w, h) in enumerate(zip(want, have)) if not _close(h, w)]
    if bad:
        i = bad[0]
        return f"{len(bad)} of {len(want)} numbers differ (first: {have[i]!r} where JAX has {want[i]!r})"
    tl = text_lines(ref_text)
    if tl and not _subsequence(tl, text_lines(loom_text)):
        return f"its text lines differ from JAX's ({tl[:3]!r}...)"
    return None


def comparable(ref_text):
    """Whether JAX's output holds anything to compare (numbers or text lines)."""
    return bool(numbers(ref_text) or text_lines(ref_text))
