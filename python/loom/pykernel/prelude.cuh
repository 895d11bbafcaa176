// What every kernel translated from Python starts with (python/loom/pykernel): the array
// view its array parameters are passed as, and the helpers that give Python's semantics
// (floor division, modulo, negative indices, integer powers, atomics on every dtype).
// It compiles under NVRTC and under loom's CPU kernel emulator, so it uses only what both
// have. LOOM_EMU_DEBUG (the emulator's debug mode) or LOOM_PK_BOUNDSCHECK (debug=True on
// a GPU) turn on bounds checks that name the Python line.
#ifndef LOOM_PK_PRELUDE
#define LOOM_PK_PRELUDE

// A loom array as a kernel parameter: loom packs an Array into it (strides in elements).
// C: the kernel assumes C-contiguous layout (loom refuses other arrays for it).
template <class T, int N, bool C>
struct LoomArray {
  T* data;
  long long shape[N];
  long long strides[N];
};
// A 0-d array: one element, no shape or strides (loom packs only its pointer).
template <class T, bool C>
struct LoomArray<T, 0, C> {
  T* data;
};

#if defined(LOOM_EMU_DEBUG) || defined(LOOM_PK_BOUNDSCHECK)
#define LOOM_PK_CHECKS 1
#endif

// The axis loom_pk_check reports for a tuple's index (IndexError: "tuple index out of range").
constexpr int kLoomTupleAxis = -2;

#ifdef LOOM_PK_CHECKS
#ifdef __CUDACC_RTC__
__device__ inline long long loom_pk_check(long long i, long long n, int axis, const char* file, int line) {
  if (i < 0 || i >= n) {
    if (axis == kLoomTupleAxis) {
      printf("%s:%d: tuple index out of range (index %lld of %lld items)\n", file, line, i, n);
    } else {
      printf("%s:%d: index %lld is out of bounds for axis %d with size %lld\n", file, line, i, axis, n);
    }
    __trap();
  }
  return i;
}
#else
inline long long loom_pk_check(long long i, long long n, int axis, const char* file, int line) {
  if (i < 0 || i >= n) {
    loom_emu::Msg m;
    if (axis == kLoomTupleAxis) {
      m << file << ":" << line << ": tuple index out of range (index " << static_cast<int>(i) << " of "
        << static_cast<int>(n) << " items)";
    } else {
      m << file << ":" << line << ": index " << static_cast<int>(i) << " is out of bounds for axis " << axis
        << " with size " << static_cast<int>(n);
    }
    LOOM_EMU_THROW_RANGE(m.text);
  }
  return i;
}
#endif
#define LOOM_PK_IDX(i, n, axis) loom_pk_check((i), (n), (axis), __FILE__, __LINE__)
#define LOOM_PK_ASSERT(c, text) loom_pk_check((c) ? 0 : -1, 1, -1, text, __LINE__)
#else
#define LOOM_PK_IDX(i, n, axis) (i)
#define LOOM_PK_ASSERT(c, text) ((void)0)
#endif

// Python's negative indices count from the end.
template <class I>
__device__ __forceinline__ long long loom_wrap(I i, long long n) {
  return i < 0 ? static_cast<long long>(i) + n : static_cast<long long>(i);
}

// A slice of an axis of extent n, as Python's slice.indices: its first index and its length.
// `has_start`/`has_stop` false for an omitted bound; step is not 0 (the translator checks a
// constant step).
__device__ __forceinline__ void loom_slice(long long n, bool has_start, long long start, bool has_stop,
                                           long long stop, long long step, long long* first, long long* len) {
  if (step > 0) {
    const long long lo = !has_start ? 0 : start < 0 ? (start + n < 0 ? 0 : start + n) : (start < n ? start : n);
    const long long hi = !has_stop ? n : stop < 0 ? (stop + n < 0 ? 0 : stop + n) : (stop < n ? stop : n);
    *first = lo;
    *len = hi > lo ? (hi - lo + step - 1) / step : 0;
  } else {
    const long long lo = !has_start ? n - 1 : start < 0 ? (start + n < -1 ? -1 : start + n) : (start < n - 1 ? start : n - 1);
    const long long hi = !has_stop ? -1 : stop < 0 ? (stop + n < -1 ? -1 : stop + n) : (stop < n - 1 ? stop : n - 1);
    *first = lo;
    *len = lo > hi ? (lo - hi - step - 1) / -step : 0;
  }
}

// Python's // and % on integers round toward minus infinity; C's toward zero. (On floats
// they are loom_math.cuh's floor_divide and remainder: translate_expr.py.)
template <class T>
__device__ __forceinline__ T loom_floordiv(T a, T b) {
  T q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) q -= 1;
  return q;
}
template <class T>
__device__ __forceinline__ T loom_mod(T a, T b) {
  T r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}
// An integer to an integer power (a negative exponent gives 0, as Numba's CUDA target).
template <class T>
__device__ __forceinline__ T loom_ipow(T base, long long e) {
  if (e < 0) return (base == 1) ? T(1) : (base == T(-1) ? ((e & 1) ? T(-1) : T(1)) : T(0));
  T r = 1;
  while (e) {
    if (e & 1) r *= base;
    base *= base;
    e >>= 1;
  }
  return r;
}

template <class T>
__device__ __forceinline__ T loom_sq(T x) { return x * x; }

// Python's round(): half to even.
__device__ __forceinline__ long long loom_round(double x) { return static_cast<long long>(rint(x)); }
__device__ __forceinline__ long long loom_round(float x) { return static_cast<long long>(rintf(x)); }

// ---------------------------------------------------------------- atomics
// CUDA has each atomic for some types only; these give Numba's set on both targets.
// 64-bit signed integers go through their unsigned bits (two's complement add is the same).
__device__ __forceinline__ long long loom_atomic_add(long long* p, long long v) {
  return static_cast<long long>(atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v)));
}
__device__ __forceinline__ long long loom_atomic_sub(long long* p, long long v) {
  return static_cast<long long>(atomicAdd(reinterpret_cast<unsigned long long*>(p), 0ull - static_cast<unsigned long long>(v)));
}
__device__ __forceinline__ unsigned long long loom_atomic_sub(unsigned long long* p, unsigned long long v) {
  return atomicAdd(p, 0ull - v);
}
__device__ __forceinline__ float loom_atomic_sub(float* p, float v) { return atomicAdd(p, -v); }
__device__ __forceinline__ double loom_atomic_sub(double* p, double v) { return atomicAdd(p, -v); }
template <class T>
__device__ __forceinline__ T loom_atomic_add(T* p, T v) { return atomicAdd(p, v); }
template <class T>
__device__ __forceinline__ T loom_atomic_sub(T* p, T v) { return atomicSub(p, v); }

// Floating min/max by compare-and-swap on the bits, with Numba's NaN rules: max/min keep a
// stored NaN and ignore a NaN value (v replaces the stored value only when strictly better);
// nanmax/nanmin treat NaN as missing on either side (fmax/fmin).
__device__ __forceinline__ float loom_atomic_minmax(float* p, float v, bool is_max, bool nan_missing) {
  unsigned int* q = reinterpret_cast<unsigned int*>(p);
  unsigned int old = *q, assumed;
  do {
    assumed = old;
    const float cur = __int_as_float(static_cast<int>(assumed));
    const float next = nan_missing ? (is_max ? fmaxf(cur, v) : fminf(cur, v))
                                   : ((is_max ? v > cur : v < cur) ? v : cur);
    const unsigned int bits = static_cast<unsigned int>(__float_as_int(next));
    if (bits == assumed) break;
    old = atomicCAS(q, assumed, bits);
  } while (assumed != old);
  return __int_as_float(static_cast<int>(old));
}
__device__ __forceinline__ double loom_atomic_minmax(double* p, double v, bool is_max, bool nan_missing) {
  unsigned long long* q = reinterpret_cast<unsigned long long*>(p);
  unsigned long long old = *q, assumed;
  do {
    assumed = old;
    const double cur = __longlong_as_double(static_cast<long long>(assumed));
    const double next = nan_missing ? (is_max ? fmax(cur, v) : fmin(cur, v))
                                    : ((is_max ? v > cur : v < cur) ? v : cur);
    const unsigned long long bits = static_cast<unsigned long long>(__double_as_longlong(next));
    if (bits == assumed) break;
    old = atomicCAS(q, assumed, bits);
  } while (assumed != old);
  return __longlong_as_double(static_cast<long long>(old));
}
__device__ __forceinline__ float loom_atomic_max(float* p, float v) { return loom_atomic_minmax(p, v, true, false); }
__device__ __forceinline__ float loom_atomic_min(float* p, float v) { return loom_atomic_minmax(p, v, false, false); }
__device__ __forceinline__ double loom_atomic_max(double* p, double v) { return loom_atomic_minmax(p, v, true, false); }
__device__ __forceinline__ double loom_atomic_min(double* p, double v) { return loom_atomic_minmax(p, v, false, false); }
__device__ __forceinline__ float loom_atomic_nanmax(float* p, float v) { return loom_atomic_minmax(p, v, true, true); }
__device__ __forceinline__ float loom_atomic_nanmin(float* p, float v) { return loom_atomic_minmax(p, v, false, true); }
__device__ __forceinline__ double loom_atomic_nanmax(double* p, double v) { return loom_atomic_minmax(p, v, true, true); }
__device__ __forceinline__ double loom_atomic_nanmin(double* p, double v) { return loom_atomic_minmax(p, v, false, true); }
template <class T>
__device__ __forceinline__ T loom_atomic_nanmax(T* p, T v) { return atomicMax(p, v); }
template <class T>
__device__ __forceinline__ T loom_atomic_nanmin(T* p, T v) { return atomicMin(p, v); }
template <class T>
__device__ __forceinline__ T loom_atomic_max(T* p, T v) { return atomicMax(p, v); }
template <class T>
__device__ __forceinline__ T loom_atomic_min(T* p, T v) { return atomicMin(p, v); }

template <class T>
__device__ __forceinline__ T loom_atomic_exch(T* p, T v) { return atomicExch(p, v); }
__device__ __forceinline__ long long loom_atomic_exch(long long* p, long long v) {
  return static_cast<long long>(atomicExch(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v)));
}
__device__ __forceinline__ double loom_atomic_exch(double* p, double v) {
  return __longlong_as_double(static_cast<long long>(
      atomicExch(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(__double_as_longlong(v)))));
}
template <class T>
__device__ __forceinline__ T loom_atomic_cas(T* p, T cmp, T v) { return atomicCAS(p, cmp, v); }
__device__ __forceinline__ long long loom_atomic_cas(long long* p, long long cmp, long long v) {
  return static_cast<long long>(atomicCAS(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(cmp),
                                          static_cast<unsigned long long>(v)));
}
template <class T>
__device__ __forceinline__ T loom_atomic_and(T* p, T v) { return atomicAnd(p, v); }
template <class T>
__device__ __forceinline__ T loom_atomic_or(T* p, T v) { return atomicOr(p, v); }
template <class T>
__device__ __forceinline__ T loom_atomic_xor(T* p, T v) { return atomicXor(p, v); }
#define LOOM_PK_ATOMIC_BITS64(NAME, CALL)                                                     \
  __device__ __forceinline__ long long NAME(long long* p, long long v) {                      \
    return static_cast<long long>(CALL(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v))); \
  }
LOOM_PK_ATOMIC_BITS64(loom_atomic_and, atomicAnd)
LOOM_PK_ATOMIC_BITS64(loom_atomic_or, atomicOr)
LOOM_PK_ATOMIC_BITS64(loom_atomic_xor, atomicXor)
#undef LOOM_PK_ATOMIC_BITS64
// inc/dec with CUDA's wrap-around rule, for 32- and 64-bit unsigned counters.
__device__ __forceinline__ unsigned int loom_atomic_inc(unsigned int* p, unsigned int v) { return atomicInc(p, v); }
__device__ __forceinline__ unsigned int loom_atomic_dec(unsigned int* p, unsigned int v) { return atomicDec(p, v); }
__device__ __forceinline__ unsigned long long loom_atomic_inc(unsigned long long* p, unsigned long long v) {
  unsigned long long old = *p, assumed;
  do {
    assumed = old;
    old = atomicCAS(p, assumed, assumed >= v ? 0ull : assumed + 1);
  } while (assumed != old);
  return old;
}
__device__ __forceinline__ unsigned long long loom_atomic_dec(unsigned long long* p, unsigned long long v) {
  unsigned long long old = *p, assumed;
  do {
    assumed = old;
    old = atomicCAS(p, assumed, (assumed == 0 || assumed > v) ? v : assumed - 1);
  } while (assumed != old);
  return old;
}

// A value at an address its type's alignment may not divide (a complex field of a record:
// NumPy aligns complex64 to 4 bytes, loom_complex64 needs 8): byte copies, which the
// compilers turn into the widest loads the address allows.
template <class T>
__device__ __forceinline__ T loom_load_unaligned(const unsigned char* p) {
  T v;
  memcpy(&v, p, sizeof(T));
  return v;
}
template <class T>
__device__ __forceinline__ void loom_store_unaligned(unsigned char* p, T v) {
  memcpy(p, &v, sizeof(T));
}

#endif  // LOOM_PK_PRELUDE
