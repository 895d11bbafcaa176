"""@cuda.jit objects: a kernel (or device function) compiled once per argument-type
signature. The signature lookup and the launch run in C++ (loom._loom._KernelDispatcher);
on a miss, `_on_miss` converts host arguments, translates and compiles the new
specialisation through loom.RawModule (NVRTC on a GPU, the CPU kernel emulator on cpu(),
one compile cache) and launches it."""
import functools

import numpy as np

from .. import _loom
from . import args as hints
from . import cache, compiler, enums, numba_types, overloads, records, serialize
from . import types as T
from .compiled_overload import CompiledOverload
from .compiler import ModuleBuilder, kernel_name, nvrtc_options, translate_kernel
from .errors import DeviceFunctionLaunchError, LaunchConfigError, TypingError
from .foreign import CUSource
from .function import KernelFunction
from .signatures import accepts, parse_signature
from .translate import FunctionTranslator


class Specialization:
    def __init__(self, key, argtypes, source, name, kernel, module, keepalive=()):
        self.key, self.argtypes, self.source, self.name = key, argtypes, source, name
        self.kernel, self.module = kernel, module
        self.keepalive = tuple(keepalive)  # device arrays whose addresses the source holds


class CUDADispatcher(KernelFunction, _loom._KernelDispatcher):
    """What @cuda.jit returns. kernel[griddim, blockdim](*args) launches;
    kernel[griddim, blockdim, stream, sharedmem] too (Numba's forms). The C++ base class
    does the launch: `kernel[...]` and the call of its launcher run no Python code for a
    known signature. The function, its options and declared signatures: KernelFunction."""

    def __init__(self, func, device=False, signatures=None, debug=False, lineinfo=False, fastmath=False,
                 opt=True, link=None, launch_bounds=None, shared_memory_carveout=None, **ignored):
        _loom._KernelDispatcher.__init__(self, func.__name__, self._on_miss)
        self.launch_bounds = compiler.launch_bounds(launch_bounds, func.__name__)
        compiler.shared_memory_carveout(shared_memory_carveout, func.__name__)  # checked; the driver splits L1
        self._init_function(func, device, signatures, debug, lineinfo, fastmath, opt, link)
        self._given["launch_bounds"] = self.launch_bounds
        self._specs = {}          # key -> Specialization
        self.extensions = []      # Numba's argument hooks: obj.prepare_args(ty, val, **kw) -> (ty, val)
        self.specializations = {}  # specialize(): key -> the specialised kernel
        self._frozen = False      # specialize(): no new signatures
        if self._declared and not device:
            for _, args in self._declared:
                if any(isinstance(a, (T.Record, T.RecordArray, T.Tuple)) for a in args):  # as _launch_with_tuples does
                    self._compile("tuples:" + repr(tuple(args)), tuple(args), register=False)
                else:
                    self._compile(T.signature_key(args), tuple(args))

    def __reduce__(self):
        """Pickled by its Python function and options (Numba pickles its dispatchers so); the
        other side compiles again. Linked files go as their texts (CUSource)."""
        given = dict(self._given, link=[CUSource(t) for t in self.links] or None)
        return (serialize.rebuild_dispatcher, (type(self), serialize.function_state(self.py_func), given))

    # ---------------------------------------------------------------- launching
    def __call__(self, *args, **kwargs):
        if self.device:
            raise TypeError(f"[{self.__name__}] is a device function: call it from a kernel")
        raise LaunchConfigError(f"[{self.__name__}] launch configuration was not specified: a kernel is launched as "
                                f"{self.__name__}[griddim, blockdim](...)")  # Numba's words

    def forall(self, ntasks, tpb=0, stream=0, sharedmem=0):
        """Numba's forall: a launcher of at least `ntasks` threads in 1-D, for a kernel that maps
        cuda.grid(1) to one task and skips indices past the last; ntasks 0 launches nothing.
        tpb 0 chooses the block: 256 threads, which every Python kernel can launch (at most 255
        registers a thread) and which keeps a GPU's SMs as busy as larger blocks do."""
        if ntasks < 0:
            raise ValueError(f"[{self.__name__}] forall takes a task count >= 0, got {ntasks} (Can't create "
                             "ForAll with negative task count)")
        return _ForAll(self, int(ntasks), int(tpb), stream, sharedmem)

    def _on_miss(self, launcher, args):
        if self.extensions:
            args = self._prepare_args(args)
        if any(isinstance(a, tuple) or enums.is_member(a) or _is_record(hints.unwrap(a)[0]) for a in args):
            return self._launch_with_tuples(launcher, args)
        converted, copy_back = _convert_args(self.__name__, args)
        key = self.signature(*converted)
        if key is None:
            bad = [type(a).__name__ for a in converted if _dispatch_kind(a) is None]
            raise TypingError(f"[{self.__name__}] cannot pass a {bad[0] if bad else 'value'} to a kernel: kernels "
                              "take loom arrays, NumPy arrays (copied), objects with __cuda_array_interface__ or "
                              "DLPack, and numbers")
        if self.get(key) is None:
            # Compiled first for the device it launches on (RawModule compiles for the
            # default device at get_function; another device compiles at its first launch).
            with _loom.device(_target_device(converted) or _loom.default_device()):
                self._specialize_for(key)
        launcher(*converted)
        _copy_back(copy_back)
        return None

    def _launch_with_tuples(self, launcher, args):
        """Tuple arguments (nested, of arrays and numbers; Numba's UniTuple and Tuple) reach the
        kernel flattened, one C parameter per leaf, and the kernel rebuilds each tuple
        (translate.py); records and structured arrays as their bytes (records.py). The signature
        table keys neither, so these launches come here each time: one Python call more than a
        launch of arrays and numbers."""
        leaves = [x for a in args for x in _leaves(a)]
        converted, copy_back = _convert_args(self.__name__, leaves)
        it = iter(converted)
        argtypes = tuple(self._arg_type(_rebuild(a, it)) for a in args)
        key = "tuples:" + repr(argtypes)
        spec = self._specs.get(key)
        if spec is None and (self._declared or self._frozen):
            # A declared signature that takes these types (a tuple's numbers convert as any
            # number argument does, at the launch).
            spec = next((sp for k, sp in self._specs.items() if k.startswith("tuples:")
                         and len(sp.argtypes) == len(argtypes) and all(map(accepts, sp.argtypes, argtypes))), None)
        if spec is None:
            if self._declared or self._frozen:
                raise TypingError(f"[{self.__name__}] No matching definition for argument type(s): no compiled "
                                  f"signature takes ({', '.join(map(str, argtypes))})")
            with _loom.device(_target_device(converted) or _loom.default_device()):
                spec = self._compile(key, argtypes, register=False)
        launcher._launch_kernel(spec.kernel, *[c.data if isinstance(c, _RecordArg) else c for c in converted])
        _copy_back(copy_back)
        return None

    def _prepare_args(self, args):
        """Each argument through the extensions, in order (Numba's prepare_args(ty, val, stream=,
        retr=); loom passes ty=None: the types come after, from the values)."""
        out = []
        for a in args:
            for ext in self.extensions:
                _, a = ext.prepare_args(None, a, stream=0, retr=[])
            out.append(a)
        return out

    def _arg_type(self, a):
        if enums.is_member(a):  # typed by its class; passed as its value (_leaves)
            return enums.member_type(type(a), None if isinstance(a, int) else self._arg_type(a.value))
        if isinstance(a, _RecordArg):
            rec = records.record_type(a.dtype, self.__name__)
            return rec if a.ndim is None else T.RecordArray(rec, a.ndim)
        if isinstance(a, tuple):  # a namedtuple keeps its field names (x.y in the kernel)
            return T.Tuple([self._arg_type(x) for x in a], getattr(a, "_fields", None))
        key = self.signature(a)
        if key is None:
            raise TypingError(f"[{self.__name__}] cannot pass a {type(a).__name__} to a kernel: kernels take loom "
                              "arrays, NumPy arrays (copied), objects with __cuda_array_interface__ or DLPack, "
                              "numbers and tuples of those")
        return T.parse_key(key)[0]

    def _specialize_for(self, key):
        argtypes = T.parse_key(key)
        if self._declared or self._frozen:
            # Numba's overload resolution: the best-rated signature; a tie is ambiguous.
            chosen = overloads.best([(s.argtypes, s) for s in self._specs.values()
                                     if not s.key.startswith("tuples:")], argtypes)
            if len(chosen) > 1:
                given = ", ".join(map(overloads.numba_text, argtypes))
                raise TypingError(f"[{self.__name__}] Ambiguous overloading for {self.py_func!r} ({given}):\n"
                                  + "\n".join("(" + ", ".join(map(overloads.numba_text, s.argtypes)) + ") -> none"
                                               for _, s in chosen[:2]))
            if chosen:
                self.add(key, chosen[0][1].kernel)
                return
            have = "; ".join("(" + ", ".join(map(str, s.argtypes)) + ")" for s in self._specs.values())
            raise TypingError(f"[{self.__name__}] No matching definition for argument type(s): no compiled signature "
                              f"takes ({', '.join(map(str, argtypes))}); "
                              f"it has {have}")
        self._compile(key, argtypes)

    def _options(self):
        return tuple(nvrtc_options(self.fastmath, self.lineinfo, self.debug))

    def _compile(self, key, argtypes, register=True):
        captured = cache.device_arrays_read(self.py_func)  # read before the key: the key holds their addresses
        k = cache.key(self.py_func, argtypes, (self.debug, self._options(), self.links, self.launch_bounds))
        source, name = cache.translation(
            k, lambda: translate_kernel(self.py_func, argtypes, self.source(), debug=self.debug, links=self.links,
                                        bounds=self.launch_bounds))
        module = _loom.RawModule(source, options=self._options())
        try:
            kernel = module.get_function(name)
        except _loom.CompileError as e:
            if "loom_ffi_" in source or self.links:
                raise _loom.CompileError(f"[{self.__name__}] the kernel and the CUDA C++ it links (link=, "
                                         f"cuda.declare_device) did not compile together:\n{e}") from None
            raise _loom.CompileError(
                f"[{self.__name__}] the CUDA C++ generated from this Python kernel did not compile, a bug of "
                f"loom's translator (please report it); the compiler's messages name the Python lines:\n{e}") from None
        self._specs[key] = Specialization(key, argtypes, source, name, kernel, module, captured)
        if register:  # into the signature table of the launch's fast path
            self.add(key, kernel)
        return self._specs[key]

    # ---------------------------------------------------------------- Numba's inspection API
    def specialize(self, *args):
        """A kernel fixed to the types of `args` (values, or Numba's type objects such as
        float32[::1]), compiled now; other types raise TypingError. The same types give the same
        kernel (`specializations`). A kernel with a signature, or specialised, is final."""
        if self.specialized:
            raise RuntimeError(f"[{self.__name__}] Dispatcher already specialized: it takes only "
                               + "; ".join("(" + ", ".join(map(str, s.argtypes)) + ")" for s in self._specs.values()))
        if args and all(isinstance(a, numba_types.Type) for a in args):
            key = T.signature_key(parse_signature(tuple(args), self.__name__)[1])
        else:
            converted, _ = _convert_args(self.__name__, args)
            key = self.signature(*converted)
        if key is None:
            raise TypingError(f"[{self.__name__}] specialize() takes loom or NumPy arrays, numbers, or Numba's type "
                              "objects (float32[::1], int64)")
        if key in self.specializations:
            return self.specializations[key]
        spec = self._specs.get(key) or self._compile(key, T.parse_key(key))
        k = CUDADispatcher(self.py_func, debug=self.debug, lineinfo=self.lineinfo, fastmath=self.fastmath,
                           opt=self.opt)
        k._src = self._src
        k._specs = {key: spec}
        k._frozen = True
        k.add(key, spec.kernel)
        self.specializations[key] = k
        return k

    @property
    def signatures(self):
        """The argument types of each compiled kernel, as Numba's type objects (the keys of
        `overloads`)."""
        return [numba_types.from_kernel_types(s.argtypes) for s in self._specs.values()]

    @property
    def specialized(self):
        """True when the kernel takes only the signatures it was compiled for (declared ones,
        or specialize())."""
        return bool(self._declared) or self._frozen

    @property
    def overloads(self):
        """Numba's: each compiled kernel under its argument types (Numba's type objects, as
        `sig.args`), with its resource use as attributes (compiled_overload.py)."""
        return {numba_types.from_kernel_types(s.argtypes):
                CompiledOverload(s.kernel, functools.partial(self._local_types, s)) for s in self._specs.values()}

    def _local_types(self, spec):
        """{name: type} of every argument and variable of a specialisation (the translator's
        types, arguments first), from translating it again."""
        tr = FunctionTranslator(self.source(), spec.argtypes, ModuleBuilder(), "kernel", kernel_name(self.py_func))
        tr.translate()
        names = self.source().params + sorted(tr.locals - set(self.source().params))
        return {n: tr.vars[n] for n in names if n in tr.vars}

    def _spec_of(self, signature):
        """The specialisation a signature names: a Numba signature or its args, or a string."""
        if isinstance(signature, tuple) and all(isinstance(t, numba_types.Type) for t in signature):
            argtypes = parse_signature(signature, self.__name__)[1]
        elif isinstance(signature, (str, numba_types.Signature)):
            argtypes = parse_signature(signature, self.__name__)[1]
        else:
            argtypes = list(signature)
        for s in self._specs.values():
            if list(s.argtypes) == list(argtypes):
                return s
        raise KeyError(f"[{self.__name__}] no compiled signature ({', '.join(map(str, argtypes))}); it has "
                       + "; ".join("(" + ", ".join(map(str, s.argtypes)) + ")" for s in self._specs.values()))

    def _resource(self, signature, field):
        if signature is not None:
            return CompiledOverload(self._spec_of(signature).kernel).attribute(field)
        if self.specialized and len(self._specs) == 1:
            return CompiledOverload(next(iter(self._specs.values())).kernel).attribute(field)
        return {k: o.attribute(field) for k, o in self.overloads.items()}

    def get_regs_per_thread(self, signature=None):
        """Registers a thread of the kernel uses (Numba's; 0 on cpu(), which has none): an int for
        one signature or a specialised kernel, else {argument types: int}."""
        return self._resource(signature, "num_regs")

    def get_shared_mem_per_block(self, signature=None):
        return self._resource(signature, "shared_size_bytes")

    def get_local_mem_per_thread(self, signature=None):
        return self._resource(signature, "local_size_bytes")

    def get_const_mem_size(self, signature=None):
        return self._resource(signature, "const_size_bytes")

    def get_max_threads_per_block(self, signature=None):
        return self._resource(signature, "max_threads_per_block")

    def inspect_source(self, signature=None):
        """The generated CUDA C++ of each specialisation ({argument types, as Numba's type
        objects: source}), or of one."""
        if signature is not None:
            for s in self._specs.values():
                if s.key == signature:
                    return s.source
            return self._spec_of(signature).source
        return {numba_types.from_kernel_types(s.argtypes): s.source for s in self._specs.values()}

    def inspect_asm(self, signature=None):
        """The PTX of each specialisation ({argument types: PTX}), or of one: NVRTC's PTX of the
        program inspect_source() shows, for the default GPU (without one, the oldest
        architecture NVRTC knows). Compiled when asked (ptx.py)."""
        if signature is not None:
            return self._spec_of(signature).module.ptx()
        return {numba_types.from_kernel_types(s.argtypes): s.module.ptx() for s in self._specs.values()}

    def inspect_types(self, file=None, signature=None):
        """Prints, per specialisation, the type of every argument and variable (Numba's
        inspect_types), and returns the text."""
        out = []
        for s in [self._spec_of(signature)] if signature is not None else self._specs.values():
            out.append(f"{self.__name__} ({', '.join(map(str, s.argtypes))})")
            out.append("-" * len(out[-1]))
            out.extend(f"  {name} = {t}" for name, t in self._local_types(s).items())
            out.append("")
        text = "\n".join(out)
        print(text, file=file)
        return text



def _dispatch_kind(a):
    if isinstance(a, _loom.ndarray):
        return "array"
    if isinstance(a, (bool, int, float, complex, np.generic)):
        return "scalar"
    return None


def _leaves(a):
    if enums.is_member(a):  # an enum member travels as its value
        yield from _leaves(int(a) if isinstance(a, int) else a.value)
        return
    if isinstance(a, tuple):
        for x in a:
            yield from _leaves(x)
    else:
        yield a


def _rebuild(a, leaves):
    """`a`'s tuple structure over the next items of the iterator `leaves`."""
    if enums.is_member(a):  # its value's leaves are consumed; the member types the argument
        _rebuild(int(a) if isinstance(a, int) else a.value, leaves)
        return a
    if isinstance(a, tuple):
        items = [_rebuild(x, leaves) for x in a]
        return type(a)._make(items) if hasattr(a, "_fields") else tuple(items)
    return next(leaves)


def _target_device(args):
    for a in args:
        if isinstance(a, _loom.ndarray):
            return a.device
    return None


class _RecordArg:
    """A record (ndim None) or structured array on its way to a kernel: its bytes as a loom
    uint8 array (records.py)."""

    def __init__(self, data, dtype, ndim):
        self.data, self.dtype, self.ndim = data, dtype, ndim


def _is_record(a):
    return isinstance(a, (np.void, np.ndarray)) and a.dtype.fields is not None


def _record_arg(a, device):
    """(_RecordArg, copy-back entry) of a record or structured array."""
    if isinstance(a, np.void):
        raw = np.array(a).reshape(1).view(np.uint8)
        d = _loom.asarray(raw, device=device)
        return _RecordArg(d, a.dtype, None), (d, a)
    c = np.ascontiguousarray(a)
    raw = c.reshape(-1).view(np.uint8).reshape(a.shape + (a.dtype.itemsize,))
    d = _loom.array(raw, device=device, copy=True)  # a copy on cpu() too: cuda.In must not write `a`
    return _RecordArg(d, a.dtype, a.ndim), (d, a)


def _copy_back(entries):
    """After a launch: each host array (or record) gets its device copy's values."""
    for dev_arr, host in entries:
        values = dev_arr.numpy()
        if isinstance(host, np.void):  # a record: field by field (it may be a view into an array)
            rec = values.view(host.dtype)[0]
            for name in host.dtype.names:
                host[name] = rec[name]
        elif host.dtype.fields is not None:
            host[...] = values.reshape(-1).view(host.dtype).reshape(host.shape)
        else:
            host[...] = values


def _convert_args(name, args):
    """Host arrays to loom arrays on the launch's device (copied back after the launch, as
    Numba does); CUDA-array-interface and DLPack objects to loom arrays (no copy); records and
    structured arrays to their bytes (_RecordArg, copied back too)."""
    dev = _target_device([hints.unwrap(a)[0] for a in args])
    out, back = [], []
    for a in args:
        a, hint = hints.unwrap(a)  # cuda.In / Out / InOut (args.py)
        copy_in, copy_out = (hint.copy_in, hint.copy_out) if hint else (True, True)
        if _is_record(a):
            arg, entry = _record_arg(a, dev or _loom.default_device())  # copied in even for cuda.Out
            out.append(arg)
            if copy_out and (not isinstance(a, np.ndarray) or a.flags.writeable):
                back.append(entry)
        elif isinstance(a, np.ndarray):
            where = dev or _loom.default_device()
            if not copy_in:
                d = _loom.empty(a.shape, dtype=a.dtype, device=where)
            elif copy_out:
                d = _loom.asarray(a, device=where)  # on cpu() the host memory itself, when it can be
            else:  # cuda.In: the kernel's writes must not reach `a`, on cpu() either
                d = _loom.array(a, device=where, copy=True)
            out.append(d)
            if copy_out and a.flags.writeable:
                back.append((d, a))
        elif hasattr(a, "__cuda_array_interface__") and not isinstance(a, _loom.ndarray):
            out.append(_loom.asarray(a))
        elif hasattr(a, "__dlpack__") and not isinstance(a, (_loom.ndarray, np.generic)):
            out.append(_loom.from_dlpack(a))
        else:
            out.append(a)
    return out, back


class CUDADeviceFunction(CUDADispatcher):
    """What @cuda.jit(device=True) returns: called from kernels, never launched."""

    def __getitem__(self, config):
        raise DeviceFunctionLaunchError(f"[{self.__name__}] Cannot compile a device function as a kernel: it is "
                                        "called from kernels, only kernels are launched")  # Numba's words


_loom._KernelLauncher.__reduce__ = serialize.reduce_launcher


class _ForAll:
    """kernel.forall(n): launched with the arguments, one thread per task."""

    def __init__(self, dispatcher, ntasks, tpb, stream, sharedmem):
        self.dispatcher, self.ntasks, self.tpb, self.stream, self.sharedmem = dispatcher, ntasks, tpb, stream, sharedmem

    def __call__(self, *args):
        if self.ntasks == 0:
            return None
        tpb = self.tpb or 256
        return self.dispatcher[(self.ntasks + tpb - 1) // tpb, tpb, self.stream, self.sharedmem](*args)


def jit(func_or_sig=None, device=False, debug=False, lineinfo=False, fastmath=False, opt=True, link=None,
        **kwargs):
    """Numba's cuda.jit: @cuda.jit, @cuda.jit(device=True), @cuda.jit("void(float32[:])"),
    @cuda.jit(["sig", ...]); options debug=, lineinfo=, fastmath=, opt=, link= (CUDA C++ files
    or cuda.CUSource put into the kernel's program: foreign.py), launch_bounds= (written as
    __launch_bounds__: NVRTC uses it, and a GPU and the emulator refuse a larger block);
    shared_memory_carveout= is checked as Numba checks it and left to the driver (a
    preference); cache= and inline= are accepted and ignored (loom caches every compile on
    disk)."""
    launch_bounds, carveout = kwargs.get("launch_bounds"), kwargs.get("shared_memory_carveout")

    def wrap(f, sigs=None):
        return (CUDADeviceFunction if device else CUDADispatcher)(f, device=device, signatures=sigs, debug=debug, lineinfo=lineinfo,
                              fastmath=fastmath, opt=opt, link=link, launch_bounds=launch_bounds,
                              shared_memory_carveout=carveout)
    if callable(func_or_sig) and not isinstance(func_or_sig, (str, list, tuple, numba_types.Type)):  # a function
        return wrap(func_or_sig)
    sigs = None
    if func_or_sig is not None:
        # One signature (a string, a type object, a tuple of argument types) or a list of them.
        sigs = [func_or_sig] if isinstance(func_or_sig, (str, numba_types.Type, numba_types.Signature, tuple)) \
            else list(func_or_sig)
    return lambda f: wrap(f, sigs)
