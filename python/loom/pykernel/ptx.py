"""PTX of Python kernels and device functions: Numba's cuda.compile_ptx, cuda.compile and
kernel.inspect_asm(). loom compiles the CUDA C++ its translator writes (compiler.py); NVRTC
turns the same program into PTX here, with no GPU needed, so what these show is the code a
launch runs (launches load CUBIN of that program).

A device function (device=True) is exported by a wrapper under its Python name: with
Numba's ABI (the default) `extern "C" __device__ int NAME(RET* out, args...)` that stores
the value and returns 0 (the status Numba's callers test), with abi="c"
`extern "C" __device__ RET NAME(args...)`; NVRTC keeps it in the PTX as relocatable device
code (`-rdc=true`), as Numba's PTX has it."""
from .. import _loom
from . import numba_types
from . import types as T
from .compiler import ModuleBuilder, nvrtc_options, translate_kernel
from .errors import TypingError
from .function import DeviceFunction
from .signatures import parse_signature


def _arch(cc, where):
    if cc is None:
        return None
    try:
        major, minor = cc
        return int(major) * 10 + int(minor)
    except (TypeError, ValueError):
        raise ValueError(f"[{where}] cc is a (major, minor) compute capability such as (9, 0), not {cc!r}") from None


def _numba_type(t):
    """A translator type as Numba's type object (the return type compile_ptx reports)."""
    if isinstance(t, T.NoneType):
        return numba_types.void
    if isinstance(t, T.Array):
        return numba_types.from_kernel_types((t,))[0]
    if isinstance(t, T.Scalar):
        return numba_types.from_dtype(t.dtype)
    return t


def _device_wrapper(name, cname, ret, argtypes, abi):
    params = [f"{t.c} a{i}" for i, t in enumerate(argtypes)]
    call = f"{cname}({', '.join(f'a{i}' for i in range(len(argtypes)))})"
    void = isinstance(ret, T.NoneType)
    if abi == "c":
        return f'extern "C" __device__ {"void" if void else ret.c} {name}({", ".join(params)}) ' \
               f'{{ {"" if void else "return "}{call}; }}'
    out = [] if void else [f"{ret.c}* loom_out"]
    store = f"{call};" if void else f"*loom_out = {call};"
    return f'extern "C" __device__ int {name}({", ".join(out + params)}) {{ {store} return 0; }}'


def _source(pyfunc, sig, device, debug, abi, abi_info, where):
    func = getattr(pyfunc, "py_func", pyfunc)
    if not callable(func):
        raise TypeError(f"[{where}] takes a Python function, not {type(pyfunc).__name__}")
    ret, argtypes = parse_signature(sig, func.__name__)
    argtypes = tuple(argtypes)
    if abi not in ("numba", "c"):
        raise ValueError(f"[{where}] abi is 'numba' or 'c', not {abi!r}")
    if not device:
        if abi != "numba":
            raise NotImplementedError(f"[{where}] abi={abi!r} is for device functions; a kernel has Numba's")
        if ret is not None:
            raise TypingError(f"[{where}] a kernel's signature returns void, not {ret}")
        source, _ = translate_kernel(func, argtypes, debug=debug)
        return source, numba_types.void
    mb = ModuleBuilder()
    cname, got = mb.device_function(DeviceFunction(func), argtypes, None, None)
    if ret is not None and got != ret:  # the declared return type converts the value, as in Numba
        if not (isinstance(ret, T.Scalar) and isinstance(got, T.Scalar)):
            raise TypingError(f"[{where}] '{func.__name__}' returns {got}, which cannot convert to {ret}")
        got = ret
    name = (abi_info or {}).get("abi_name", func.__name__)
    header = "#define LOOM_PK_BOUNDSCHECK 1" if debug else ""
    return mb.source(_device_wrapper(name, cname, got, argtypes, abi), header), _numba_type(got)


def compile(pyfunc, sig, debug=False, lineinfo=False, device=True, fastmath=False, cc=None, opt=None,
            abi="c", abi_info=None, output="ptx"):
    """Numba's cuda.compile: (code, return type) of `pyfunc` for `sig`, a device function by
    default. output="ptx" only: loom makes no LTO-IR (NVRTC's -dlto output is for nvJitLink,
    which loom does not link with)."""
    if output != "ptx":
        raise NotImplementedError(f"[cuda.compile] output={output!r}: loom gives PTX (output='ptx'), not LTO-IR")
    return compile_ptx(pyfunc, sig, debug=debug, lineinfo=lineinfo, device=device, fastmath=fastmath, cc=cc,
                       opt=opt, abi=abi, abi_info=abi_info)


def compile_ptx(pyfunc, sig, debug=False, lineinfo=False, device=False, fastmath=False, cc=None, opt=None,
                abi="numba", abi_info=None):
    """Numba's cuda.compile_ptx: (PTX text, return type) of `pyfunc` for `sig` (a signature
    string, Numba types, or a tuple of argument types), as a kernel or (device=True) a device
    function. cc=(major, minor) picks the architecture; default: the oldest NVRTC knows, as
    portable as Numba's default. No GPU needed."""
    where = "cuda.compile_ptx"
    source, resty = _source(pyfunc, sig, device, debug, abi, abi_info, where)
    opts = nvrtc_options(fastmath, lineinfo, debug) + (["-rdc=true"] if device else [])
    arch = _arch(cc, where)
    return _loom.RawModule(source, options=opts).ptx(arch if arch is not None else 0), resty


def compile_ptx_for_current_device(pyfunc, sig, debug=False, lineinfo=False, device=False, fastmath=False,
                                   opt=None, abi="numba", abi_info=None):
    """compile_ptx for the default GPU's compute capability (no GPU: the oldest NVRTC knows)."""
    return compile_ptx(pyfunc, sig, debug=debug, lineinfo=lineinfo, device=device, fastmath=fastmath,
                       cc=_current_cc(), opt=opt, abi=abi, abi_info=abi_info)


def compile_for_current_device(pyfunc, sig, debug=False, lineinfo=False, device=True, fastmath=False,
                               opt=None, abi="c", abi_info=None, output="ptx"):
    return compile(pyfunc, sig, debug=debug, lineinfo=lineinfo, device=device, fastmath=fastmath,
                   cc=_current_cc(), opt=opt, abi=abi, abi_info=abi_info, output=output)


def _current_cc():
    d = _loom.default_device()
    return d.compute_capability if d.type == "cuda" else None
