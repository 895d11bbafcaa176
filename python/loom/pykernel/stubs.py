"""The objects a kernel's source names: `cuda.grid`, `cuda.threadIdx`, `cuda.shared.array`,
`cuda.atomic.add`, ... . Each is a marker the translator recognises by identity (so
`from loom.cuda import grid` works too); called from ordinary Python they raise."""


class Intrinsic:
    """A function that only exists inside kernels and device functions."""

    def __init__(self, name, doc=""):
        self.name = name
        self.__doc__ = doc
        self.__name__ = name.rsplit(".", 1)[-1]

    def __call__(self, *args, **kwargs):
        raise RuntimeError(f"cuda.{self.name}() can only be called inside a kernel or a device function "
                           "(@cuda.jit)")

    def __repr__(self):
        return f"<loom.cuda intrinsic {self.name}>"


class Dim3Intrinsic(Intrinsic):
    """threadIdx, blockIdx, blockDim, gridDim: .x .y .z inside kernels."""

    def __getattr__(self, attr):
        if attr in ("x", "y", "z"):
            raise RuntimeError(f"cuda.{self.name}.{attr} can only be read inside a kernel or a device function")
        raise AttributeError(attr)


class Namespace:
    """cuda.local, cuda.shared, cuda.const, cuda.atomic: groups of intrinsics."""

    def __init__(self, name, members):
        self._name = name
        for m in members:
            setattr(self, m, Intrinsic(f"{name}.{m}"))

    def __repr__(self):
        return f"<loom.cuda namespace {self._name}>"


threadIdx = Dim3Intrinsic("threadIdx", "The thread's index in its block (.x .y .z, int32).")
blockIdx = Dim3Intrinsic("blockIdx", "The block's index in the grid (.x .y .z, int32).")
blockDim = Dim3Intrinsic("blockDim", "The block's shape (.x .y .z, int32).")
gridDim = Dim3Intrinsic("gridDim", "The grid's shape in blocks (.x .y .z, int32).")
laneid = Intrinsic("laneid", "The thread's lane in its warp (int32).")
warpsize = Intrinsic("warpsize", "Threads per warp: 32 (int32).")

_FUNCTIONS = {
    "grid": "cuda.grid(ndim): the thread's absolute index in the grid (an int64, or a tuple for 2 and 3).",
    "gridsize": "cuda.gridsize(ndim): the number of threads in the grid per dimension.",
    "syncthreads": "Waits until every thread of the block reaches it (__syncthreads).",
    "syncthreads_count": "syncthreads, and the number of threads whose predicate is true.",
    "syncthreads_and": "syncthreads, and whether the predicate is true for every thread.",
    "syncthreads_or": "syncthreads, and whether the predicate is true for any thread.",
    "syncwarp": "Waits until the warp's threads in `mask` reach it (__syncwarp).",
    "shfl_sync": "shfl_sync(mask, value, src_lane): `value` of lane src_lane.",
    "shfl_up_sync": "shfl_up_sync(mask, value, delta): `value` of lane - delta.",
    "shfl_down_sync": "shfl_down_sync(mask, value, delta): `value` of lane + delta.",
    "shfl_xor_sync": "shfl_xor_sync(mask, value, lane_mask): `value` of lane ^ lane_mask.",
    "ballot_sync": "ballot_sync(mask, predicate): a bit per lane whose predicate is true.",
    "all_sync": "all_sync(mask, predicate): whether it is true for every lane in mask.",
    "any_sync": "any_sync(mask, predicate): whether it is true for any lane in mask.",
    "activemask": "activemask(): the lanes of the warp that are running.",
    "eq_sync": "eq_sync(mask, predicate): whether it is the same (all true or all false) for every lane in mask.",
    "match_any_sync": "match_any_sync(mask, value): the lanes in mask whose value equals this lane's (bitwise).",
    "match_all_sync": "match_all_sync(mask, value): (the lanes in mask, True) when they all hold the same "
                      "value, else (0, False).",
    "lanemask_lt": "lanemask_lt(): the lanes of the warp below this one (a uint32 mask).",
    "threadfence": "A memory fence for the device (__threadfence).",
    "threadfence_block": "A memory fence for the block.",
    "threadfence_system": "A memory fence for the system.",
    "popc": "The number of set bits.",
    "brev": "The bits reversed.",
    "clz": "The number of leading zero bits.",
    "ffs": "The position of the first set bit (1-based; 0 for none).",
    "fma": "fma(a, b, c): a * b + c with one rounding.",
    "cbrt": "The cube root.",
    "selp": "selp(cond, a, b): a if cond else b.",
    "carray": "carray(ptr, shape, dtype=None): a C-ordered array view of the memory a CPointer points at.",
    "farray": "farray(ptr, shape, dtype=None): a Fortran-ordered array view of the memory a CPointer points at.",
    "literal_unroll": "for x in literal_unroll(t): the loop over a tuple unrolled, x of each item's own type.",
}
for _n, _d in _FUNCTIONS.items():
    globals()[_n] = Intrinsic(_n, _d)

local = Namespace("local", ["array"])
shared = Namespace("shared", ["array"])
const = Namespace("const", ["array_like"])
atomic = Namespace("atomic", ["add", "sub", "min", "max", "nanmin", "nanmax", "exch", "cas", "compare_and_swap",
                              "and_", "or_", "xor", "inc", "dec"])
# Numba's cuda.fp16: float16 arithmetic, comparisons and math (fp16.py translates them).
FP16_ARITHMETIC = {"hadd": "+", "hsub": "-", "hmul": "*", "hdiv": "/"}
FP16_COMPARISONS = {"heq": "==", "hne": "!=", "hge": ">=", "hgt": ">", "hle": "<=", "hlt": "<"}
FP16_MATH = {"hneg": "-({})", "habs": "fabsf({})", "hsqrt": "sqrtf({})", "hrsqrt": "(1.0f / sqrtf({}))",
             "hrcp": "(1.0f / ({}))", "hexp": "expf({})", "hexp2": "exp2f({})", "hexp10": "powf(10.0f, {})",
             "hlog": "logf({})", "hlog2": "log2f({})", "hlog10": "log10f({})", "hsin": "sinf({})",
             "hcos": "cosf({})", "hfloor": "floorf({})", "hceil": "ceilf({})", "htrunc": "truncf({})",
             "hrint": "rintf({})"}
# Numba's cuda.cg: cooperative groups' grid (cooperative.py translates it).
cg = Namespace("cg", ["this_grid"])
fp16 = Namespace("fp16", list(FP16_ARITHMETIC) + list(FP16_COMPARISONS) + list(FP16_MATH) + ["hfma", "hmax", "hmin"])

ALL = ["threadIdx", "blockIdx", "blockDim", "gridDim", "laneid", "warpsize", "local", "shared", "const",
       "atomic", "fp16", "cg"] + list(_FUNCTIONS)
