// CPU eval of the shape family: the row gather of repeat with unequal counts.
#include "loom/backend/shape_ops.h"

#include <algorithm>
#include <cstring>

#include "loom/runtime/cpu/thread_pool.h"

namespace loom::cpu_backend {

void take_rows(const Array& src, const Array& indices, const Array& dst, int64_t outer, int64_t n,
               int64_t inner) {
  const int64_t m = indices.size();
  const int64_t* idx = static_cast<const int64_t*>(indices.data());
  const size_t row = static_cast<size_t>(inner) * src.itemsize();
  if (row == 0 || outer * m == 0) return;
  const char* s = static_cast<const char*>(src.data());
  char* d = static_cast<char*>(dst.data());
  // Whole rows are copied; small rows are grouped so each chunk moves ~64 KiB.
  const int64_t grain = std::max<int64_t>(1, static_cast<int64_t>((1 << 16) / row));
  cpu_runtime::parallel_for(outer * m, grain, [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) {
      const int64_t o = r / m, j = r % m;
      std::memcpy(d + r * row, s + (o * n + idx[j]) * row, row);
    }
  });
}

}  // namespace loom::cpu_backend
