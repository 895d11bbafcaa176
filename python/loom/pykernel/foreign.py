"""Foreign device functions: CUDA C++ written outside Python, called from Python kernels, as
Numba's `cuda.declare_device(name, sig, link=[...])` and `@cuda.jit(link=[...])` give them.

    mul = cuda.declare_device("mul_f32_f32", "float32(float32, float32)", link="functions.cu")
    @cuda.jit
    def k(r, x, y):
        i = cuda.grid(1)
        if i < len(r):
            r[i] = mul(x[i], y[i])

loom translates a kernel to one CUDA C++ program (compiler.py), so a `.cu` file or a
`CUSource` is linked by putting its text into that program: NVRTC compiles it for a GPU and
the host compiler for cpu()'s emulator, so the same foreign code runs on both. Numba's default
ABI is kept: `extern "C" __device__ int name(ret* return_value, args...)`, returning a status
(0); with abi="c" the function returns its value. A generated inline wrapper gives the
translator a plain call. PTX, cubin, fatbin, object and archive files are machine code for one
target and cannot join a source program: they are refused, naming the file.

CPointer(T) parameters take `ffi.from_buffer(array)` (cffi) in the kernel: the address of the
array's first element.
"""
import hashlib
import os

from . import types as T
from .errors import TypingError, UnsupportedError
from .signatures import parse_signature

_SOURCE_SUFFIXES = (".cu", ".cuh", ".h", ".c", ".cpp")
_BINARY_SUFFIXES = (".ptx", ".cubin", ".fatbin", ".o", ".obj", ".a", ".lib", ".ltoir")


class CUSource:
    """CUDA C++ source text to link (Numba's cuda.CUSource)."""

    kind = "cu"

    def __init__(self, data, name=None):
        self.data = data.decode() if isinstance(data, bytes) else str(data)
        self.name = name or "<cuda source>"


def read_links(link, where):
    """The source texts of `link` (a path, a CUSource, or a list, tuple or set of them: a set
    in sorted order of its paths, so a kernel's source and cache key do not depend on set
    order)."""
    if link is None:
        return ()
    if isinstance(link, (set, frozenset)):
        items = sorted(link, key=lambda i: i.name if isinstance(i, CUSource) else os.fspath(i))
    else:
        items = link if isinstance(link, (list, tuple)) else [link]
    texts = []
    for item in items:
        if isinstance(item, CUSource):
            texts.append(item.data)
            continue
        path = os.fspath(item)
        if path.lower().endswith(_BINARY_SUFFIXES):
            raise UnsupportedError(f"[{where}] link={path!r}: loom compiles a kernel and what it links from CUDA "
                                   "C++ source as one program, so it links .cu files and cuda.CUSource; PTX, "
                                   "cubin, fatbin, object and archive files cannot be linked")
        if not path.lower().endswith(_SOURCE_SUFFIXES):
            raise UnsupportedError(f"[{where}] link={path!r}: a linked file is CUDA C++ source (.cu)")
        try:
            with open(path, encoding="utf-8") as f:
                texts.append(f'#line 1 "{_c_path(path)}"\n' + f.read())
        except OSError as e:
            raise FileNotFoundError(f"[{where}] link: cannot read {path!r} ({e.strerror})") from None
    return tuple(texts)


def _c_path(path):
    return path.replace("\\", "\\\\").replace('"', '\\"')


class ForeignFunction:
    """What cuda.declare_device returns: callable from kernels only."""

    def __init__(self, name, sig, link=None, use_cooperative=False, abi="numba"):
        if not name.isidentifier():
            raise ValueError(f"[cuda.declare_device] {name!r} is not a C function name")
        if abi not in ("numba", "c"):
            raise ValueError(f"[cuda.declare_device] abi is 'numba' or 'c', not {abi!r}")
        self.__name__ = self.name = name
        if isinstance(sig, tuple) or (isinstance(sig, str) and sig.strip().startswith("(")):
            raise TypeError(f"[cuda.declare_device] Return type must be provided for device declarations: '{name}' "
                            f"is declared {sig!r}; write 'int32(float32)', or 'void(...)' for none")
        self.ret, self.params = parse_signature(sig, name)
        for t in self.params:
            if not isinstance(t, (T.Scalar, T.Pointer)):
                raise TypingError(f"[{name}] a foreign device function takes numbers and CPointer(...) "
                                  f"arguments, not {t}")
        if self.ret is not None and not isinstance(self.ret, T.Scalar):
            raise TypingError(f"[{name}] a foreign device function returns a number or void, not {self.ret}")
        self.abi = abi
        self.use_cooperative = use_cooperative
        self.links = read_links(link, name)

    def __call__(self, *args):
        raise TypeError(f"[{self.name}] a foreign device function (cuda.declare_device) is called from kernels only")

    def key_bytes(self):
        """What a translation that calls this function reads of it (cache.py)."""
        h = hashlib.blake2b(digest_size=16)
        h.update(repr((self.name, str(self.ret), [str(p) for p in self.params], self.abi)).encode())
        for text in self.links:
            h.update(text.encode())
        return h.digest()

    def wrapper_name(self):
        return "loom_ffi_" + self.name

    def definitions(self):
        """The declaration and the inline wrapper the translator calls."""
        ret = "void" if self.ret is None else self.ret.c
        params = [f"{t.c} a{i}" for i, t in enumerate(self.params)]
        names = [f"a{i}" for i in range(len(self.params))]
        if self.abi == "c":
            decl = f'extern "C" __device__ {ret} {self.name}({", ".join(t.c for t in self.params)});'
            body = f"return {self.name}({', '.join(names)});" if self.ret is not None else \
                f"{self.name}({', '.join(names)});"
        else:  # Numba's ABI: the result through a pointer, an int status returned
            slot = "int" if self.ret is None else ret
            decl = f'extern "C" __device__ int {self.name}({", ".join([slot + "*"] + [t.c for t in self.params])});'
            body = f"{slot} r{{}}; {self.name}({', '.join(['&r'] + names)});" + \
                (" return r;" if self.ret is not None else "")
        wrapper = f"static __device__ __forceinline__ {ret} {self.wrapper_name()}({', '.join(params)}) {{ {body} }}"
        return decl + "\n" + wrapper

    def __repr__(self):
        return f"<loom.cuda foreign device function {self.name}>"


def declare_device(name, sig, link=None, use_cooperative=False, abi="numba"):
    """Numba's cuda.declare_device: a CUDA C++ device function defined in `link` (or in a kernel's
    link=), callable from kernels with the types of `sig`."""
    return ForeignFunction(name, sig, link, use_cooperative, abi)
