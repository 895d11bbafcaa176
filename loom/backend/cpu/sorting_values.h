// Values-only sorting on the CPU: sort() needs no positions, so each row sorts its keys
// alone (half the memory traffic of (key, index) pairs, no gather through an index) and
// turns them back into values. That is exact only when key -> value is one-to-one on the
// row: -0.0 and NaNs other than the dtype's default NaN share a key with another bit
// pattern, so a row holding any of them returns false and takes the stable pair path
// (which keeps -0.0/+0.0 and NaN payloads in input order). Equal keys are otherwise
// bit-identical values, so the order among them does not matter.
// LSD radix on (key - row minimum): only digits below the row's key range are sorted, so
// small-range rows take one or two passes; 11-bit digits for long rows, 8-bit otherwise,
// insertion sort for tiny rows. A single long row splits histograms and scatters over
// the thread pool.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "loom/backend/creation.h"
#include "loom/runtime/cpu/host_allocator.h"
#include "loom/backend/cpu/sorting_keys.h"
#include "loom/runtime/cpu/thread_pool.h"

namespace loom::cpu_backend {

template <class K>
class KeySorter {
 public:
  /// Room for rows of up to n elements (scratch left uninitialized: it is only written).
  void reserve(int64_t n) {
    if (cap_ < n) {
      b_ = cpu_runtime::allocate(static_cast<size_t>(n) * sizeof(K));  // huge pages when large
      cap_ = n;
    }
  }

  /// Sorts a[0..n) (the caller's buffer, e.g. the output row) given its minimum and
  /// maximum; returns the sorted keys: `a`, or the scratch buffer for short rows.
  const K* sort(K* a, int64_t n, K lo, K hi, int threads) {
    if (n <= kInsertion) {
      for (int64_t i = 1; i < n; ++i) {
        const K v = a[i];
        int64_t j = i;
        for (; j > 0 && a[j - 1] > v; --j) a[j] = a[j - 1];
        a[j] = v;
      }
      return a;
    }
    const K range = static_cast<K>(hi - lo);
    if (range == 0) return a;
    int bits = 0;
    while (bits < static_cast<int>(8 * sizeof(K)) && (range >> bits) != 0) ++bits;
    if (n < kMsdRow || bits <= 16) return lsd(a, static_cast<K*>(b_->data()), n, lo, bits, counts_);
    msd_then_lsd(a, n, lo, bits, threads);
    return a;
  }

 private:
  // In-cache LSD radix with 8-bit digits on the low `bits` bits of (key - lo), every
  // pass's histogram taken in one read; returns the buffer (a or b) holding the result.
  static K* lsd(K* a, K* b, int64_t n, K lo, int bits, std::vector<int64_t>& counts) {
    constexpr int digit = 8;
    constexpr size_t buckets = size_t{1} << digit;
    const int passes = (bits + digit - 1) / digit;
    counts.assign(buckets * passes, 0);
    for (int64_t i = 0; i < n; ++i) {
      const K d = static_cast<K>(a[i] - lo);
      for (int p = 0; p < passes; ++p) ++counts[p * buckets + ((d >> (p * digit)) & (buckets - 1))];
    }
    for (int p = 0; p < passes; ++p) {
      int64_t* off = &counts[p * buckets];
      if (*std::max_element(off, off + buckets) == n) continue;  // one digit value: no-op
      int64_t total = 0;
      for (size_t d = 0; d < buckets; ++d) {
        const int64_t c = off[d];
        off[d] = total;
        total += c;
      }
      const int shift = p * digit;
      for (int64_t i = 0; i < n; ++i) b[off[(static_cast<K>(a[i] - lo) >> shift) & (buckets - 1)]++] = a[i];
      std::swap(a, b);
    }
    return a;
  }

  // Sorts src[0..m) in place with tmp[0..m) as scratch: lsd() once the range fits the
  // cache or has few bits, else one more top-digit scatter into tmp and recursion.
  static void sort_in_place(K* src, K* tmp, int64_t m, std::vector<int64_t>& counts) {
    if (m < 2) return;
    K lo = src[0], hi = src[0];
    for (int64_t i = 0; i < m; ++i) {
      lo = std::min(lo, src[i]);
      hi = std::max(hi, src[i]);
    }
    const K range = static_cast<K>(hi - lo);
    if (range == 0) return;
    int bits = 0;
    while (bits < static_cast<int>(8 * sizeof(K)) && (range >> bits) != 0) ++bits;
    if (m <= kCacheRow || bits <= 16) {
      const K* r = lsd(src, tmp, m, lo, bits, counts);
      if (r != src) std::memcpy(src, r, static_cast<size_t>(m) * sizeof(K));
      return;
    }
    constexpr int top = 8;
    const int shift = bits - top;
    int64_t off[(1 << top) + 1] = {};
    for (int64_t i = 0; i < m; ++i) ++off[(static_cast<K>(src[i] - lo) >> shift) + 1];
    for (int d = 0; d < (1 << top); ++d) off[d + 1] += off[d];
    int64_t pos[1 << top];
    std::copy(off, off + (1 << top), pos);
    for (int64_t i = 0; i < m; ++i) tmp[pos[static_cast<K>(src[i] - lo) >> shift]++] = src[i];
    for (int d = 0; d < (1 << top); ++d) {
      const int64_t s = off[d], c = off[d + 1] - s;
      sort_in_place(tmp + s, src + s, c, counts);
      std::memcpy(src + s, tmp + s, static_cast<size_t>(c) * sizeof(K));
    }
  }

  // Long rows: one scatter on the top digit (stability is not needed for values), then
  // every bucket, now small enough for the cache, sorts its low bits by lsd() in
  // parallel. Two passes over memory instead of one per digit. Result in a.
  void msd_then_lsd(K* a, int64_t n, K lo, int bits, int threads) {
    const int top = n >= (int64_t{1} << 20) ? 11 : 8;
    const int shift = bits - top;
    const size_t buckets = size_t{1} << top;
    const int chunks = n >= (int64_t{1} << 17) ? std::max(1, threads) : 1;
    K* b = static_cast<K*>(b_->data());
    counts_.assign(static_cast<size_t>(chunks) * buckets, 0);
    auto range_of = [n, chunks](int64_t c) { return std::pair<int64_t, int64_t>{n * c / chunks, n * (c + 1) / chunks}; };
    cpu_runtime::parallel_for(chunks, 1, [&](int64_t cb, int64_t ce) {
      for (int64_t c = cb; c < ce; ++c) {
        int64_t* h = &counts_[c * buckets];
        const auto [s, e] = range_of(c);
        for (int64_t i = s; i < e; ++i) ++h[static_cast<K>(a[i] - lo) >> shift];
      }
    });
    std::vector<int64_t> starts(buckets + 1);
    int64_t total = 0;
    for (size_t d = 0; d < buckets; ++d) {
      starts[d] = total;
      for (int c = 0; c < chunks; ++c) {
        int64_t& slot = counts_[c * buckets + d];
        const int64_t cnt = slot;
        slot = total;
        total += cnt;
      }
    }
    starts[buckets] = n;
    cpu_runtime::parallel_for(chunks, 1, [&](int64_t cb, int64_t ce) {
      for (int64_t c = cb; c < ce; ++c) {
        int64_t* off = &counts_[c * buckets];
        const auto [s, e] = range_of(c);
        for (int64_t i = s; i < e; ++i) b[off[static_cast<K>(a[i] - lo) >> shift]++] = a[i];
      }
    });
    // Buckets sort in place in b_ with the same range of a as scratch, then go back to a
    // while still in cache.
    cpu_runtime::parallel_for(static_cast<int64_t>(buckets), 16, [&](int64_t db, int64_t de) {
      std::vector<int64_t> counts;
      for (int64_t d = db; d < de; ++d) {
        const int64_t s = starts[d], m = starts[d + 1] - s;
        sort_in_place(b + s, a + s, m, counts);
        std::memcpy(a + s, b + s, static_cast<size_t>(m) * sizeof(K));
      }
    });
  }

  static constexpr int64_t kInsertion = 32;
  static constexpr int64_t kMsdRow = int64_t{1} << 16;
  static constexpr int64_t kCacheRow = int64_t{1} << 15;
  std::shared_ptr<Buffer> b_;
  int64_t cap_ = 0;
  std::vector<int64_t> counts_;
};

}  // namespace loom::cpu_backend
