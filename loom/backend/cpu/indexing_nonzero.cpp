// CPU nonzero: a parallel count per chunk and a prefix sum over the chunks (nonzero_starts,
// also count_nonzero's eval), then each chunk writes the indices of its nonzero elements
// from its own starting position (nonzero).
#include <cstring>
#include <vector>

#include "loom/core/cast.h"
#include "loom/backend/indexing.h"
#include "loom/runtime/cpu/thread_pool.h"

namespace loom::cpu_backend {
namespace {

constexpr int64_t kChunk = 1 << 16;

// -0.0 is zero and NaN is not, as in NumPy.
template <class T>
bool is_nonzero(T v) {
  if constexpr (is_f16<T>) return (v.bits & 0x7fff) != 0;
  else return v != T(0);
}

template <class T>
int64_t count_range(const T* x, int64_t begin, int64_t end) {
  int64_t c = 0;
  for (int64_t i = begin; i < end; ++i) c += is_nonzero(x[i]) ? 1 : 0;
  return c;
}

}  // namespace

Array nonzero_starts(const Array& a) {
  const int64_t n = a.size();
  const int64_t chunks = (n + kChunk - 1) / kChunk;
  Array out = Array::allocate({chunks + 1}, int64, loom::cpu());
  int64_t* start = static_cast<int64_t*>(out.data());
  start[0] = 0;
  dispatch_dtype(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* x = static_cast<const T*>(a.data());
    cpu_runtime::parallel_for(chunks, 1, [&](int64_t c0, int64_t c1) {
      for (int64_t c = c0; c < c1; ++c) start[c + 1] = count_range(x, c * kChunk, std::min(n, (c + 1) * kChunk));
    });
  });
  for (int64_t c = 0; c < chunks; ++c) start[c + 1] += start[c];
  return out;
}

void nonzero(const Array& a, const Array& starts, const Array& out) {
  const int64_t n = a.size();
  const int nd = a.ndim();
  const int64_t total = out.shape()[1];
  if (out.size() == 0) return;
  const int64_t chunks = (n + kChunk - 1) / kChunk;
  const int64_t* start = static_cast<const int64_t*>(starts.data());
  dispatch_dtype(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* x = static_cast<const T*>(a.data());
    int64_t* o = static_cast<int64_t*>(out.data());
    const Shape& shape = a.shape();
    cpu_runtime::parallel_for(chunks, 1, [&](int64_t c0, int64_t c1) {
      for (int64_t c = c0; c < c1; ++c) {
        int64_t pos = start[c];
        for (int64_t i = c * kChunk, end = std::min(n, (c + 1) * kChunk); i < end; ++i) {
          if (!is_nonzero(x[i])) continue;
          if (nd == 1) {
            o[pos++] = i;
            continue;
          }
          int64_t r = i;
          for (int d = nd - 1; d >= 0; --d) {
            o[d * total + pos] = r % shape[d];
            r /= shape[d];
          }
          ++pos;
        }
      }
    });
  });
}

}  // namespace loom::cpu_backend
