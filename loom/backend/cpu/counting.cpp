// CPU evals of the counting family: min/max, bincount and the equal-bin histogram, each
// over chunks of the input on the thread pool. A chunk counts into sums of its own, which
// are added in chunk order afterwards, so results do not depend on thread timing. The
// histogram's bin of each value is NumPy's rule (common/loom_histogram.cuh), the one the
// GPU kernels run.
#include "loom/backend/counting.h"

#include <algorithm>
#include <type_traits>
#include <vector>

#include "loom/common/loom_histogram.cuh"
#include "loom/core/cast.h"
#include "loom/core/error.h"
#include "loom/runtime/cpu/thread_pool.h"

namespace loom::cpu_backend {
namespace {

constexpr int64_t kChunk = int64_t{1} << 16;       // elements per task
constexpr int64_t kMaxPrivate = int64_t{1} << 22;  // private sums of all chunks together

// The number of chunks of n elements: one per thread at most, fewer when the private
// sums (bins each) would be large.
int64_t chunk_count(int64_t n, int64_t bins) {
  int64_t c = std::min<int64_t>((n + kChunk - 1) / kChunk, cpu_runtime::num_threads());
  c = std::min<int64_t>(c, std::max<int64_t>(kMaxPrivate / std::max<int64_t>(bins, 1), 1));
  return std::max<int64_t>(c, 1);
}

inline void add_to(int64_t& a, int64_t b) { a += b; }
inline void add_to(double& a, double b) { a += b; }
inline void add_to(complex128_t& a, complex128_t b) {
  a.re += b.re;
  a.im += b.im;
}

// out[bin_of(i)] += weight_of(i) for i < n (bin -1: skipped); out has `bins` zeroed sums.
template <class Acc, class BinOf, class WeightOf>
void accumulate(int64_t n, int64_t bins, Acc* out, const BinOf& bin_of, const WeightOf& weight_of) {
  const int64_t chunks = chunk_count(n, bins);
  auto run = [&](int64_t begin, int64_t end, Acc* sums) {
    for (int64_t i = begin; i < end; ++i) {
      const int64_t b = bin_of(i);
      if (b >= 0) add_to(sums[b], weight_of(i));
    }
  };
  if (chunks == 1) return run(0, n, out);
  std::vector<Acc> sums(static_cast<size_t>(chunks * bins), Acc{});
  cpu_runtime::parallel_for(chunks, 1, [&](int64_t cb, int64_t ce) {
    for (int64_t c = cb; c < ce; ++c) run(n * c / chunks, n * (c + 1) / chunks, sums.data() + c * bins);
  });
  for (int64_t c = 0; c < chunks; ++c)
    for (int64_t b = 0; b < bins; ++b) add_to(out[b], sums[static_cast<size_t>(c * bins + b)]);
}

// Runs accumulate with the sums `out`'s dtype holds: counts, or float64/complex128 weights.
template <class BinOf>
void sum_into(const Array& out, const Array& weights, int64_t n, const BinOf& bin_of) {
  const int64_t bins = out.size();
  if (!weights.valid()) {
    int64_t* o = static_cast<int64_t*>(out.data());
    std::fill(o, o + bins, int64_t{0});
    accumulate(n, bins, o, bin_of, [](int64_t) { return int64_t{1}; });
  } else if (weights.dtype() == complex128) {
    complex128_t* o = static_cast<complex128_t*>(out.data());
    std::fill(o, o + bins, complex128_t{});
    const complex128_t* w = static_cast<const complex128_t*>(weights.data());
    accumulate(n, bins, o, bin_of, [w](int64_t i) { return w[i]; });
  } else {
    double* o = static_cast<double*>(out.data());
    std::fill(o, o + bins, 0.0);
    const double* w = static_cast<const double*>(weights.data());
    accumulate(n, bins, o, bin_of, [w](int64_t i) { return w[i]; });
  }
}

// Element values for comparing: 16-bit floats as float, the rest as themselves.
template <class S>
inline auto value_of(S x) {
  if constexpr (is_f16<S>) return f16_to_float(x);
  else return x;
}

template <class V>
inline bool is_nan_value(V v) {
  if constexpr (std::is_floating_point_v<V>) return v != v;
  else return false;
}

template <class S>
void minmax_typed(const S* x, int64_t n, S* out) {
  struct Best {
    S lo, hi;
  };
  // NumPy's min and max: a NaN wins and stays, then the smaller / larger value.
  auto fold = [](Best& b, S v) {
    const auto fv = value_of(v);
    const bool nan = is_nan_value(fv);
    if (nan || fv < value_of(b.lo)) b.lo = v;
    if (nan || fv > value_of(b.hi)) b.hi = v;
  };
  auto scan = [&](int64_t begin, int64_t end) {
    Best b{x[begin], x[begin]};
    for (int64_t i = begin + 1; i < end; ++i) fold(b, x[i]);
    return b;
  };
  const int64_t chunks = chunk_count(n, 1);
  std::vector<Best> best(static_cast<size_t>(chunks));
  cpu_runtime::parallel_for(chunks, 1, [&](int64_t cb, int64_t ce) {
    for (int64_t c = cb; c < ce; ++c) best[static_cast<size_t>(c)] = scan(n * c / chunks, n * (c + 1) / chunks);
  });
  Best all = best[0];
  for (size_t c = 1; c < best.size(); ++c) {
    fold(all, best[c].lo);
    fold(all, best[c].hi);
  }
  out[0] = all.lo;
  out[1] = all.hi;
}

// The device code's element types: float16 as loom_f16 (the same 16 bits as half_bits).
template <class S>
using elem_t = std::conditional_t<std::is_same_v<S, half_bits>, loom_f16, S>;

// E: the element type, T: the bin type (E for floats, double for integers).
template <class E, class T, bool WIDE>
void histogram_typed(const E* x, int64_t n, const T* edges, const Array& weights, const HistogramParams& p,
                     const Array& out) {
  using A = loom_hist_arith<T>;
  const auto lo = A::load(edges[0]), hi = A::load(edges[p.bins]);
  auto edge = [edges](long long k) { return A::load(edges[k]); };
  auto bin_of = [&](int64_t i) -> int64_t {
    return loom_hist_bin<T, WIDE>(loom_hist_value<T>(x[i]), lo, hi, p.denom, p.count, p.bins, edge);
  };
  if (!p.bin_index) return sum_into(out, weights, n, bin_of);
  int64_t* o = static_cast<int64_t*>(out.data());
  cpu_runtime::parallel_for(n, kChunk, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) o[i] = bin_of(i);
  });
}

}  // namespace

void minmax(const Array& x, const Array& out) {
  if (x.size() == 0) throw_value_error("minmax", "zero-size array");
  dispatch_dtype(x.dtype(), [&](auto t) {
    using S = decltype(t);
    if constexpr (std::is_same_v<S, bfloat16_bits>) {
      throw_dtype_error("minmax", "bfloat16 is not supported here");
    } else {
      using St = std::conditional_t<std::is_same_v<S, bool>, uint8_t, S>;  // bool is a 0/1 byte
      minmax_typed(static_cast<const St*>(x.data()), x.size(), static_cast<St*>(out.data()));
    }
  });
}

void bincount(const Array& x, const Array& weights, const Array& out) {
  const int64_t bins = out.size();
  dispatch_dtype(x.dtype(), [&](auto t) {
    using S = decltype(t);
    if constexpr (std::is_integral_v<S>) {
      using St = std::conditional_t<std::is_same_v<S, bool>, uint8_t, S>;
      const St* xs = static_cast<const St*>(x.data());
      sum_into(out, weights, x.size(), [xs, bins](int64_t i) -> int64_t {
        const St v = xs[i];
        if constexpr (std::is_signed_v<St>)
          if (v < 0) return -1;
        return static_cast<uint64_t>(v) < static_cast<uint64_t>(bins) ? static_cast<int64_t>(v) : -1;
      });
    } else {
      throw_dtype_error("bincount", std::string(dtype_name(x.dtype())) + " values are not integers");
    }
  });
}

void histogram(const Array& x, const Array& edges, const Array& weights, const HistogramParams& p,
               const Array& out) {
  dispatch_dtype(x.dtype(), [&](auto t) {
    using S = decltype(t);
    if constexpr (std::is_same_v<S, bool> || std::is_same_v<S, bfloat16_bits>) {
      throw_dtype_error("histogram", std::string(dtype_name(x.dtype())) + " is not supported here");
    } else {
      using E = elem_t<S>;
      using T = std::conditional_t<std::is_integral_v<S>, double, E>;
      const E* xs = static_cast<const E*>(x.data());
      const T* es = static_cast<const T*>(edges.data());
      if (p.wide) histogram_typed<E, T, true>(xs, x.size(), es, weights, p, out);
      else histogram_typed<E, T, false>(xs, x.size(), es, weights, p, out);
    }
  });
}

}  // namespace loom::cpu_backend
