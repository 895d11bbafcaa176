// Stable sorting of (key, index) pairs on the CPU: LSD radix sort with 8-bit digits for
// rows above a few hundred elements (skipping digits every key shares, so small-range
// integers take one or two passes), std::sort on (key, index) below (the index makes
// every pair distinct, so the result is the stable order). A single large row splits
// its histograms and scatters over the thread pool.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "loom/runtime/cpu/thread_pool.h"

namespace loom::cpu_backend {

template <class K, class I>
class PairSorter {
 public:
  /// Room for rows of up to n elements; keys() and indices() are then filled by the caller
  /// (keys) and sort() (indices).
  void reserve(int64_t n) {
    if (static_cast<int64_t>(k_.size()) >= n) return;
    k_.resize(n);
    k2_.resize(n);
    v_.resize(n);
    v2_.resize(n);
  }
  K* keys() { return k_.data(); }
  /// Sorts keys()[0..n) stably, carrying their positions; afterwards sorted_keys() and
  /// sorted_indices() hold the result. `threads` > 1 splits a large row over the pool.
  void sort(int64_t n, int threads = 1) {
    ks_ = k_.data();
    vs_ = v_.data();
    if (n <= kSmallRow) {
      sort_small(n);
      return;
    }
    K* ka = k_.data();
    K* kb = k2_.data();
    I* va = v_.data();
    I* vb = v2_.data();
    const int chunks = n >= (int64_t{1} << 16) ? std::max(1, threads) : 1;
    counts_.assign(static_cast<size_t>(chunks) * 256, 0);
    bool first = true;  // the first scatter writes indices 0..n-1 directly
    for (int shift = 0; shift < static_cast<int>(8 * sizeof(K)); shift += 8) {
      if (!pass(ka, kb, va, vb, n, shift, chunks, first)) continue;
      first = false;
      std::swap(ka, kb);
      std::swap(va, vb);
    }
    if (first)  // every key equal: already sorted
      for (int64_t i = 0; i < n; ++i) va[i] = static_cast<I>(i);
    ks_ = ka;
    vs_ = va;
  }
  const K* sorted_keys() const { return ks_; }
  const I* sorted_indices() const { return vs_; }

 private:
  static constexpr int64_t kSmallRow = 256;

  void sort_small(int64_t n) {
    if constexpr (sizeof(K) <= 4) {
      // (key << 32 | index) as one integer: a branch-free compare, and the same order.
      packed_.resize(n);
      for (int64_t i = 0; i < n; ++i) packed_[i] = (static_cast<uint64_t>(k_[i]) << 32) | static_cast<uint64_t>(i);
      std::sort(packed_.begin(), packed_.begin() + n);
      for (int64_t i = 0; i < n; ++i) {
        k_[i] = static_cast<K>(packed_[i] >> 32);
        v_[i] = static_cast<I>(packed_[i] & 0xffffffffu);
      }
      return;
    }
    pairs_.resize(n);
    for (int64_t i = 0; i < n; ++i) pairs_[i] = {k_[i], static_cast<I>(i)};
    std::sort(pairs_.begin(), pairs_.begin() + n, [](const Pair& a, const Pair& b) {
      return a.k < b.k || (a.k == b.k && a.v < b.v);
    });
    for (int64_t i = 0; i < n; ++i) {
      k_[i] = pairs_[i].k;
      v_[i] = pairs_[i].v;
    }
  }

  // One counting-sort pass on the digit at `shift`; false (nothing moved) when every key
  // has the same digit there.
  bool pass(const K* ks, K* kd, const I* vs, I* vd, int64_t n, int shift, int chunks, bool first) {
    auto range = [&](int c) { return std::pair<int64_t, int64_t>{n * c / chunks, n * (c + 1) / chunks}; };
    auto histogram = [&](int c) {
      int64_t* h = &counts_[static_cast<size_t>(c) * 256];
      std::fill(h, h + 256, 0);
      const auto [b, e] = range(c);
      for (int64_t i = b; i < e; ++i) ++h[(ks[i] >> shift) & 0xff];
    };
    run(chunks, histogram);
    // Offsets: digit-major, chunk-minor, so equal digits keep their input order.
    int64_t total = 0;
    for (int d = 0; d < 256; ++d) {
      int64_t digit_total = 0;
      for (int c = 0; c < chunks; ++c) digit_total += counts_[static_cast<size_t>(c) * 256 + d];
      if (digit_total == n) return false;
      for (int c = 0; c < chunks; ++c) {
        int64_t& slot = counts_[static_cast<size_t>(c) * 256 + d];
        const int64_t cnt = slot;
        slot = total;
        total += cnt;
      }
    }
    auto scatter = [&](int c) {
      int64_t* off = &counts_[static_cast<size_t>(c) * 256];
      const auto [b, e] = range(c);
      for (int64_t i = b; i < e; ++i) {
        const int64_t o = off[(ks[i] >> shift) & 0xff]++;
        kd[o] = ks[i];
        vd[o] = first ? static_cast<I>(i) : vs[i];
      }
    };
    run(chunks, scatter);
    return true;
  }

  template <class F>
  static void run(int chunks, F&& f) {
    if (chunks == 1) {
      f(0);
      return;
    }
    cpu_runtime::parallel_for(chunks, 1, [&](int64_t b, int64_t e) {
      for (int64_t c = b; c < e; ++c) f(static_cast<int>(c));
    });
  }

  struct Pair {
    K k;
    I v;
  };
  std::vector<K> k_, k2_;
  std::vector<I> v_, v2_;
  std::vector<Pair> pairs_;
  std::vector<uint64_t> packed_;
  std::vector<int64_t> counts_;
  const K* ks_ = nullptr;
  const I* vs_ = nullptr;
};

}  // namespace loom::cpu_backend
