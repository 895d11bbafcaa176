// CPU gathers and scatters over strided views (backend/index_plan.h). Gathers split the
// result over the thread pool; scatters run in order so that the last write wins and
// repeated indices accumulate without atomics.
#include "loom/backend/cpu/indexing.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "loom/backend/cpu/cast.h"
#include "loom/backend/cpu/thread_pool.h"

namespace loom::cpu_backend {
namespace {

constexpr int64_t kParallelMin = 32768;

// Calls f(o, src_byte_offset, b) for each position o in [begin, end) of the walk.
template <class F>
void walk(const IndexLayout& l, int64_t begin, int64_t end, F&& f) {
  const int nd = static_cast<int>(l.shape.size());
  if (nd == 0) {
    if (begin < end) f(int64_t{0}, int64_t{0}, int64_t{0});
    return;
  }
  const int64_t inner = l.shape[nd - 1], ss = l.src_strides[nd - 1], bs = l.b_strides[nd - 1];
  int64_t o = begin;
  while (o < end) {
    int64_t r = o, src = 0, b = 0;
    for (int d = nd - 1; d >= 0; --d) {
      const int64_t c = r % l.shape[d];
      r /= l.shape[d];
      src += c * l.src_strides[d];
      b += c * l.b_strides[d];
    }
    const int64_t ci = o % inner;  // the run continues to the end of the innermost row
    const int64_t run = std::min(inner - ci, end - o);
    for (int64_t i = 0; i < run; ++i) f(o + i, src + i * ss, b + i * bs);
    o += run;
  }
}

template <class U>
void gather_typed(const char* src, const int64_t* off, const IndexLayout& l, U* out, int64_t n) {
  auto body = [&](int64_t begin, int64_t end) {
    walk(l, begin, end, [&](int64_t o, int64_t s, int64_t b) {
      std::memcpy(out + o, src + off[b] + s, sizeof(U));
    });
  };
  if (n >= kParallelMin) parallel_for(n, kParallelMin / 2, body);
  else body(0, n);
}

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
        if constexpr (std::is_floating_point_v<T>) {
          if (a != a) return a;
          if (b != b) return b;
        }
        return b < a ? b : a;
      case ScatterMode::max:
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

Array index_offsets(const IndexArrays& ix, int64_t n, IndexCheck& check) {
  Array out = Array::allocate({n}, int64, loom::cpu());
  int64_t* off = static_cast<int64_t*>(out.data());
  std::fill(off, off + n, 0);
  for (size_t j = 0; j < ix.indices.size(); ++j) {
    const int64_t* idx = static_cast<const int64_t*>(ix.indices[j].data());
    const int64_t size = ix.dim_sizes[j], stride = ix.byte_strides[j];
    for (int64_t b = 0; b < n; ++b) {
      const int64_t v = idx[b] < 0 ? idx[b] + size : idx[b];
      if (v < 0 || v >= size) {
        check.which = static_cast<int>(j);
        check.value = idx[b];
        return out;
      }
      off[b] += v * stride;
    }
  }
  return out;
}

void gather(const Array& src, const Array& offsets, const IndexLayout& l, const Array& out) {
  const char* s = static_cast<const char*>(src.data());
  const int64_t* off = static_cast<const int64_t*>(offsets.data());
  const int64_t n = out.size();
  switch (out.itemsize()) {
    case 1: gather_typed(s, off, l, static_cast<uint8_t*>(out.data()), n); break;
    case 2: gather_typed(s, off, l, static_cast<uint16_t*>(out.data()), n); break;
    case 4: gather_typed(s, off, l, static_cast<uint32_t*>(out.data()), n); break;
    default: gather_typed(s, off, l, static_cast<uint64_t*>(out.data()), n); break;
  }
}

void scatter(const Array& dst, const Array& offsets, const IndexLayout& l, const Array& values,
             ScatterMode mode) {
  char* d = static_cast<char*>(dst.data());
  const int64_t* off = offsets.valid() ? static_cast<const int64_t*>(offsets.data()) : nullptr;
  dispatch_dtype(dst.dtype(), [&](auto tag) {
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
