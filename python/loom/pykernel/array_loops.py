"""Loops over every element of arrays inside a kernel, written by the translator where Numba
runs array code in the calling thread: ufuncs with an output array (np.sin(x, out)) and
whole-array reductions (a.sum(), np.max(a)). The arrays may be views of any layout: the loop
walks a flat index and finds each array's element through its strides."""


def open_loop(tr, arrays):
    """Emits the head of a loop over the elements of arrays[0] (the others have its shape) and
    returns each array's element as a C lvalue; close_loop ends it."""
    nd = arrays[0].type.ndim
    names = [tr.temp() for _ in arrays]
    tr.emit("{")
    for n, a in zip(names, arrays):  # each array (a view is an expression) evaluated once
        tr.emit(f"  const auto& {n} = {a.code};")
    k, rem = tr.temp(), tr.temp()
    offs = [tr.temp() for _ in arrays]
    size = " * ".join(f"{names[0]}.shape[{d}]" for d in range(nd)) or "1"
    tr.emit(f"  for (long long {k} = 0; {k} < {size}; ++{k}) {{")
    tr.emit(f"    long long {rem} = {k}; " + " ".join(f"long long {o} = 0;" for o in offs))
    if nd:  # a 0-d array has no shape or strides: its one element is at offset 0
        tr.emit(f"    for (int d = {nd - 1}; d >= 0; --d) {{")
        tr.emit(f"      const long long i = {rem} % {names[0]}.shape[d]; {rem} /= {names[0]}.shape[d];")
        tr.emit("      " + " ".join(f"{o} += i * {n}.strides[d];" for o, n in zip(offs, names)))
        tr.emit("    }")
    tr.emit(f"    (void){rem};")
    return [f"{n}.data[{o}]" for n, o in zip(names, offs)], k


def close_loop(tr):
    tr.emit("  }")
    tr.emit("}")
