// CPU gathers and scatters over strided views (backend/indexing_plan.h). Gathers split the
// result over the thread pool; scatters run in order so that the last write wins and
// repeated indices accumulate without atomics.
#include "loom/backend/indexing.h"

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstring>
#include <type_traits>

#include "loom/common/loom_complex.cuh"  // scatter of complex elements
#include "loom/core/cast.h"
#include "loom/runtime/cpu/thread_pool.h"

namespace loom::cpu_backend {
namespace {

constexpr int64_t kParallelMin = 32768;

// Calls row(o, src_byte_offset, b, run) for each run of positions [o, o + run) in [begin,
// end) that lie on one innermost row of the walk; along it src advances by the innermost
// src stride and b by the innermost b stride.
template <class F>
void walk_rows(const IndexLayout& l, int64_t begin, int64_t end, F&& row) {
  const int nd = static_cast<int>(l.shape.size());
  if (nd == 0) {
    if (begin < end) row(int64_t{0}, int64_t{0}, int64_t{0}, int64_t{1});
    return;
  }
  const int64_t inner = l.shape[nd - 1];
  int64_t o = begin;
  while (o < end) {
    int64_t r = o, src = 0, b = 0;
    for (int d = nd - 1; d >= 0; --d) {
      const int64_t c = r % l.shape[d];
      r /= l.shape[d];
      src += c * l.src_strides[d];
      b += c * l.b_strides[d];
    }
    const int64_t run = std::min(inner - o % inner, end - o);  // to the end of the row
    row(o, src, b, run);
    o += run;
  }
}

// Calls f(o, src_byte_offset, b) for each position o in [begin, end) of the walk.
template <class F>
void walk(const IndexLayout& l, int64_t begin, int64_t end, F&& f) {
  if (l.shape.empty()) return walk_rows(l, begin, end, [&](int64_t, int64_t, int64_t, int64_t) { f(0, 0, 0); });
  const int64_t ss = l.src_strides.back(), bs = l.b_strides.back();
  walk_rows(l, begin, end, [&](int64_t o, int64_t src, int64_t b, int64_t run) {
    for (int64_t i = 0; i < run; ++i) f(o + i, src + i * ss, b + i * bs);
  });
}

template <class U>
void gather_typed(const char* src, const int64_t* off, const IndexLayout& l, U* out, int64_t n) {
  const int64_t ss = l.shape.empty() ? 0 : l.src_strides.back();
  const int64_t bs = l.shape.empty() ? 0 : l.b_strides.back();
  auto body = [&](int64_t begin, int64_t end) {
    walk_rows(l, begin, end, [&](int64_t o, int64_t s, int64_t b, int64_t run) {
      if (bs == 0) {  // a row of the indexed view: one base, plain strided copy
        const char* p = src + off[b] + s;
        if (ss == static_cast<int64_t>(sizeof(U))) {
          std::memcpy(out + o, p, static_cast<size_t>(run) * sizeof(U));
        } else {
          for (int64_t i = 0; i < run; ++i) std::memcpy(out + o + i, p + i * ss, sizeof(U));
        }
      } else {  // along the index dimension (bs == 1, ss == 0)
        const char* p = src + s;
        for (int64_t i = 0; i < run; ++i) std::memcpy(out + o + i, p + off[b + i], sizeof(U));
      }
    });
  };
  if (n >= kParallelMin) cpu_runtime::parallel_for(n, kParallelMin / 2, body);
  else body(0, n);
}

template <class T>
constexpr bool is_complex_v = std::is_same_v<T, complex64_t> || std::is_same_v<T, complex128_t>;

template <class T>
T combine(ScatterMode m, T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return (m == ScatterMode::add || m == ScatterMode::max) ? (a || b) : (a && b);
  } else if constexpr (is_f16<T>) {
    return cast<T>(combine<float>(m, f16_to_float(a), f16_to_float(b)));
  } else {
    switch (m) {
      case ScatterMode::add:
        if constexpr (std::is_integral_v<T>) return static_cast<T>(uint64_t(a) + uint64_t(b));
        else return a + b;
      case ScatterMode::multiply:
        if constexpr (std::is_integral_v<T>) return static_cast<T>(uint64_t(a) * uint64_t(b));
        else return a * b;
      case ScatterMode::min:
        // Complex: np.minimum's lexicographic order (loom_complex.cuh), a NaN part winning.
        if constexpr (is_complex_v<T>) return (a <= b || a != a) ? a : b;
        if constexpr (std::is_floating_point_v<T>) {
          if (a != a) return a;
          if (b != b) return b;
        }
        return b < a ? b : a;
      case ScatterMode::max:
        if constexpr (is_complex_v<T>) return (a >= b || a != a) ? a : b;
        if constexpr (std::is_floating_point_v<T>) {
          if (a != a) return a;
          if (b != b) return b;
        }
        return b > a ? b : a;
      default: return b;
    }
  }
}

}  // namespace

void index_offsets(const IndexArrays& ix, const Array& out) {
  const int64_t n = out.size() - 1;
  int64_t* off = static_cast<int64_t*>(out.data());
  const int k = static_cast<int>(ix.indices.size());
  // Each chunk notes its first bad position (j * n + b); the smallest one is reported.
  std::atomic<int64_t> first_bad{INT64_MAX};
  auto body = [&](int64_t begin, int64_t end) {
    for (int64_t b = begin; b < end; ++b) off[b] = 0;
    for (int j = 0; j < k; ++j) {
      const int64_t* idx = static_cast<const int64_t*>(ix.indices[j].data());
      const int64_t size = ix.dim_sizes[j], stride = ix.byte_strides[j];
      for (int64_t b = begin; b < end; ++b) {
        int64_t v = idx[b] < 0 ? idx[b] + size : idx[b];
        if (v < 0 || v >= size) {  // clamped, as the GPU kernel does (loom_indexing.cuh)
          int64_t key = j * n + b, cur = first_bad.load();
          while (key < cur && !first_bad.compare_exchange_weak(cur, key)) {
          }
          v = v < 0 ? 0 : size - 1;
        }
        off[b] += v * stride;
      }
    }
  };
  if (n >= kParallelMin) cpu_runtime::parallel_for(n, kParallelMin / 2, body);
  else body(0, n);
  const int64_t bad = first_bad.load();
  off[n] = bad == INT64_MAX ? -1 : bad;
}

void gather(const Array& src, const Array& offsets, const IndexLayout& l, const Array& out) {
  const char* s = static_cast<const char*>(src.data());
  const int64_t* off = static_cast<const int64_t*>(offsets.data());
  const int64_t n = out.size();
  switch (out.itemsize()) {
    case 1: gather_typed(s, off, l, static_cast<uint8_t*>(out.data()), n); break;
    case 2: gather_typed(s, off, l, static_cast<uint16_t*>(out.data()), n); break;
    case 4: gather_typed(s, off, l, static_cast<uint32_t*>(out.data()), n); break;
    case 8: gather_typed(s, off, l, static_cast<uint64_t*>(out.data()), n); break;
    default: gather_typed(s, off, l, static_cast<complex128_t*>(out.data()), n); break;  // 16 bytes
  }
}

// The offsets, then the gather: on the CPU the split costs no wait, only the offsets' memory.
void gather_indexed(const Array& src, const IndexArrays& ix, const Array& out, const Array& bad) {
  const int64_t n = out.size();
  const Array off = Array::allocate({n + 1}, DType::int64, out.device());
  index_offsets(ix, off);
  gather(src, off, IndexLayout{{n}, {0}, {1}}, out);
  static_cast<int64_t*>(bad.data())[0] = static_cast<const int64_t*>(off.data())[n];
}

void scatter(const Array& dst, const Array& offsets, const IndexLayout& l, const Array& values,
             ScatterMode mode) {
  char* d = static_cast<char*>(dst.data());
  const int64_t* off = offsets.valid() ? static_cast<const int64_t*>(offsets.data()) : nullptr;
  dispatch_any_dtype(dst.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* v = static_cast<const T*>(values.data());
    walk(l, 0, values.size(), [&](int64_t o, int64_t s, int64_t b) {
      char* p = d + (off ? off[b] : 0) + s;
      T cur;
      std::memcpy(&cur, p, sizeof(T));
      const T next = mode == ScatterMode::set ? v[o] : combine<T>(mode, cur, v[o]);
      std::memcpy(p, &next, sizeof(T));
    });
  });
}

}  // namespace loom::cpu_backend
