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

/// One thread's part in a collective: a warp shuffle, vote, __syncwarp or __activemask, or a
/// counting block barrier (__syncthreads_count/_and/_or). It lives on the calling thread's
/// stack while the thread waits; the executor reads the other lanes' `value`s and writes
/// `result` and `group` before the thread resumes (loom_cuda_emu_warp.h says what each is).
struct Collective {
  enum Kind : int { kShuffle, kVote, kSyncWarp, kActiveMask, kBlockCount, kGridSync, kMatchAny, kMatchAll };
  int kind;
  unsigned int mask;          // warp kinds: the lanes named
  int src;                    // kShuffle: the lane to read (the caller's own when out of its segment)
  unsigned long long value;   // the caller's: a shuffled value's bytes, a predicate (0 or 1)
  unsigned long long result;  // kShuffle: `src`'s value; kVote: the ballot; kActiveMask: the
                              // live lanes; kBlockCount: how many threads had a true predicate;
                              // kMatchAny: the lanes whose value has the caller's bits;
                              // kMatchAll: the lanes when all values are the same, else 0
  unsigned int group;         // warp kinds: the lanes that took part; kBlockCount: how many threads
};

struct ThreadCtx {
  Idx3 thread_idx, block_idx, block_dim, grid_dim;
  char* dynamic_shared;
  void (*barrier)(ThreadCtx* ctx, int line);  // suspends until the block's threads arrive
  // Suspends until the collective's other threads arrive (the warp's lanes in the mask, or
  // the block), then fills in `op`'s result.
  void (*collective)(ThreadCtx* ctx, Collective* op, int line);
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

// Loop fission. A kernel with barriers may come with a whole-block form: a function of the
// kernel's parameters that runs the code between two barriers as one loop over the block's
// threads, each thread's variables in a struct of its own (the Python kernel translator
// writes it: python/loom/pykernel/fission.py). LOOM_EMU_WHOLE_BLOCK(kernel, fn) names it; the
// block entry then calls fn once per block instead of the kernel once per thread, and the
// source scan (emu_source.cpp) runs the kernel as a loop, not as fibers.
template <auto F>
struct WholeBlock {
  static constexpr bool value = false;
};
#define LOOM_EMU_WHOLE_BLOCK(kernel, fn)          \
  namespace loom_emu {                            \
  template <>                                     \
  struct WholeBlock<&::kernel> {                  \
    static constexpr bool value = true;           \
    static constexpr auto run = &::fn;            \
  };                                              \
  }
// The whole-block form's view of the block: its threads, and thread t made the current one
// (threadIdx), x fastest as in the block loop.
inline unsigned int fission_threads() {
  const Idx3 d = loom_emu_current->block_dim;
  return d.x * d.y * d.z;
}
inline void fission_thread(unsigned int t) {
  ThreadCtx* c = loom_emu_current;
  const Idx3 d = c->block_dim;
  c->thread_idx = Idx3{t % d.x, t / d.x % d.y, t / (d.x * d.y)};
}
// One value-initialised L per thread of the block, in storage the worker keeps from block to
// block (a worker runs one block at a time) and for as long as it lives, as the block's
// __shared__ variables. Trivially destructible on purpose: a thread_local with a destructor
// would keep the library loaded until the thread exits (glibc's __cxa_thread_atexit_impl).
template <class L>
inline L* fission_locals(unsigned int n) {
  static thread_local L* p = nullptr;
  static thread_local unsigned int cap = 0;
  if (cap < n) {
    delete[] p;
    p = nullptr;
    cap = 0;
    p = new L[n];
    cap = n;
  }
  for (unsigned int i = 0; i < n; ++i) p[i] = L{};
  return p;
}

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
// The short unsigned names CUDA C sees under nvcc (glibc's sys/types.h; loom_user_prelude.cuh
// gives them to NVRTC): the same typedefs.
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;
#define LOOM_EMU_VEC1(N, T)                                                     \
  struct N {                                                                    \
    T x;                                                                        \
  };                                                                            \
  inline N make_##N(T x) { return N{x}; }
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
  LOOM_EMU_VEC1(P##1, T)                                                        \
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
LOOM_EMU_VEC1(uint1, unsigned int)
LOOM_EMU_VEC2(uint2, unsigned int, 8)
LOOM_EMU_VEC4(uint4, unsigned int, 16)
#undef LOOM_EMU_VECS
#undef LOOM_EMU_VEC1
#undef LOOM_EMU_VEC2
#undef LOOM_EMU_VEC3
#undef LOOM_EMU_VEC4

#include "loom_cuda_emu_math.h"  // loom:inline (cmake/embed_file_run.cmake)

#include "loom_cuda_emu_half.h"  // loom:inline (cmake/embed_file_run.cmake)

#include "loom_cuda_emu_warp.h"  // loom:inline

#include "loom_cuda_emu_cg.h"  // loom:inline

#include "loom_cuda_emu_checks.h"  // loom:inline

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
  if constexpr (WholeBlock<F>::value) {
    WholeBlock<F>::run(std::get<I>(p)...);
    return;
  }
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
