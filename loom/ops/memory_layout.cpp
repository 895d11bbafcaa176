// Memory-layout queries and conversions (ops/memory_layout.h).
#include "loom/ops/memory_layout.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "loom/core/shape.h"
#include "loom/ops/shape_ops.h"

namespace loom {
namespace {

// [first byte, one past the last byte) of a's elements, or an empty range for no elements.
std::pair<uintptr_t, uintptr_t> extent(const Array& a) {
  if (a.size() == 0) return {0, 0};
  const auto base = reinterpret_cast<uintptr_t>(a.data());
  int64_t lo = 0, hi = 0;
  for (int d = 0; d < a.ndim(); ++d) {
    const int64_t span = (a.shape()[d] - 1) * a.strides()[d];
    (span < 0 ? lo : hi) += span;
  }
  return {base + lo, base + hi + static_cast<int64_t>(a.itemsize())};
}

// The start address of every element of a, sorted.
std::vector<uintptr_t> element_starts(const Array& a) {
  std::vector<uintptr_t> out{reinterpret_cast<uintptr_t>(a.data())};
  for (int d = 0; d < a.ndim(); ++d) {
    std::vector<uintptr_t> next;
    next.reserve(out.size() * static_cast<size_t>(a.shape()[d]));
    for (uintptr_t p : out)
      for (int64_t i = 0; i < a.shape()[d]; ++i) next.push_back(p + i * a.strides()[d]);
    out = std::move(next);
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool is_f_contiguous(const Array& a) {
  int64_t expect = static_cast<int64_t>(a.itemsize());
  for (int d = 0; d < a.ndim(); ++d) {
    if (a.shape()[d] == 1) continue;
    if (a.strides()[d] != expect) return false;
    expect *= a.shape()[d];
  }
  return true;
}

Array at_least_1d(const Array& a) { return a.ndim() == 0 ? reshape(a, {1}) : a; }

}  // namespace

bool may_share_memory(const Array& a, const Array& b) {
  if (a.device() != b.device()) return false;
  const auto [a0, a1] = extent(a);
  const auto [b0, b1] = extent(b);
  return a0 < a1 && b0 < b1 && a0 < b1 && b0 < a1;
}

bool shares_memory(const Array& a, const Array& b) {
  if (!may_share_memory(a, b)) return false;
  // The smaller array's element starts, sorted; the larger one's elements streamed past them
  // (host memory for the smaller one only).
  const bool a_small = a.size() <= b.size();
  const Array& small = a_small ? a : b;
  const Array& large = a_small ? b : a;
  const std::vector<uintptr_t> starts = element_starts(small);
  const uintptr_t ws = small.itemsize(), wl = large.itemsize();
  std::vector<int64_t> idx(static_cast<size_t>(large.ndim()), 0);
  uintptr_t p = reinterpret_cast<uintptr_t>(large.data());
  for (int64_t n = 0; n < large.size(); ++n) {
    // Some [q, q + ws) overlaps [p, p + wl): the last start below p + wl ends after p.
    auto it = std::lower_bound(starts.begin(), starts.end(), p + wl);
    if (it != starts.begin() && *std::prev(it) + ws > p) return true;
    for (int d = large.ndim() - 1; d >= 0; --d) {  // the next element, last axis fastest
      p += large.strides()[d];
      if (++idx[d] < large.shape()[d]) break;
      p -= large.strides()[d] * large.shape()[d];
      idx[d] = 0;
    }
  }
  return false;
}

bool isfortran(const Array& a) { return is_f_contiguous(a) && !a.is_contiguous(); }

Array ascontiguousarray(const Array& a) { return at_least_1d(a.is_contiguous() ? a : a.contiguous()); }

Array asfortranarray(const Array& a) {
  const Array b = at_least_1d(a);
  return is_f_contiguous(b) ? b : b.transpose().contiguous().transpose();
}

}  // namespace loom
