"""Binary arithmetic between random pairs of dtypes in Python kernels, against NumPy: the
result's type (NumPy's result_type, with bools as int64 as in Python and Numba, and `/`
of integers giving float64) and its values (`//` and `%` round toward minus infinity)."""
import numpy as np
import pytest

import loom
from loom import cuda

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64"]


def make(op):
    src = f"def k(a, b, out):\n    i = cuda.grid(1)\n    if i < out.size:\n        r = a[i] {op} b[i]\n        out[i] = r\n"
    ns = {"cuda": cuda}
    # The translator reads source from a file: give the generated function one.
    import linecache
    name = f"<pyk-promotion-{abs(hash(op))}>"
    linecache.cache[name] = (len(src), None, src.splitlines(True), name)
    exec(compile(src, name, "exec"), ns)
    return cuda.jit(ns["k"])


OPS = {op: make(op) for op in ["+", "-", "*", "/", "//", "%"]}


def expected_type(op, da, db):
    arith = [np.dtype(np.int64) if d == "bool" else np.dtype(d) for d in (da, db)]
    t = np.result_type(*arith)
    if op == "/" and t.kind in "iu":
        t = np.dtype(np.float64)
    return t


def values(rng, dtype, n, nonzero=False):
    if dtype == "bool":
        v = rng.random(n) < 0.5
        return np.ones(n, bool) if nonzero else v
    if dtype.startswith("float"):
        v = rng.uniform(-8, 8, n).astype(dtype)
        return np.where(np.abs(v) < 0.5, 1.5, v).astype(dtype) if nonzero else v
    lo = 0 if dtype.startswith("u") else -9
    v = rng.integers(lo, 10, n).astype(dtype)
    return np.where(v == 0, 3, v).astype(dtype) if nonzero else v


@pytest.mark.parametrize("op", list(OPS))
def test_random_dtype_pairs(device, rng, op):
    kernel = OPS[op]
    for _ in range(4):
        da, db = rng.choice(DTYPES, 2)
        t = expected_type(op, da, db)
        if op in ("//", "%") and "bool" in (da, db):
            continue  # NumPy refuses // and % of bools; Python's int rules apply in kernels
        a, b = values(rng, da, 64), values(rng, db, 64, nonzero=op in ("/", "//", "%"))
        out = loom.zeros(64, dtype=str(t), device=device)
        kernel[1, 64](loom.asarray(a, device=device), loom.asarray(b, device=device), out)
        want = {"+": np.add, "-": np.subtract, "*": np.multiply, "/": np.true_divide, "//": np.floor_divide,
                "%": np.remainder}[op](a.astype(t), b.astype(t))
        got = out.numpy()
        if t.kind == "f":
            np.testing.assert_allclose(got, want, rtol=1e-6 if t == np.float32 else 1e-15, err_msg=f"{da} {op} {db}")
        else:
            np.testing.assert_array_equal(got, want, err_msg=f"{da} {op} {db}")
        text = kernel.inspect_types(file=open("/dev/null", "w"),
                                    signature=tuple(s for s in kernel.signatures if s[0].dtype.name == da
                                                    and s[1].dtype.name == db)[0])
        assert f"r = {t.name}" in text, (da, op, db, text)
