"""loom.vectorize and loom.guvectorize (Numba's, with NumPy ufunc semantics).

vectorize: the scalar function is translated as a device function for each signature and
run by a loom.ElementwiseKernel (broadcasting, out=, one generated kernel on the GPU, the
CPU kernel emulator on cpu()). guvectorize: the function takes array views of its core
dimensions; a generated kernel gives each thread one index of the broadcast loop
dimensions. Inputs from NumPy give NumPy results; loom arrays give loom arrays on their
device. target='cuda' runs on the default GPU, or on cpu() without one; 'cpu' and
'parallel' run on cpu() (the emulator spreads blocks over the cores).
"""
import functools
import math
import re
import warnings

import numpy as np

from .. import _loom
from . import serialize
from . import types as T
from .compiler import translate_device
from .errors import TypingError
from .numba_types import Signature
from .signatures import parse_signature
from .source import FunctionSource

_TARGETS = ("cpu", "parallel", "cuda")


def _target_device(target):
    if target == "cuda":
        return _loom.default_device() if _loom.num_gpus() else _loom.cpu()
    return _loom.cpu()


def _inputs(args, target, name):
    """(whether any input is a loom array, the device the call runs on: the loom inputs'
    device, else the target's)."""
    dev = None
    for a in args:
        if isinstance(a, _loom.ndarray):
            if dev is not None and a.device != dev:
                raise _loom.DeviceMismatchError(f"[{name}] inputs are on {dev} and {a.device}")
            dev = a.device
    return dev is not None, dev or _target_device(target)


def _dtype_of(a):
    if isinstance(a, _loom.ndarray):
        return np.dtype(str(a.dtype)) if str(a.dtype) != "bfloat16" else None
    if isinstance(a, (bool, int, float)):
        return None  # weak: any loop takes it
    return np.asarray(a).dtype


def _choose(sigs, args, name):
    """The first signature every input can be cast to safely (NumPy's loop selection)."""
    dts = [_dtype_of(a) for a in args]
    for sig in sigs:
        params = sig[1]
        if len(params) != len(args):
            continue
        ok = True
        for d, p, a in zip(dts, params, args):
            pd = np.dtype(p.dtype)
            if d is None:
                if isinstance(a, float) and pd.kind not in "fc":
                    ok = False
                if isinstance(a, int) and not isinstance(a, bool) and pd.kind == "b":
                    ok = False
            elif not np.can_cast(d, pd, "safe"):
                ok = False
        if ok:
            return sig
    have = ", ".join("(" + ", ".join(str(p) for p in s[1]) + ")" for s in sigs)
    got = ", ".join(str(d) if d is not None else type(a).__name__ for d, a in zip(dts, args))
    raise TypingError(f"[{name}] no signature takes inputs of types ({got}); it has {have}")


class Vectorized:
    """A ufunc-like object made by loom.vectorize."""

    def __init__(self, func, signatures, target, identity=None):
        if target not in _TARGETS:
            raise ValueError(f"[vectorize] target must be one of {_TARGETS}, not {target!r}")
        functools.update_wrapper(self, func)
        self.py_func, self.target, self.identity = func, target, identity
        self._given = (tuple(signatures) if signatures else None)  # for __reduce__
        self._sigs = [parse_signature(s, func.__name__) for s in (signatures or ())]
        self._kernels = {}  # argument types -> (ElementwiseKernel, output type)
        self._src = FunctionSource(func)
        self.nin = len(self._src.params)
        self.nout = 1
        for s in self._sigs:  # eager, as Numba: typing errors show at decoration
            self._kernel(tuple(s[1]), s[0])

    def __reduce__(self):
        """Pickled by its function and options; the other side compiles again (serialize.py)."""
        return (_rebuild, (Vectorized, serialize.function_state(self.py_func), self._given, self.target,
                           self.identity))

    def _kernel(self, argtypes, ret):
        key = argtypes
        if key in self._kernels:
            return self._kernels[key]
        mb, cname, got = translate_device(self.py_func, argtypes, self._src)
        ret = ret or got
        if not isinstance(got, T.Scalar) or not isinstance(ret, T.Scalar):
            raise TypingError(f"[{self.__name__}] a vectorized function returns a number, not {got}")
        ins = ", ".join(f"{_ek_type(t)} x{i}" for i, t in enumerate(argtypes))
        args = ", ".join(f"x{i}" for i in range(len(argtypes)))
        k = _loom.ElementwiseKernel(ins, f"{_ek_type(ret)} out", f"out = ({ret.c}){cname}({args})",
                                    name=f"loom_vec_{self.__name__}", preamble=mb.source(""))
        self._kernels[key] = (k, ret)
        return self._kernels[key]

    def __call__(self, *args, out=None, stream=0, **kwargs):
        """Numba's ufunc call; `stream` (a loom.Stream, or 0 for the default) is where the
        kernel runs."""
        if kwargs:
            raise TypeError(f"[{self.__name__}] unexpected keyword arguments {sorted(kwargs)}")
        stream = _stream(stream, self.__name__)
        if len(args) != self.nin:
            raise TypeError(f"[{self.__name__}] takes {self.nin} inputs, {len(args)} given")
        loom_in, dev = _inputs(args, self.target, self.__name__)
        if not loom_in and stream is not None:
            dev = stream.device  # host data goes where the stream runs
        if self._sigs:
            ret, params = _choose(self._sigs, args, self.__name__)
            argtypes = tuple(params)
        else:  # dynamic, as Numba's DUFunc: one specialisation per input dtypes
            argtypes = tuple(_scalar_type(a) for a in args)
            ret = None
        k, ret = self._kernel(argtypes, ret)
        conv = [_loom.asarray(a, dtype=t.dtype, device=dev) if not isinstance(a, _loom.ndarray)
                else (a if str(a.dtype) == t.dtype else a.astype(t.dtype)) for a, t in zip(args, argtypes)]
        if out is not None:
            if isinstance(out, _loom.ndarray):
                k(*conv, out, stream=stream)
                return out
            res = k(*conv, stream=stream)
            out[...] = res.numpy()
            return out
        res = k(*conv, stream=stream)
        if loom_in:
            return res
        r = res.numpy()
        return r[()] if all(np.ndim(a) == 0 for a in args) else r

    def reduce(self, a, axis=0, stream=0):
        """ufunc.reduce for a two-input function: folds along `axis` (NumPy's semantics), on
        `stream` (Numba's keyword)."""
        if self.nin != 2:
            raise ValueError(f"[{self.__name__}] reduce needs a function of two inputs")
        # A loom array is folded where it lives (its slices stay on its device, so a stream
        # there matches them); host data folds as host calls do.
        arr = _loom.moveaxis(a, axis, 0) if isinstance(a, _loom.ndarray) else np.moveaxis(np.asarray(a), axis, 0)
        acc = arr[0]
        for i in range(1, arr.shape[0]):
            acc = self(acc, arr[i], stream=stream)
        return acc.copy() if arr.shape[0] == 1 else acc  # a new array, never a view of `a`

    def __repr__(self):
        return f"<loom.vectorize {self.__name__} target={self.target}>"


def _ek_type(t):
    return {"bool": "bool", "float16": "float16"}.get(t.dtype, t.dtype)


def _scalar_type(a):
    if isinstance(a, bool):
        return T.BOOL
    if isinstance(a, int):
        return T.INT64
    if isinstance(a, float):
        return T.FLOAT64
    return T.Scalar(T.dtype_name(a.dtype) if not isinstance(a, _loom.ndarray) else str(a.dtype))


class UnrecognizedOptionsError(KeyError, TypeError):
    """An unknown option of @vectorize: Numba raises KeyError there (and TypeError for
    @guvectorize); both catch it."""

    def __str__(self):
        return str(self.args[0]) if self.args else ""


def _check_options(nopython, kwargs, target, decorator):
    """Numba's rules for a ufunc decorator's options, in its words: nopython must stay True
    (kernels have no object mode; saying so for target='cuda' is redundant, a RuntimeWarning)
    and unknown options are refused, not ignored."""
    if kwargs:
        names = ", ".join(f"'{k}'" for k in kwargs)
        if decorator == "vectorize":
            raise UnrecognizedOptionsError(f"[vectorize] Unrecognized options: {names} (vectorize takes signatures, "
                                           "target, identity, cache and nopython)")
        raise TypeError("The following target options are not supported: " + names)
    if nopython is not None and not nopython:
        raise TypeError("nopython flag must be True")
    if nopython is not None and target == "cuda":
        warnings.warn("nopython kwarg for cuda target is redundant", RuntimeWarning, stacklevel=3)


def vectorize(signatures=None, target="cpu", identity=None, cache=False, nopython=None, **kwargs):
    """@loom.vectorize(['float32(float32, float32)', ...], target='cuda'|'cpu'|'parallel')."""
    _check_options(nopython, kwargs, target, "vectorize")
    if callable(signatures) and not isinstance(signatures, (str, list, tuple)):
        return Vectorized(signatures, None, target, identity)
    sigs = [signatures] if isinstance(signatures, (str, Signature)) else signatures
    return lambda f: Vectorized(f, sigs, target, identity)


# ---------------------------------------------------------------- guvectorize
_LAYOUT = re.compile(r"^\s*(\(.*?\)(?:\s*,\s*\(.*?\))*)\s*->\s*(\(.*?\)(?:\s*,\s*\(.*?\))*)\s*$")


def _parse_layout(layout, name):
    m = _LAYOUT.match(layout)
    if not m:
        raise ValueError(f"[{name}] cannot read the layout '{layout}' (e.g. '(m,n),(n)->(m)')")

    def groups(text):
        return [tuple(s.strip() for s in g.split(",") if s.strip()) for g in re.findall(r"\(([^)]*)\)", text)]
    return groups(m.group(1)), groups(m.group(2))


class GUVectorized:
    """A generalized ufunc made by loom.guvectorize."""

    def __reduce__(self):
        """Pickled by its function and options; the other side compiles again (serialize.py)."""
        return (_rebuild, (GUVectorized, serialize.function_state(self.py_func), *self._given, self.target))

    def __init__(self, func, signatures, layout, target):
        if target not in _TARGETS:
            raise ValueError(f"[guvectorize] target must be one of {_TARGETS}, not {target!r}")
        functools.update_wrapper(self, func)
        self.py_func, self.target = func, target
        self._given = (tuple(signatures), layout)  # for __reduce__
        self.ins, self.outs = _parse_layout(layout, func.__name__)
        self._src = FunctionSource(func)
        if len(self._src.params) != len(self.ins) + len(self.outs):
            raise TypingError(f"[{func.__name__}] the layout names {len(self.ins) + len(self.outs)} operands but "
                              f"the function takes {len(self._src.params)}")
        self._sigs = [parse_signature(s, func.__name__) for s in signatures]
        for ret, params in self._sigs:
            if ret is not None:
                raise TypingError(f"[{func.__name__}] guvectorized functions cannot return values: the signature "
                                  f"specifies {ret} return type (a guvectorize signature is void(...); outputs are "
                                  "arguments)")
            if len(params) != len(self._src.params):
                raise TypingError(f"[{func.__name__}] a guvectorize signature is void(...) with one type per operand")
        self._kernels = {}
        self.nin, self.nout = len(self.ins), len(self.outs)

    def _kernel(self, params, loop_nd):
        key = (tuple(params), loop_nd)
        if key in self._kernels:
            return self._kernels[key]
        core = self.ins + self.outs
        # Device-function argument types: arrays of the core dimensions (layout A), scalars as they are.
        dtypes = []
        for p, c in zip(params, core):
            # A "()" operand typed as a 1-d array is a one-element view (Numba's way to write a scalar out).
            if isinstance(p, T.Array) and p.ndim != len(c) and not (len(c) == 0 and p.ndim == 1):
                raise TypingError(f"[{self.__name__}] the signature's {p} does not match the layout's ({','.join(c)})")
            dtypes.append(T.Array(p.dtype, max(len(c), 1), "A") if isinstance(p, T.Array) else p)
        mb, cname, _ = translate_device(self.py_func, dtypes, self._src)
        full = [T.Array(p.dtype, loop_nd + len(c), "A") for p, c in zip(params, core)]
        lines = [f'extern "C" __global__ void loom_guv_{self.__name__}(' +
                 ", ".join(f"{t.c} a{i}" for i, t in enumerate(full)) + ", long long n) {",
                 "  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;",
                 "  if (i >= n) return;"]
        # Unravel i over the loop dimensions (those of the first operand, all broadcast alike).
        lines.append("  long long rest = i;")
        for d in reversed(range(loop_nd)):
            lines.append(f"  const long long j{d} = rest % a0.shape[{d}]; rest /= a0.shape[{d}];")
        call = []
        for k, (t, c, dt) in enumerate(zip(full, core, dtypes)):
            off = " + ".join(f"j{d} * a{k}.strides[{d}]" for d in range(loop_nd)) or "0"
            if isinstance(dt, T.Array):
                nd = len(c)
                shp = ", ".join(f"a{k}.shape[{loop_nd + d}]" for d in range(nd)) or "1LL"
                st = ", ".join(f"a{k}.strides[{loop_nd + d}]" for d in range(nd)) or "1LL"
                lines.append(f"  const {dt.c} v{k}{{a{k}.data + ({off}), {{{shp}}}, {{{st}}}}};")
                call.append(f"v{k}")
            else:
                call.append(f"a{k}.data[{off}]")
        lines.append(f"  {cname}({', '.join(call)});")
        lines.append("}")
        self._kernels[key] = _loom.RawModule(mb.source("\n".join(lines))).get_function(f"loom_guv_{self.__name__}")
        return self._kernels[key]

    def __call__(self, *args, out=None, stream=0):
        stream = _stream(stream, self.__name__)
        if len(args) == self.nin + self.nout and out is None:
            args, out = args[:self.nin], args[self.nin:]
        if len(args) != self.nin:  # Numba's words
            raise TypeError(f"[{self.__name__}] gufunc accepts {self.nin} positional arguments (for inputs) or "
                            f"{self.nin + self.nout} positional arguments (for inputs and outputs). Got "
                            f"{len(args)} positional argument{'' if len(args) == 1 else 's'}.")
        loom_in, dev = _inputs(args, self.target, self.__name__)
        if not loom_in and stream is not None:
            dev = stream.device
        dts = []
        for a in args:
            dts.append(np.dtype(str(a.dtype)) if isinstance(a, _loom.ndarray) else np.asarray(a).dtype)
        chosen = None
        for ret, params in self._sigs:
            if all(np.can_cast(d, np.dtype(p.dtype), "safe") for d, p in zip(dts, params[:self.nin])):
                chosen = params
                break
        if chosen is None:  # Numba's rule: a signature whose types cast safely to the inputs'; host
            # inputs are then cast down to it (np.int64(2) or 10 for an int32 parameter)
            for ret, params in self._sigs:
                if all(np.can_cast(np.dtype(p.dtype), d, "safe") for d, p in zip(dts, params[:self.nin])):
                    chosen = params
                    break
            for k, (a, p) in enumerate(zip(args, chosen or ())):
                if isinstance(a, _loom.ndarray) and str(a.dtype) != p.dtype:
                    raise TypeError(f"[{self.__name__}] input {k} is a device array of dtype {a.dtype} and the signature "
                                    f"takes {p.dtype}: a device array is not cast down (Numba's gufunc does not support "
                                    ".astype() on it either)")
        if chosen is None:
            raise TypingError(f"[{self.__name__}] no signature takes inputs of dtypes {[str(d) for d in dts]}")
        ins = [a.astype(p.dtype) if isinstance(a, _loom.ndarray) and str(a.dtype) != p.dtype
               else (a if isinstance(a, _loom.ndarray) else _loom.asarray(np.asarray(a, dtype=p.dtype), device=dev))
               for a, p in zip(args, chosen)]
        # Bind the core dimension sizes and the broadcast loop shape.
        sizes, loops = {}, []
        for a, c in zip(ins, self.ins):
            nd = len(c)
            if a.ndim < nd:
                raise ValueError(f"[{self.__name__}] an input of {a.ndim} dimensions for core dimensions ({','.join(c)})")
            for sym, n in zip(c, tuple(a.shape)[a.ndim - nd:]):
                if sizes.setdefault(sym, n) != n:
                    raise ValueError(f"[{self.__name__}] core dimension '{sym}' is {sizes[sym]} and {n}")
            loops.append(tuple(a.shape)[:a.ndim - nd])
        loop_shape = _loop_shape(loops)
        # An input whose loop dimensions hold one item (Numba's "pinned" (1,) or ()) is the same
        # for every iteration: its loop axes are dropped before it is broadcast.
        ins = [a.reshape(tuple(a.shape)[a.ndim - len(c):]) if lp != loop_shape and math.prod(lp) == 1 else a
               for a, c, lp in zip(ins, self.ins, loops)]
        outs = list(out) if isinstance(out, (tuple, list)) else ([out] if out is not None else [])
        results = []
        for j, c in enumerate(self.outs):
            missing = [s for s in c if s not in sizes]
            if missing:
                raise ValueError(f"[{self.__name__}] output core dimension(s) {missing} are not given by any input")
            shape = loop_shape + tuple(sizes[s] for s in c)
            p = chosen[self.nin + j]
            if j < len(outs):
                o = outs[j]
                if tuple(o.shape) != shape:
                    raise ValueError(f"[{self.__name__}] output {j} has shape {tuple(o.shape)}, not {shape}")
                results.append(o if isinstance(o, _loom.ndarray) else _loom.asarray(o, device=dev))
            else:
                results.append(_loom.empty(shape, dtype=p.dtype, device=dev))
        operands = [_loom.broadcast_to(a, loop_shape + tuple(a.shape)[a.ndim - len(c):])
                    for a, c in zip(ins, self.ins)] + results
        if not loop_shape:  # the kernel indexes at least one loop dimension: a loop of one
            operands = [a[None] for a in operands]
        n = int(np.prod(loop_shape))
        if n > 0:
            threads = 128
            self._kernel(chosen, max(1, len(loop_shape)))(((n + threads - 1) // threads,), (threads,), (*operands, n),
                                                          stream=stream)
        for j, o in enumerate(outs):
            if not isinstance(o, _loom.ndarray):
                o[...] = results[j].numpy()
        if loom_in:
            return results[0] if self.nout == 1 else tuple(results)
        host = [r.numpy() for r in results]
        return host[0] if self.nout == 1 else tuple(host)

    def __repr__(self):
        return f"<loom.guvectorize {self.__name__} target={self.target}>"


def _rebuild(cls, state, *args):
    return cls(serialize.function_of(state), *args)


def _loop_shape(outer):
    """The loop dimensions of a gufunc call from its inputs' (Numba's rule): the largest, the
    first of equals, when every other is the same or holds one item ((1,) or ()); else NumPy's
    broadcast of them all."""
    if not outer:
        return ()
    largest = outer[int(np.argmax([math.prod(s) for s in outer]))]
    if all(s == largest or s in ((1,), ()) for s in outer):
        return tuple(largest)
    return tuple(np.broadcast_shapes(*outer))


def _stream(stream, where):
    """Numba's stream argument: 0 or None is the default stream, else a loom.Stream."""
    if stream is None or (isinstance(stream, int) and not isinstance(stream, bool) and stream == 0):
        return None
    if not isinstance(stream, _loom.Stream):
        raise TypeError(f"[{where}] stream= takes a loom.Stream (cuda.stream()) or 0, not {type(stream).__name__}")
    return stream


def guvectorize(signatures, layout, target="cpu", cache=False, nopython=None, **kwargs):
    """@loom.guvectorize(['void(float64[:,:], float64[:], float64[:])'], '(m,n),(n)->(m)', target=...)."""
    _check_options(nopython, kwargs, target, "guvectorize")
    sigs = [signatures] if isinstance(signatures, (str, Signature)) else list(signatures)
    return lambda f: GUVectorized(f, sigs, layout, target)
