// The CPU kernel emulator's portability header (DESIGN.md §4): the CUDA C subset that user
// kernels use, for the host C++ compiler. loom embeds this file as a string and writes it
// next to the generated source of each module; the generated .so includes it first.
//
// With LOOM_EMU_ABI_ONLY defined, only the context shared with the executor is declared
// (loom's executor includes it that way: no macros, no CUDA names).
#pragma once
#ifndef LOOM_EMU_ABI_ONLY
// No _FORTIFY_SOURCE wrappers: a kernel's own #include <stdio.h> must redeclare, not
// redefine, the printf below (set by some distributions' compilers by default).
#undef _FORTIFY_SOURCE
#endif

namespace loom_emu {

using size_t = decltype(sizeof 0);

struct Idx3 {
  unsigned int x, y, z;
};

/// What one emulated GPU thread reads: its indices, the launch shape, the block's dynamic
/// shared memory, and how to wait at a barrier. The executor owns it; each fiber keeps a
/// pointer to its own on its stack (see syncthreads).
/// Debug mode: the bytes [lo, hi) a loom array argument spans (from its lowest to past its
/// highest element, strides included). `checked` is 0 for parameters that are not loom
/// arrays (raw pointers, scalars): their accesses are not checked.
struct ArgRange {
  const char* lo;
  const char* hi;
  int arg, checked;
};

/// What a failed bounds check leaves for the executor's message: where in the generated
/// library it failed (mapped to a source line from the library's debug information), the
/// address and size of the access, and the argument.
struct Fault {
  void* pc;
  const char* addr;
  size_t size;
  int arg;
};

struct ThreadCtx {
  Idx3 thread_idx, block_idx, block_dim, grid_dim;
  char* dynamic_shared;
  void (*barrier)(ThreadCtx* ctx, int line);  // suspends until the block's threads arrive
  void* executor;                             // the executor's data for this thread
  const ArgRange* arg_ranges;                 // debug launches: one per parameter; else null
  Fault fault;                                // debug launches: set by a failed bounds check
};

}  // namespace loom_emu

#ifndef LOOM_EMU_ABI_ONLY
// What user code sees is what CUDA device code has and nothing more: a kernel may be named
// div, index or rand, as under NVRTC. So no C library header here (they declare such names
// globally, and <string>, <stdexcept> and <cmath> include them); only C++ headers that
// declare nothing outside namespace std. The C functions CUDA also has (math, printf,
// malloc, memcpy, ...) are declared below one by one, exactly as the C library declares
// them, so a kernel's own #include <math.h> or <cstdio> redeclares them and works.
#include <tuple>
#include <type_traits>
#include <utility>
#if __has_include(<bits/functexcept.h>)
#include <bits/functexcept.h>  // libstdc++: std::__throw_runtime_error without <stdexcept>
#define LOOM_EMU_THROW_RUNTIME(msg) std::__throw_runtime_error(msg)
#define LOOM_EMU_THROW_RANGE(msg) std::__throw_out_of_range(msg)
#else
#include <stdexcept>
#define LOOM_EMU_THROW_RUNTIME(msg) throw std::runtime_error(msg)
#define LOOM_EMU_THROW_RANGE(msg) throw std::out_of_range(msg)
#endif

typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;
#undef NULL
#define NULL __null

// CUDA's C library subset (exception specifications as glibc declares them).
extern "C" {
void* malloc(size_t) noexcept;
void free(void*) noexcept;
void* memcpy(void* __restrict, const void* __restrict, size_t) noexcept;
void* memset(void*, int, size_t) noexcept;
int printf(const char* __restrict, ...);
long clock() noexcept;
}
struct _IO_FILE;  // glibc's FILE (a reserved name)
namespace loom_emu::libc {  // what the header itself needs, invisible to user code
extern "C" {
int vsnprintf(char* __restrict, size_t, const char* __restrict, __builtin_va_list) noexcept;
size_t fwrite(const void* __restrict, size_t, size_t, _IO_FILE* __restrict);
extern _IO_FILE* stdout;
}
}  // namespace loom_emu::libc

// printf formats into a buffer on the thread's stack, then writes it with one call: a fault
// while formatting (printf("%s") of a bad pointer) happens outside stdout's lock, so leaving
// the kernel from it (the executor's fault handling) cannot leave that lock held. A macro,
// so that a kernel's own <stdio.h> declares this function again rather than conflicting
// (and <cstdio>, which #undefs printf, gives it the C library's).
extern "C" inline int loom_emu_printf(const char* __restrict fmt, ...) {
  char local[1024];
  __builtin_va_list ap, again;
  __builtin_va_start(ap, fmt);
  __builtin_va_copy(again, ap);
  int n = loom_emu::libc::vsnprintf(local, sizeof local, fmt, ap);
  __builtin_va_end(ap);
  char* text = local;
  if (n >= static_cast<int>(sizeof local)) {
    text = static_cast<char*>(malloc(static_cast<size_t>(n) + 1));
    n = text ? loom_emu::libc::vsnprintf(text, static_cast<size_t>(n) + 1, fmt, again) : -1;
  }
  __builtin_va_end(again);
  if (n > 0) loom_emu::libc::fwrite(text, 1, static_cast<size_t>(n), loom_emu::libc::stdout);
  if (text != local) free(text);
  return n;
}
#define printf loom_emu_printf

// The running thread's context: a thread_local of the generated library, set by its entry
// points, restored after each barrier (other fibers of the block ran meanwhile).
inline thread_local loom_emu::ThreadCtx* loom_emu_current = nullptr;

#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict
#define __launch_bounds__(...)
#define __align__(n) alignas(n)
// A worker runs one block at a time and all of a block's fibers run on that worker's OS
// thread, so a thread_local is exactly "one copy per running block".
#define __shared__ static thread_local
#define warpSize 32

using uint3 = loom_emu::Idx3;
struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int x_ = 1, unsigned int y_ = 1, unsigned int z_ = 1) : x(x_), y(y_), z(z_) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};
inline uint3 make_uint3(unsigned int x, unsigned int y, unsigned int z) { return uint3{x, y, z}; }

#define threadIdx (loom_emu_current->thread_idx)
#define blockIdx (loom_emu_current->block_idx)
#define blockDim (loom_emu_current->block_dim)
#define gridDim (loom_emu_current->grid_dim)

namespace loom_emu {

template <class... T>
inline constexpr bool always_false = false;

inline void syncthreads(int line) {
  ThreadCtx* self = loom_emu_current;  // on this fiber's stack
  self->barrier(self, line);
  loom_emu_current = self;
}

// Messages without std::string (<string> would bring the C library's names).
struct Msg {
  char text[1024];
  size_t n = 0;
  Msg& operator<<(const char* s) {
    while (*s && n + 1 < sizeof text) text[n++] = *s++;
    text[n] = 0;
    return *this;
  }
  Msg& operator<<(int v) {
    char d[12];
    int k = 0;
    unsigned int u = v < 0 ? 0u - static_cast<unsigned int>(v) : static_cast<unsigned int>(v);
    do d[k++] = static_cast<char>('0' + u % 10); while (u /= 10);
    if (v < 0) d[k++] = '-';
    char r[13];
    for (int i = 0; i < k; ++i) r[i] = d[k - 1 - i];
    r[k] = 0;
    return *this << r;
  }
};

[[noreturn]] inline void trap(int line) {
  Msg m;
  m << "the kernel called __trap() at line " << line << " of the kernel source";
  LOOM_EMU_THROW_RUNTIME(m.text);
}

// A failed assert ends the launch with an error on the host (the executor adds the thread
// and block), where glibc's would abort the process.
[[noreturn]] inline void assert_fail(const char* expr, int line) {
  Msg m;
  m << "device-side assert `" << expr << "` failed at line " << line << " of the kernel source";
  LOOM_EMU_THROW_RUNTIME(m.text);
}

/// `extern __shared__ T name[];` becomes `static constexpr loom_emu::DynamicShared<T> name{};`
/// (a source rewrite): it reads the running block's arena at each use, so it works at
/// namespace scope as well as in a function.
template <class T>
struct DynamicShared {
  operator T*() const { return reinterpret_cast<T*>(loom_emu_current->dynamic_shared); }
  T& operator[](size_t i) const { return static_cast<T*>(*this)[i]; }
  T* operator+(ptrdiff_t i) const { return static_cast<T*>(*this) + i; }
};

inline void* dynamic_shared() { return loom_emu_current->dynamic_shared; }

template <class T, class F>
inline T cas_loop(T* p, F f) {
  T old;
  __atomic_load(p, &old, __ATOMIC_RELAXED);
  T desired = f(old);
  while (!__atomic_compare_exchange(p, &old, &desired, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
    desired = f(old);
  return old;
}

}  // namespace loom_emu

#define __syncthreads() loom_emu::syncthreads(__LINE__)
#define __trap() loom_emu::trap(__LINE__)
// assert without an include, as under NVRTC; the compile folder's assert.h and cassert
// (emu_compile.cpp) define it the same way, honouring NDEBUG at each include like C's.
// (#e in assert itself: through a second macro the text would be macro-expanded.)
#undef assert
#ifdef NDEBUG
#define assert(e) ((void)0)
#else
#define assert(e) (static_cast<bool>(e) ? void(0) : loom_emu::assert_fail(#e, __LINE__))
#endif
inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_block() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_system() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __nanosleep(unsigned int) {}

// ---------------------------------------------------------------- atomics (real ones:
// blocks run in parallel)
#define LOOM_EMU_INT_ATOMICS(T)                                                                     \
  inline T atomicAdd(T* p, T v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }            \
  inline T atomicSub(T* p, T v) { return __atomic_fetch_sub(p, v, __ATOMIC_SEQ_CST); }            \
  inline T atomicExch(T* p, T v) { return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST); }          \
  inline T atomicAnd(T* p, T v) { return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST); }            \
  inline T atomicOr(T* p, T v) { return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST); }              \
  inline T atomicXor(T* p, T v) { return __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST); }            \
  inline T atomicMin(T* p, T v) { return loom_emu::cas_loop(p, [v](T o) { return v < o ? v : o; }); } \
  inline T atomicMax(T* p, T v) { return loom_emu::cas_loop(p, [v](T o) { return v > o ? v : o; }); } \
  inline T atomicCAS(T* p, T cmp, T v) {                                                          \
    __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);           \
    return cmp;                                                                                   \
  }
LOOM_EMU_INT_ATOMICS(int)
LOOM_EMU_INT_ATOMICS(unsigned int)
LOOM_EMU_INT_ATOMICS(unsigned long long)
LOOM_EMU_INT_ATOMICS(long long)
#undef LOOM_EMU_INT_ATOMICS

#define LOOM_EMU_FLOAT_ATOMICS(T)                                                                   \
  inline T atomicAdd(T* p, T v) { return loom_emu::cas_loop(p, [v](T o) { return o + v; }); }     \
  inline T atomicSub(T* p, T v) { return loom_emu::cas_loop(p, [v](T o) { return o - v; }); }     \
  inline T atomicExch(T* p, T v) {                                                                \
    T old;                                                                                        \
    __atomic_exchange(p, &v, &old, __ATOMIC_SEQ_CST);                                             \
    return old;                                                                                   \
  }                                                                                               \
  inline T atomicMin(T* p, T v) { return loom_emu::cas_loop(p, [v](T o) { return __builtin_fmin(o, v); }); } \
  inline T atomicMax(T* p, T v) { return loom_emu::cas_loop(p, [v](T o) { return __builtin_fmax(o, v); }); }
LOOM_EMU_FLOAT_ATOMICS(float)
LOOM_EMU_FLOAT_ATOMICS(double)
#undef LOOM_EMU_FLOAT_ATOMICS

inline unsigned int atomicInc(unsigned int* p, unsigned int limit) {
  return loom_emu::cas_loop(p, [limit](unsigned int o) { return o >= limit ? 0u : o + 1; });
}
inline unsigned int atomicDec(unsigned int* p, unsigned int limit) {
  return loom_emu::cas_loop(p, [limit](unsigned int o) { return (o == 0 || o > limit) ? limit : o - 1; });
}
#define atomicAdd_block atomicAdd
#define atomicAdd_system atomicAdd
#define atomicCAS_block atomicCAS
#define atomicExch_block atomicExch

// ---------------------------------------------------------------- vector types
#define LOOM_EMU_VEC2(N, T, A)                                                  \
  struct alignas(A) N {                                                         \
    T x, y;                                                                     \
  };                                                                            \
  inline N make_##N(T x, T y) { return N{x, y}; }
#define LOOM_EMU_VEC3(N, T)                                                     \
  struct N {                                                                    \
    T x, y, z;                                                                  \
  };                                                                            \
  inline N make_##N(T x, T y, T z) { return N{x, y, z}; }
#define LOOM_EMU_VEC4(N, T, A)                                                  \
  struct alignas(A) N {                                                         \
    T x, y, z, w;                                                               \
  };                                                                            \
  inline N make_##N(T x, T y, T z, T w) { return N{x, y, z, w}; }
#define LOOM_EMU_VECS(P, T)                                                     \
  LOOM_EMU_VEC2(P##2, T, 2 * sizeof(T))                                         \
  LOOM_EMU_VEC3(P##3, T)                                                        \
  LOOM_EMU_VEC4(P##4, T, (4 * sizeof(T) > 16 ? 16 : 4 * sizeof(T)))
LOOM_EMU_VECS(char, signed char)
LOOM_EMU_VECS(uchar, unsigned char)
LOOM_EMU_VECS(short, short)
LOOM_EMU_VECS(ushort, unsigned short)
LOOM_EMU_VECS(int, int)
LOOM_EMU_VECS(float, float)
LOOM_EMU_VECS(long, long)
LOOM_EMU_VECS(ulong, unsigned long)
LOOM_EMU_VECS(longlong, long long)
LOOM_EMU_VECS(ulonglong, unsigned long long)
LOOM_EMU_VECS(double, double)
LOOM_EMU_VEC2(uint2, unsigned int, 8)
LOOM_EMU_VEC4(uint4, unsigned int, 16)
#undef LOOM_EMU_VECS
#undef LOOM_EMU_VEC2
#undef LOOM_EMU_VEC3
#undef LOOM_EMU_VEC4

#include "loom_cuda_emu_math.h"  // loom:inline (cmake/embed_file_run.cmake)

// ---------------------------------------------------------------- half and bfloat16
struct __half {
  unsigned short x;
  __half() = default;
  __half(float f);  // NOLINT: CUDA converts implicitly
  operator float() const;
};
struct __nv_bfloat16 {
  unsigned short x;
  __nv_bfloat16() = default;
  __nv_bfloat16(float f);  // NOLINT
  operator float() const;
};
using half = __half;
using nv_bfloat16 = __nv_bfloat16;

namespace loom_emu {
inline unsigned short float_to_half_bits(float f) {  // round to nearest even
  unsigned int u;
  memcpy(&u, &f, 4);
  const unsigned int sign = (u >> 16) & 0x8000u;
  u &= 0x7FFFFFFFu;
  if (u >= 0x7F800000u) return static_cast<unsigned short>(sign | (u > 0x7F800000u ? 0x7E00u : 0x7C00u));
  if (u >= 0x477FF000u) return static_cast<unsigned short>(sign | 0x7C00u);  // rounds to inf
  if (u < 0x38800000u) {                                                     // subnormal or zero
    if (u < 0x33000000u) return static_cast<unsigned short>(sign);
    const unsigned int e = u >> 23, m = (u & 0x7FFFFFu) | 0x800000u;
    const unsigned int shift = 126 - e;  // 14..24 (plus the 13 mantissa bits dropped)
    unsigned int r = m >> shift;
    const unsigned int rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (r & 1))) ++r;
    return static_cast<unsigned short>(sign | r);
  }
  unsigned int r = u - 0x38000000u;  // rebias exponent 127 -> 15
  const unsigned int rem = r & 0x1FFFu;
  r >>= 13;
  if (rem > 0x1000u || (rem == 0x1000u && (r & 1))) ++r;
  return static_cast<unsigned short>(sign | r);
}
inline float half_bits_to_float(unsigned short h) {
  const unsigned int sign = (h & 0x8000u) << 16, e = (h >> 10) & 0x1Fu, m = h & 0x3FFu;
  unsigned int u;
  if (e == 0x1F) {
    u = sign | 0x7F800000u | (m << 13);
  } else if (e == 0) {
    if (m == 0) {
      u = sign;
    } else {  // subnormal: value m * 2^-24
      const float f = static_cast<float>(m) * 5.9604644775390625e-8f;
      return sign ? -f : f;
    }
  } else {
    u = sign | ((e + 112) << 23) | (m << 13);
  }
  float f;
  memcpy(&f, &u, 4);
  return f;
}
inline unsigned short float_to_bf16_bits(float f) {
  unsigned int u;
  memcpy(&u, &f, 4);
  if ((u & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<unsigned short>((u >> 16) | 0x40u);  // NaN
  u += 0x7FFFu + ((u >> 16) & 1u);
  return static_cast<unsigned short>(u >> 16);
}
inline float bf16_bits_to_float(unsigned short b) {
  const unsigned int u = static_cast<unsigned int>(b) << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}
}  // namespace loom_emu

inline __half::__half(float f) : x(loom_emu::float_to_half_bits(f)) {}
inline __half::operator float() const { return loom_emu::half_bits_to_float(x); }
inline __nv_bfloat16::__nv_bfloat16(float f) : x(loom_emu::float_to_bf16_bits(f)) {}
inline __nv_bfloat16::operator float() const { return loom_emu::bf16_bits_to_float(x); }
inline __half __float2half(float f) { return __half(f); }
inline __half __float2half_rn(float f) { return __half(f); }
inline float __half2float(__half h) { return static_cast<float>(h); }
inline __nv_bfloat16 __float2bfloat16(float f) { return __nv_bfloat16(f); }
inline __nv_bfloat16 __float2bfloat16_rn(float f) { return __nv_bfloat16(f); }
inline float __bfloat162float(__nv_bfloat16 b) { return static_cast<float>(b); }
#define LOOM_EMU_HALF_OPS(H)                                                            \
  inline H operator+(H a, H b) { return H(float(a) + float(b)); }                       \
  inline H operator-(H a, H b) { return H(float(a) - float(b)); }                       \
  inline H operator*(H a, H b) { return H(float(a) * float(b)); }                       \
  inline H operator/(H a, H b) { return H(float(a) / float(b)); }                       \
  inline H operator-(H a) { return H(-float(a)); }                                      \
  inline H& operator+=(H& a, H b) { return a = a + b; }                                 \
  inline H& operator-=(H& a, H b) { return a = a - b; }                                 \
  inline H& operator*=(H& a, H b) { return a = a * b; }                                 \
  inline H& operator/=(H& a, H b) { return a = a / b; }                                 \
  inline bool operator<(H a, H b) { return float(a) < float(b); }                       \
  inline bool operator>(H a, H b) { return float(a) > float(b); }                       \
  inline bool operator<=(H a, H b) { return float(a) <= float(b); }                     \
  inline bool operator>=(H a, H b) { return float(a) >= float(b); }                     \
  inline bool operator==(H a, H b) { return float(a) == float(b); }                     \
  inline bool operator!=(H a, H b) { return float(a) != float(b); }
LOOM_EMU_HALF_OPS(__half)
LOOM_EMU_HALF_OPS(__nv_bfloat16)
#undef LOOM_EMU_HALF_OPS
inline __half __hadd(__half a, __half b) { return a + b; }
inline __half __hmul(__half a, __half b) { return a * b; }
inline __half __hsub(__half a, __half b) { return a - b; }
inline __half __hdiv(__half a, __half b) { return a / b; }
inline __half __hfma(__half a, __half b, __half c) { return __half(fmaf(float(a), float(b), float(c))); }

// 16-bit atomics, as CUDA has them: atomicAdd on __half (sm_70+) and __nv_bfloat16 (sm_80+),
// atomicCAS on unsigned short (sm_70+). Each add rounds to the 16-bit type, as on a GPU.
inline unsigned short atomicCAS(unsigned short* p, unsigned short cmp, unsigned short v) {
  __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  return cmp;
}
inline __half atomicAdd(__half* p, __half v) { return loom_emu::cas_loop(p, [v](__half o) { return o + v; }); }
inline __nv_bfloat16 atomicAdd(__nv_bfloat16* p, __nv_bfloat16 v) {
  return loom_emu::cas_loop(p, [v](__nv_bfloat16 o) { return o + v; });
}

// ---------------------------------------------------------------- not supported
// Each fails to compile when used, naming the feature; loom turns the compiler's log into
// UnsupportedError with the user's line.
#define LOOM_EMU_UNSUPPORTED(name)                                                                  \
  template <class... T>                                                                             \
  inline unsigned int name(T...) {                                                                 \
    static_assert(loom_emu::always_false<T...>, "loom CPU emulator: " #name " is not supported");    \
    return 0;                                                                                       \
  }
LOOM_EMU_UNSUPPORTED(__shfl_sync)
LOOM_EMU_UNSUPPORTED(__shfl_up_sync)
LOOM_EMU_UNSUPPORTED(__shfl_down_sync)
LOOM_EMU_UNSUPPORTED(__shfl_xor_sync)
LOOM_EMU_UNSUPPORTED(__shfl)
LOOM_EMU_UNSUPPORTED(__shfl_up)
LOOM_EMU_UNSUPPORTED(__shfl_down)
LOOM_EMU_UNSUPPORTED(__shfl_xor)
LOOM_EMU_UNSUPPORTED(__ballot_sync)
LOOM_EMU_UNSUPPORTED(__ballot)
LOOM_EMU_UNSUPPORTED(__any_sync)
LOOM_EMU_UNSUPPORTED(__all_sync)
LOOM_EMU_UNSUPPORTED(__any)
LOOM_EMU_UNSUPPORTED(__all)
LOOM_EMU_UNSUPPORTED(__activemask)
LOOM_EMU_UNSUPPORTED(__syncwarp)
LOOM_EMU_UNSUPPORTED(__match_any_sync)
LOOM_EMU_UNSUPPORTED(__match_all_sync)
LOOM_EMU_UNSUPPORTED(__reduce_add_sync)
LOOM_EMU_UNSUPPORTED(__reduce_min_sync)
LOOM_EMU_UNSUPPORTED(__reduce_max_sync)
LOOM_EMU_UNSUPPORTED(__syncthreads_count)
LOOM_EMU_UNSUPPORTED(__syncthreads_and)
LOOM_EMU_UNSUPPORTED(__syncthreads_or)
LOOM_EMU_UNSUPPORTED(tex1Dfetch)
LOOM_EMU_UNSUPPORTED(tex2D)
LOOM_EMU_UNSUPPORTED(clock64)
#undef LOOM_EMU_UNSUPPORTED

// ---------------------------------------------------------------- debug-mode bounds checks
// In debug mode (LOOM_EMULATOR_DEBUG=1 or launch option debug=True) loom compiles a second
// library from the same source in which every pointer parameter of a __global__ function,
// `const float* x`, is declared `loom_emu::Checked<const float> x` instead (a source rewrite,
// emu_debug_source.cpp). A Checked pointer knows the byte range of the loom array it was
// launched with and checks each access made through it: [], *, -> and pointer arithmetic
// keep the range. It converts implicitly to T*, so it can be passed to __device__ helpers
// and stored in plain pointers: accesses made through those are not checked.
namespace loom_emu {

// Out of line, never inlined: its return address is the failing access in the kernel, which
// the executor maps to the kernel's source line (the debug library is built with -g).
[[noreturn]] __attribute__((noinline)) inline void out_of_bounds(const void* addr, size_t size, const ArgRange* r) {
  ThreadCtx* c = loom_emu_current;
  c->fault = Fault{__builtin_return_address(0), static_cast<const char*>(addr), size, r->arg};
  LOOM_EMU_THROW_RANGE("out-of-bounds access");
}

#define LOOM_EMU_ALWAYS_INLINE __attribute__((always_inline)) inline
template <class T>
class Checked {
  template <class I>
  using IfIndex = std::enable_if_t<std::is_integral<I>::value || std::is_enum<I>::value, int>;

 public:
  Checked() = default;
  Checked(T* p, const ArgRange* r) : p_(p), r_(r && r->checked ? r : nullptr) {}
  // A plain pointer assigned to the parameter: its provenance is unknown, so unchecked.
  Checked& operator=(T* p) {
    p_ = p;
    r_ = nullptr;
    return *this;
  }
  LOOM_EMU_ALWAYS_INLINE operator T*() const { return p_; }
  // C-style casts and static_cast to other pointer types, `(const float4*)x`: unchecked from
  // there (the cast result is a plain pointer).
  template <class U>
  LOOM_EMU_ALWAYS_INLINE explicit operator U*() const {
    return (U*)p_;  // NOLINT: whatever cast the user's C-style cast meant
  }
  T* get() const { return p_; }
  // A member template is an exact match, so `a[i]` picks it over the built-in subscript
  // reached through the conversion to T*.
  template <class I, IfIndex<I> = 0>
  LOOM_EMU_ALWAYS_INLINE T& operator[](I i) const { return *at(p_ + i); }
  LOOM_EMU_ALWAYS_INLINE T& operator*() const { return *at(p_); }
  LOOM_EMU_ALWAYS_INLINE T* operator->() const { return at(p_); }
  template <class I, IfIndex<I> = 0>
  LOOM_EMU_ALWAYS_INLINE Checked operator+(I i) const { return Checked(p_ + i, r_, 0); }
  template <class I, IfIndex<I> = 0>
  LOOM_EMU_ALWAYS_INLINE friend Checked operator+(I i, const Checked& c) { return c + i; }
  template <class I, IfIndex<I> = 0>
  LOOM_EMU_ALWAYS_INLINE Checked operator-(I i) const { return Checked(p_ - i, r_, 0); }
  LOOM_EMU_ALWAYS_INLINE ptrdiff_t operator-(const Checked& o) const { return p_ - o.p_; }
  template <class I, IfIndex<I> = 0>
  LOOM_EMU_ALWAYS_INLINE Checked& operator+=(I i) { p_ += i; return *this; }
  template <class I, IfIndex<I> = 0>
  LOOM_EMU_ALWAYS_INLINE Checked& operator-=(I i) { p_ -= i; return *this; }
  LOOM_EMU_ALWAYS_INLINE Checked& operator++() { ++p_; return *this; }
  LOOM_EMU_ALWAYS_INLINE Checked& operator--() { --p_; return *this; }
  LOOM_EMU_ALWAYS_INLINE Checked operator++(int) { Checked c = *this; ++p_; return c; }
  LOOM_EMU_ALWAYS_INLINE Checked operator--(int) { Checked c = *this; --p_; return c; }

 private:
  Checked(T* p, const ArgRange* r, int) : p_(p), r_(r) {}
  LOOM_EMU_ALWAYS_INLINE T* at(T* q) const {
    const char* b = reinterpret_cast<const char*>(q);
    if (r_ && (b < r_->lo || b + sizeof(T) > r_->hi || b + sizeof(T) < b)) out_of_bounds(b, sizeof(T), r_);
    return q;
  }
  T* p_ = nullptr;
  const ArgRange* r_ = nullptr;  // null: not a loom array (or unknown): unchecked
};
#undef LOOM_EMU_ALWAYS_INLINE

// reinterpret_cast and const_cast never call conversion functions: debug mode's source
// rewrite turns them into these, which cast a Checked pointer's plain pointer.
template <class T>
struct IsChecked : std::false_type {};
template <class T>
struct IsChecked<Checked<T>> : std::true_type {};
template <class To, class From>
__attribute__((always_inline)) inline To reinterpret_cast_(From&& f) {
  if constexpr (IsChecked<std::decay_t<From>>::value) return reinterpret_cast<To>(f.get());
  else return reinterpret_cast<To>(std::forward<From>(f));
}
template <class To, class From>
__attribute__((always_inline)) inline To const_cast_(From&& f) {
  if constexpr (IsChecked<std::decay_t<From>>::value) return const_cast<To>(f.get());
  else return const_cast<To>(std::forward<From>(f));
}

template <class T>
inline T __ldg(Checked<T> p) { return *p; }
template <class T>
inline T __ldg(Checked<const T> p) { return *p; }

}  // namespace loom_emu (found by argument-dependent lookup)

// ---------------------------------------------------------------- entry points
#define LOOM_EMU_EXPORT __attribute__((visibility("default")))
// The generated code calls these with the kernel's address as a template argument, so the
// compiler sees the call target and can inline the kernel into the block loop.
namespace loom_emu {
// How a parameter is read from the packed arguments, and its size as the launch checks it.
template <class T>
struct Param {
  static constexpr size_t size = sizeof(T);
  static T load(void* p, ThreadCtx*, size_t) {  // packed arguments are 8-byte aligned: copy, never cast
    alignas(T) unsigned char b[sizeof(T)];
    memcpy(b, p, sizeof(T));
    return *reinterpret_cast<T*>(b);
  }
};
// A checked pointer (debug mode) is passed as a plain pointer and takes the range of the
// array argument at its position.
template <class T>
struct Param<Checked<T>> {
  static constexpr size_t size = sizeof(T*);
  static Checked<T> load(void* p, ThreadCtx* c, size_t i) {
    T* q;
    memcpy(&q, p, sizeof(q));
    return Checked<T>(q, c->arg_ranges ? &c->arg_ranges[i] : nullptr);
  }
};
template <class F>
struct Arity;
template <class... A>
struct Arity<void (*)(A...)> {
  static constexpr size_t n = sizeof...(A);
};
template <auto F, class... A, size_t... I>
inline void block_impl(void (*)(A...), void** a, ThreadCtx* c, std::index_sequence<I...>) {
  std::tuple<std::decay_t<A>...> p(Param<std::decay_t<A>>::load(a[I], c, I)...);
  loom_emu_current = c;
  const Idx3 d = c->block_dim;
  for (unsigned int z = 0; z < d.z; ++z)
    for (unsigned int y = 0; y < d.y; ++y)
      for (unsigned int x = 0; x < d.x; ++x) {
        c->thread_idx = Idx3{x, y, z};
        F(std::get<I>(p)...);
      }
}
template <auto F, class... A, size_t... I>
inline void thread_impl(void (*)(A...), void** a, ThreadCtx* c, std::index_sequence<I...>) {
  loom_emu_current = c;
  F(Param<std::decay_t<A>>::load(a[I], c, I)...);
}
template <class... A>
inline int param_sizes_impl(void (*)(A...), size_t* out, int cap) {
  const size_t s[] = {Param<std::decay_t<A>>::size..., 0};
  for (int i = 0; i < static_cast<int>(sizeof...(A)) && i < cap; ++i) out[i] = s[i];
  return static_cast<int>(sizeof...(A));
}
template <auto F>
void run_block(void** a, ThreadCtx* c) {
  block_impl<F>(F, a, c, std::make_index_sequence<Arity<decltype(F)>::n>{});
}
template <auto F>
void run_thread(void** a, ThreadCtx* c) {
  thread_impl<F>(F, a, c, std::make_index_sequence<Arity<decltype(F)>::n>{});
}
template <auto F>
int param_sizes(size_t* out, int cap) {
  return param_sizes_impl(F, out, cap);
}
// Debug mode: the address of a thread_local of the library. Calling it makes sure the
// calling thread's block of the library's thread-local storage exists (the executor fills
// that block, where `__shared__` variables live, with junk at each block start).
inline void* tls_anchor() { return &loom_emu_current; }
}  // namespace loom_emu

#endif  // LOOM_EMU_ABI_ONLY
