// CPU evals of sort/argsort, unique, searchsorted and select_ranks: every element becomes
// its order-preserving key (sorting_keys.h), rows are sorted stably as (key, index) pairs
// (sorting_radix.h), and values are gathered by index so that -0.0 and NaN payloads come
// out as they went in. Rows are spread over the thread pool. select_ranks partitions the
// keys (std::nth_element) instead of sorting them.
#include "loom/backend/sorting.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <numeric>
#include <tuple>
#include <vector>

#include "loom/core/cast.h"
#include "loom/backend/cpu/sorting_keys.h"
#include "loom/backend/cpu/sorting_values.h"
#include "loom/backend/cpu/sorting_radix.h"
#include "loom/runtime/cpu/thread_pool.h"
#include "loom/core/error.h"

namespace loom::cpu_backend {
namespace {

constexpr int64_t kParallelWork = 1 << 15;  // elements per task worth a thread

// Storage types are compared only through their keys; bool is read as a byte.
template <class T>
using storage_t = std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>;

template <class T>
inline sort_key_t<T> elem_key(storage_t<T> x) {
  if constexpr (std::is_same_v<T, bool>) return x != 0;
  else return sort_key(x);
}

template <class T>
inline storage_t<T> elem_from_key(sort_key_t<T> k) {
  if constexpr (std::is_same_v<T, bool>) return static_cast<uint8_t>(k);
  else return value_from_key<T>(k);
}

// Values-only sort of one row through its keys alone (sorting_values.h); false (`o` then
// holds scratch) when the row holds an element that its key does not give back (-0.0, a
// NaN other than the default one), which must keep its input position among its equals.
template <class T>
bool sort_values_row(const storage_t<T>* row, storage_t<T>* o, int64_t n, KeySorter<sort_key_t<T>>& sorter,
                     int threads) {
  using K = sort_key_t<T>;
  using S = storage_t<T>;
  // Keys go straight into the output row, which the sort then works in.
  K* keys = reinterpret_cast<K*>(o);
  K lo = static_cast<K>(~K(0)), hi = 0;
  K differ = 0;  // OR of (element bits ^ bits given back by its key): branch-free
  for (int64_t i = 0; i < n; ++i) {
    const K k = elem_key<T>(row[i]);
    const S back = elem_from_key<T>(k);
    K in_bits, back_bits;
    std::memcpy(&in_bits, &row[i], sizeof(K));
    std::memcpy(&back_bits, &back, sizeof(K));
    differ |= static_cast<K>(in_bits ^ back_bits);
    keys[i] = k;
  }
  if (differ != 0) return false;
  for (int64_t i = 0; i < n; ++i) {
    lo = std::min(lo, keys[i]);
    hi = std::max(hi, keys[i]);
  }
  const K* sorted = sorter.sort(keys, n, lo, hi, threads);
  for (int64_t i = 0; i < n; ++i) o[i] = elem_from_key<T>(sorted[i]);
  return true;
}

template <class T, class I>
void sort_rows(const storage_t<T>* x, void* out, int64_t rows, int64_t n, bool indices) {
  using K = sort_key_t<T>;
  const int threads = rows == 1 ? cpu_runtime::num_threads() : 1;
  // Small rows are batched: a task gets about kParallelWork elements of rows.
  const int64_t grain = std::max<int64_t>(1, kParallelWork / n);
  auto body = [&](int64_t rb, int64_t re) {
    KeySorter<K> values;
    PairSorter<K, I> pairs;
    if (!indices) values.reserve(n);
    for (int64_t r = rb; r < re; ++r) {
      const storage_t<T>* row = x + r * n;
      if (!indices &&
          sort_values_row<T>(row, static_cast<storage_t<T>*>(out) + r * n, n, values, threads))
        continue;
      pairs.reserve(n);
      K* keys = pairs.keys();
      for (int64_t i = 0; i < n; ++i) keys[i] = elem_key<T>(row[i]);
      pairs.sort(n, threads);
      const I* idx = pairs.sorted_indices();
      if (indices) {
        int64_t* o = static_cast<int64_t*>(out) + r * n;
        for (int64_t i = 0; i < n; ++i) o[i] = static_cast<int64_t>(idx[i]);
      } else {
        storage_t<T>* o = static_cast<storage_t<T>*>(out) + r * n;
        for (int64_t i = 0; i < n; ++i) o[i] = row[idx[i]];
      }
    }
  };
  if (rows * n < kParallelWork || rows == 1) body(0, rows);
  else cpu_runtime::parallel_for(rows, grain, body);
}

template <class T, class I>
UniqueArrays unique_typed(const Array& flat, bool want_index, bool want_inverse, bool want_counts,
                          bool equal_nan) {
  using S = storage_t<T>;
  using K = sort_key_t<T>;
  const int64_t n = flat.size();
  const S* x = static_cast<const S*>(flat.data());
  PairSorter<K, I> sorter;
  sorter.reserve(n);
  K* keys = sorter.keys();
  for (int64_t i = 0; i < n; ++i) keys[i] = elem_key<T>(x[i]);
  sorter.sort(n, cpu_runtime::num_threads());
  const K* ks = sorter.sorted_keys();
  const I* perm = sorter.sorted_indices();
  const K nan_key = static_cast<K>(~K(0));
  const bool nan_distinct = !equal_nan && key_has_nan<T>;
  // Group starts in sorted order.
  std::vector<int64_t> starts;
  for (int64_t i = 0; i < n; ++i)
    if (i == 0 || ks[i] != ks[i - 1] || (nan_distinct && ks[i] == nan_key)) starts.push_back(i);
  const int64_t count = static_cast<int64_t>(starts.size());
  const Device dev = flat.device();
  UniqueArrays r;
  r.values = Array::allocate({count}, flat.dtype(), dev);
  S* vals = static_cast<S*>(r.values.data());
  for (int64_t g = 0; g < count; ++g) vals[g] = x[perm[starts[g]]];
  if (want_index) {
    r.index = Array::allocate({count}, int64, dev);
    int64_t* o = static_cast<int64_t*>(r.index.data());
    for (int64_t g = 0; g < count; ++g) o[g] = static_cast<int64_t>(perm[starts[g]]);
  }
  if (want_counts) {
    r.counts = Array::allocate({count}, int64, dev);
    int64_t* o = static_cast<int64_t*>(r.counts.data());
    for (int64_t g = 0; g < count; ++g) o[g] = (g + 1 < count ? starts[g + 1] : n) - starts[g];
  }
  if (want_inverse) {
    r.inverse = Array::allocate({n}, int64, dev);
    int64_t* o = static_cast<int64_t*>(r.inverse.data());
    for (int64_t g = 0; g < count; ++g) {
      const int64_t end = g + 1 < count ? starts[g + 1] : n;
      for (int64_t i = starts[g]; i < end; ++i) o[perm[i]] = g;
    }
  }
  return r;
}

// What searchsorted compares: the sort key; for complex values NumPy's order as a tuple
// (NaN class: none, NaN imaginary part, NaN real part, both; then the real part's key, then
// the imaginary part's), as kernels/loom_sorting.cuh's loom_cplx_key.
template <class T>
inline auto search_key(storage_t<T> x) {
  if constexpr (is_complex_v<T>) {
    using P = decltype(x.re);
    using K = sort_key_t<P>;
    const K re = sort_key(x.re), im = sort_key(x.im), nan = static_cast<K>(~K(0));
    return std::tuple<int, K, K>((re == nan ? 2 : 0) + (im == nan ? 1 : 0), re, im);
  } else {
    return elem_key<T>(x);
  }
}

template <class T>
void searchsorted_typed(const Array& a, const Array& v, const int64_t* sorter, bool right,
                        int64_t* out) {
  using S = storage_t<T>;
  const S* av = static_cast<const S*>(a.data());
  const S* vv = static_cast<const S*>(v.data());
  const int64_t n = a.size();
  auto key = [](S x) { return search_key<T>(x); };
  cpu_runtime::parallel_for(v.size(), 1 << 12, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      const auto kv = key(vv[i]);
      int64_t lo = 0, hi = n;
      while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        const auto ka = key(av[sorter ? sorter[mid] : mid]);
        if (right ? !(kv < ka) : ka < kv) lo = mid + 1;
        else hi = mid;
      }
      out[i] = lo;
    }
  });
}

// out[r] = stable_sort(x)[ranks[r]]: the ranks in ascending order, each nth_element on the
// keys right of the one before. A key that several elements share with other bit patterns
// (+-0.0, the NaNs) gives back the element of that rank among its holders in index order,
// as the stable sort does.
template <class T>
void select_typed(const storage_t<T>* x, int64_t n, const int64_t* ranks, int64_t m, storage_t<T>* out) {
  using K = sort_key_t<T>;
  std::vector<K> keys(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) keys[i] = elem_key<T>(x[i]);
  std::vector<int64_t> rank(static_cast<size_t>(m)), order(static_cast<size_t>(m));
  for (int64_t r = 0; r < m; ++r) rank[r] = std::clamp<int64_t>(ranks[r], 0, n - 1);
  std::iota(order.begin(), order.end(), int64_t{0});
  std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return rank[a] < rank[b]; });
  std::vector<K> found(static_cast<size_t>(m));
  int64_t start = 0;  // keys[0, start) are the smallest `start` keys, in order where selected
  for (int64_t r : order) {
    if (rank[r] >= start) {
      std::nth_element(keys.begin() + start, keys.begin() + rank[r], keys.end());
      start = rank[r] + 1;
    }
    found[r] = keys[rank[r]];
  }
  const K zero_key = static_cast<K>(K(1) << (8 * sizeof(K) - 1)), nan_key = static_cast<K>(~K(0));
  for (int64_t r = 0; r < m; ++r) {
    const K k = found[r];
    if (!key_has_nan<T> || (k != zero_key && k != nan_key)) {
      out[r] = elem_from_key<T>(k);
      continue;
    }
    int64_t j = rank[r];  // its rank among the holders of k: minus the smaller keys
    for (int64_t i = 0; i < n; ++i) j -= elem_key<T>(x[i]) < k ? 1 : 0;
    for (int64_t i = 0; i < n; ++i)
      if (elem_key<T>(x[i]) == k && j-- == 0) {
        out[r] = x[i];
        break;
      }
  }
}

}  // namespace

void sort_last_axis(const Array& src, const Array& out, bool indices) {
  if (src.size() == 0) return;
  const Array x = src.contiguous();
  const int64_t n = x.shape().back(), rows = x.size() / n;
  dispatch_dtype(x.dtype(), [&](auto t) {
    using T = decltype(t);
    const storage_t<T>* data = static_cast<const storage_t<T>*>(x.data());
    if (n <= std::numeric_limits<uint32_t>::max()) sort_rows<T, uint32_t>(data, out.data(), rows, n, indices);
    else sort_rows<T, uint64_t>(data, out.data(), rows, n, indices);
  });
}

UniqueArrays unique(const Array& src, bool want_index, bool want_inverse, bool want_counts,
                    bool equal_nan) {
  const Array x = src.contiguous();
  return dispatch_dtype(x.dtype(), [&](auto t) {
    using T = decltype(t);
    if (x.size() <= std::numeric_limits<uint32_t>::max())
      return unique_typed<T, uint32_t>(x, want_index, want_inverse, want_counts, equal_nan);
    return unique_typed<T, uint64_t>(x, want_index, want_inverse, want_counts, equal_nan);
  });
}

void check_sorter(const Array& sorter, const Array& bad) {
  const int64_t* s = static_cast<const int64_t*>(sorter.data());
  int32_t any = 0;
  for (int64_t i = 0, n = sorter.size(); i < n; ++i) any |= (s[i] < 0 || s[i] >= n) ? 1 : 0;
  *static_cast<int32_t*>(bad.data()) = any;
}

void searchsorted(const Array& a, const Array& v, const Array& sorter, bool right, const Array& out) {
  const int64_t* s = sorter.valid() ? static_cast<const int64_t*>(sorter.data()) : nullptr;
  dispatch_any_dtype(a.dtype(), [&](auto t) {
    searchsorted_typed<decltype(t)>(a, v, s, right, static_cast<int64_t*>(out.data()));
  });
}

void select_ranks(const Array& x, const Array& ranks, const Array& out) {
  if (x.size() == 0) return;
  dispatch_dtype(x.dtype(), [&](auto t) {
    using T = decltype(t);
    select_typed<T>(static_cast<const storage_t<T>*>(x.data()), x.size(), static_cast<const int64_t*>(ranks.data()),
                    ranks.size(), static_cast<storage_t<T>*>(out.data()));
  });
}

}  // namespace loom::cpu_backend
