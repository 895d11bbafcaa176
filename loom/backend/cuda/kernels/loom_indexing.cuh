// Advanced indexing on the GPU (backend/indexing_plan.h): the bounds check that turns index
// arrays into byte offsets, the dtype-agnostic gather and scatter (T: an unsigned integer
// of the element's size), and the scatter-combine of x.at[...].add/multiply/min/max (T: the
// element type), with native atomics where they exist and CAS loops elsewhere.
#pragma once
#include "loom_cast.cuh"

// Mirrors IndexArgs of backend/cuda/indexing.cpp.
struct loom_index_args {
  int k;
  long long size[LOOM_MAX_DIMS];
  long long stride[LOOM_MAX_DIMS];
  const long long* idx[LOOM_MAX_DIMS];
};

// Mirrors IndexLayout of backend/indexing_plan.h (dims collapsed; B is one dimension).
struct loom_index_layout {
  int ndim;
  long long shape[LOOM_MAX_DIMS];
  long long src_strides[LOOM_MAX_DIMS];
  long long b_strides[LOOM_MAX_DIMS];
};

#define LOOM_GRID_STRIDE(i, n)                                                                   \
  for (unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x; \
       i < static_cast<unsigned long long>(n); i += static_cast<unsigned long long>(gridDim.x) * blockDim.x)

// sum_j wrap(idx_j[b]) * stride_j. An out-of-bounds index is clamped to the axis (as JAX's
// gathers do: what a traced function, which cannot raise, gets) and records min(j * n + b)
// in *bad (initialised to ~0) for the host to raise.
LOOM_DEV long long loom_index_offset(const loom_index_args& args, unsigned long long b, long long n,
                                     unsigned long long* __restrict__ bad) {
  long long off = 0;
#pragma unroll 1
  for (int j = 0; j < args.k; ++j) {
    long long v = args.idx[j][b];
    const long long size = args.size[j];
    if (v < 0) v += size;
    if (v < 0 || v >= size) {
      atomicMin(bad, static_cast<unsigned long long>(j) * static_cast<unsigned long long>(n) + b);
      v = v < 0 ? 0 : size - 1;
    }
    off += v * args.stride[j];
  }
  return off;
}

__global__ void loom_index_offsets(const loom_index_args args, long long n, long long* __restrict__ offsets,
                                   unsigned long long* __restrict__ bad) {
#pragma unroll 1
  LOOM_GRID_STRIDE(b, n) offsets[b] = loom_index_offset(args, b, n, bad);
}

// The gather of a result that is the index shape alone (take, x[i, j], take_along_axis):
// each element's offset computed and read in one pass, with no offsets array in between.
template <typename T>
__global__ void loom_index_gather_direct(const char* __restrict__ src, const loom_index_args args,
                                         T* __restrict__ out, long long n, unsigned long long* __restrict__ bad) {
#pragma unroll 1
  LOOM_GRID_STRIDE(b, n) out[b] = *reinterpret_cast<const T*>(src + loom_index_offset(args, b, n, bad));
}

// Position o of the walk -> byte offset in the indexed view (without offsets[b]) and b.
LOOM_DEV void loom_index_walk(unsigned long long o, const loom_index_layout& l, long long& src, long long& b) {
  src = 0;
  b = 0;
#pragma unroll 1
  for (int d = l.ndim - 1; d >= 0; --d) {
    const unsigned long long extent = static_cast<unsigned long long>(l.shape[d]);
    const unsigned long long q = o / extent;
    const long long c = static_cast<long long>(o - q * extent);
    src += c * l.src_strides[d];
    b += c * l.b_strides[d];
    o = q;
  }
}

template <typename T>
__global__ void loom_index_gather(const char* __restrict__ src, const long long* __restrict__ offsets,
                                  T* __restrict__ out, long long n, const loom_index_layout l) {
#pragma unroll 1
  LOOM_GRID_STRIDE(o, n) {
    long long s, b;
    loom_index_walk(o, l, s, b);
    out[o] = *reinterpret_cast<const T*>(src + offsets[b] + s);
  }
}

// offsets may be null (a plain strided view). Repeated positions: unspecified winner.
template <typename T>
__global__ void loom_index_scatter(char* __restrict__ dst, const long long* __restrict__ offsets,
                                   const T* __restrict__ values, long long n, const loom_index_layout l) {
#pragma unroll 1
  LOOM_GRID_STRIDE(o, n) {
    long long s, b;
    loom_index_walk(o, l, s, b);
    *reinterpret_cast<T*>(dst + (offsets ? offsets[b] : 0) + s) = values[o];
  }
}

// ---- combine: OP 1 add, 2 multiply, 3 min, 4 max (ScatterMode) ----------------------
template <int OP, typename V>
LOOM_DEV V loom_combine_values(V a, V b) {
  if constexpr (loom_same<V, bool>::value) {
    return (OP == 1 || OP == 4) ? (a || b) : (a && b);
  } else if constexpr (OP == 1 || OP == 2) {
    if constexpr (loom_kind<V>::value == loom_int) {  // wrap around, no signed overflow
      const unsigned long long x = static_cast<unsigned long long>(a), y = static_cast<unsigned long long>(b);
      return static_cast<V>(OP == 1 ? x + y : x * y);
    } else {
      return OP == 1 ? a + b : a * b;
    }
  } else if constexpr (loom_kind<V>::value == loom_cplx) {
    // np.minimum/np.maximum: lexicographic (loom_complex.cuh's comparisons), a NaN in either
    // part wins, the first one first.
    if constexpr (OP == 3) return (a <= b || a != a) ? a : b;
    else return (a >= b || a != a) ? a : b;
  } else {
    if constexpr (loom_kind<V>::value == loom_float) {  // NaN wins, as np.minimum/np.maximum
      if (a != a) return a;
      if (b != b) return b;
    }
    if constexpr (OP == 3) return b < a ? b : a;
    else return b > a ? b : a;
  }
}

template <typename T, int OP>
LOOM_DEV T loom_combine_elements(T cur, T val) {
  return loom_cast<T>(loom_combine_values<OP>(loom_widen<T>(cur), loom_widen<T>(val)));
}

// The unions have a constructor of their own: an element type with one (loom_complex) would
// otherwise delete theirs.
template <typename U, typename T>
LOOM_DEV U loom_to_bits(T t) {
  union Bits {
    T t;
    U u;
    LOOM_DEV Bits() : u(0) {}
  } c;
  c.t = t;
  return c.u;
}
template <typename T, typename U>
LOOM_DEV T loom_from_bits(U u) {
  union Bits {
    U u;
    T t;
    LOOM_DEV Bits() : u(0) {}
  } c;
  c.u = u;
  return c.t;
}
template <int N> struct loom_uint_of;
template <> struct loom_uint_of<1> { typedef unsigned char type; };
template <> struct loom_uint_of<2> { typedef unsigned short type; };
template <> struct loom_uint_of<4> { typedef unsigned int type; };
template <> struct loom_uint_of<8> { typedef unsigned long long type; };

// A compare-and-swap loop on the element's own word (4 and 8 bytes), or on the aligned
// 32-bit word that holds it (1 and 2 bytes). That word stays inside the allocation: loom's
// allocator (and PyTorch's, for imported memory) rounds every block to 512 bytes.
template <typename T, int OP>
LOOM_DEV void loom_atomic_cas(T* p, T val) {
  typedef typename loom_uint_of<sizeof(T)>::type U;
  if constexpr (sizeof(T) >= 4) {
    U* w = reinterpret_cast<U*>(p);
    U old = *w, assumed;
    do {
      assumed = old;
      const U next = loom_to_bits<U>(loom_combine_elements<T, OP>(loom_from_bits<T>(assumed), val));
      if (next == assumed) return;
      old = atomicCAS(w, assumed, next);
    } while (old != assumed);
  } else {
    const unsigned long long addr = reinterpret_cast<unsigned long long>(p);
    unsigned* w = reinterpret_cast<unsigned*>(addr & ~3ull);
    const unsigned shift = static_cast<unsigned>(addr & 3ull) * 8u;
    const unsigned mask = (sizeof(T) == 1 ? 0xffu : 0xffffu) << shift;
    unsigned old = *w, assumed;
    do {
      assumed = old;
      const T cur = loom_from_bits<T>(static_cast<U>((assumed & mask) >> shift));
      const unsigned bits = static_cast<unsigned>(loom_to_bits<U>(loom_combine_elements<T, OP>(cur, val)));
      const unsigned next = (assumed & ~mask) | ((bits << shift) & mask);
      if (next == assumed) return;
      old = atomicCAS(w, assumed, next);
    } while (old != assumed);
  }
}

template <typename T, int OP>
LOOM_DEV void loom_atomic_combine(T* p, T val) {
  constexpr bool i32 = loom_same<T, int>::value || loom_same<T, unsigned>::value;
  constexpr bool i64 = loom_same<T, long long>::value || loom_same<T, unsigned long long>::value;
  if constexpr (OP == 1 && i32) {
    atomicAdd(reinterpret_cast<unsigned*>(p), static_cast<unsigned>(val));
  } else if constexpr (OP == 1 && i64) {
    atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(val));
  } else if constexpr (OP == 1 && (loom_same<T, float>::value || loom_same<T, double>::value)) {
    atomicAdd(p, val);
  } else if constexpr (OP == 1 && loom_kind<T>::value == loom_cplx) {  // part by part
    atomicAdd(&p->re, val.re);
    atomicAdd(&p->im, val.im);
  } else if constexpr (OP == 3 && (i32 || i64)) {
    atomicMin(p, val);
  } else if constexpr (OP == 4 && (i32 || i64)) {
    atomicMax(p, val);
  } else {
    loom_atomic_cas<T, OP>(p, val);
  }
}

template <typename T, int OP>
__global__ void loom_index_combine(char* __restrict__ dst, const long long* __restrict__ offsets,
                                   const T* __restrict__ values, long long n, const loom_index_layout l) {
#pragma unroll 1
  LOOM_GRID_STRIDE(o, n) {
    long long s, b;
    loom_index_walk(o, l, s, b);
    loom_atomic_combine<T, OP>(reinterpret_cast<T*>(dst + (offsets ? offsets[b] : 0) + s), values[o]);
  }
}

// ---- combine in order: complex128 multiply/min/max, which no compare-and-swap covers (16
// bytes). keys[o] = the byte offset of value o's element, order[o] = o; once sorted by key
// (stable), the values of one element form a run in their own order, which one thread
// folds in sequence, as NumPy's unbuffered ufunc.at does: deterministic, repeats and all.
__global__ void loom_index_targets(const long long* __restrict__ offsets, long long n, const loom_index_layout l,
                                   unsigned long long* __restrict__ keys, unsigned long long* __restrict__ order) {
  LOOM_GRID_STRIDE(o, n) {
    long long s, b;
    loom_index_walk(o, l, s, b);
    keys[o] = static_cast<unsigned long long>((offsets ? offsets[b] : 0) + s);  // a negative one wraps back
    order[o] = o;
  }
}

template <typename T, int OP>
__global__ void loom_index_combine_runs(char* __restrict__ dst, const unsigned long long* __restrict__ keys,
                                        const unsigned long long* __restrict__ order, const T* __restrict__ values,
                                        long long n) {
  LOOM_GRID_STRIDE(i, n) {
    const unsigned long long key = keys[i];
    if (i > 0 && keys[i - 1] == key) continue;  // not the first of its run
    T* p = reinterpret_cast<T*>(dst + static_cast<long long>(key));
    T acc = *p;
    for (unsigned long long j = i; j < static_cast<unsigned long long>(n) && keys[j] == key; ++j)
      acc = loom_combine_elements<T, OP>(acc, values[order[j]]);
    *p = acc;
  }
}
