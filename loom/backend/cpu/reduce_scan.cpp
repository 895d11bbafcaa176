// cumsum and cumprod on the CPU: accumulated in sum's accumulator dtype (float32 for
// float16/bfloat16: each output is the rounded running value). Long rows run in three
// passes over fixed chunks (chunk totals, their prefix, each chunk again from its carry),
// the first and last in parallel; the chunking depends only on sizes.
#include "loom/backend/reduce.h"
#include "loom/backend/cpu/reduce_engine.h"

namespace loom::cpu_backend {
using namespace reduce_detail;

namespace {

// y[0..n) = carry op x[0] op ... (inclusive), in accumulator type A.
template <class C, class A, class In, class Out>
void scan_row(const In* x, Out* y, int64_t n, A carry) {
  for (int64_t i = 0; i < n; ++i) {
    carry = C::combine(carry, static_cast<A>(load(x + i)));
    y[i] = cast<Out>(carry);
  }
}

template <class C, class A, class In, class Out>
void scan_inner(const In* x, Out* y, int64_t rows, int64_t len) {
  if (len >= 2 * kChunk) {
    const int64_t chunks = (len + kChunk - 1) / kChunk;
    auto carry = make_buf<A>(rows * chunks);
    cpu_runtime::parallel_for(rows * chunks, 1, [&](int64_t b, int64_t e) {
      for (int64_t t = b; t < e; ++t) {
        const int64_t row = t / chunks, start = (t % chunks) * kChunk, n = std::min(kChunk, len - start);
        A acc = C::identity();
        const In* p = x + row * len + start;
        for (int64_t i = 0; i < n; ++i) acc = C::combine(acc, static_cast<A>(load(p + i)));
        carry[t] = acc;
      }
    });
    for (int64_t row = 0; row < rows; ++row) {  // exclusive prefix of the chunk totals
      A acc = C::identity();
      for (int64_t c = 0; c < chunks; ++c) {
        const A total = carry[row * chunks + c];
        carry[row * chunks + c] = acc;
        acc = C::combine(acc, total);
      }
    }
    cpu_runtime::parallel_for(rows * chunks, 1, [&](int64_t b, int64_t e) {
      for (int64_t t = b; t < e; ++t) {
        const int64_t row = t / chunks, start = (t % chunks) * kChunk, n = std::min(kChunk, len - start);
        scan_row<C>(x + row * len + start, y + row * len + start, n, carry[t]);
      }
    });
    return;
  }
  const int64_t grain = std::max<int64_t>(1, kChunk / std::max<int64_t>(len, 1));
  cpu_runtime::parallel_for(rows, grain, [&](int64_t b, int64_t e) {
    for (int64_t row = b; row < e; ++row) scan_row<C>(x + row * len, y + row * len, len, C::identity());
  });
}

// Scan along a strided axis: a running accumulator per column, columns in tiles.
template <class C, class A, class In, class Out>
void scan_outer(const In* x, Out* y, int64_t outer, int64_t len, int64_t inner) {
  const int64_t tiles = (inner + kTile - 1) / kTile;
  const int64_t grain = std::max<int64_t>(1, kChunk / std::max<int64_t>(1, std::min(inner, kTile) * len));
  cpu_runtime::parallel_for(outer * tiles, grain, [&](int64_t b, int64_t e) {
    A acc[kTile];
    for (int64_t t = b; t < e; ++t) {
      const int64_t o = t / tiles, c0 = (t % tiles) * kTile, w = std::min(kTile, inner - c0);
      for (int64_t i = 0; i < w; ++i) acc[i] = C::identity();
      for (int64_t r = 0; r < len; ++r) {
        const int64_t base = (o * len + r) * inner + c0;
        for (int64_t i = 0; i < w; ++i) {
          acc[i] = C::combine(acc[i], static_cast<A>(load(x + base + i)));
          y[base + i] = cast<Out>(acc[i]);
        }
      }
    }
  });
}

}  // namespace

void scan(const Array& in, const ReduceGeometry& g, ScanKind kind, const Array& out) {
  if (in.size() == 0) return;
  dispatch_any_dtype(in.dtype(), [&](auto in_tag) {
    using In = decltype(in_tag);
    using A = sum_acc_t<In>;
    using Out = std::conditional_t<is_float_storage<In>, In, A>;
    const In* x = static_cast<const In*>(in.data());
    Out* y = static_cast<Out*>(out.data());
    if (kind == ScanKind::sum) {
      if (g.inner == 1) scan_inner<Add<A>, A>(x, y, g.outer, g.len);
      else scan_outer<Add<A>, A>(x, y, g.outer, g.len, g.inner);
    } else {
      if (g.inner == 1) scan_inner<Mul<A>, A>(x, y, g.outer, g.len);
      else scan_outer<Mul<A>, A>(x, y, g.outer, g.len, g.inner);
    }
  });
}

}  // namespace loom::cpu_backend
