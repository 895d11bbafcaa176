// min, max (NaN propagates), any, all and argmin/argmax (first occurrence; the first NaN
// wins) on the CPU.
#include "loom/backend/reduce.h"
#include "loom/backend/cpu/reduce_source.h"

namespace loom::cpu_backend {
using namespace reduce_detail;

void reduce_extrema(const ReduceInput& in, const ReduceGeometry& g, ReduceKind kind, const Array& out) {
  dispatch_dtype(in.dtype(), [&](auto in_tag) {
    using In = decltype(in_tag);
    using V = value_t<In>;
    with_source<In>(in, [&](const auto& x) {
      auto same = [](V v, int64_t, int64_t) { return v; };
      auto keep = [](auto a, int64_t) { return a; };
      switch (kind) {
        case ReduceKind::min:
          return run_source(make_op(Min<V>{}, same, keep), x, static_cast<In*>(out.data()), g);
        case ReduceKind::max:
          return run_source(make_op(Max<V>{}, same, keep), x, static_cast<In*>(out.data()), g);
        case ReduceKind::any:
        case ReduceKind::all: {
          auto nonzero = [](V v, int64_t, int64_t) { return v != V(0); };
          bool* y = static_cast<bool*>(out.data());
          if (kind == ReduceKind::any) run_source(make_op(Or{}, nonzero, keep), x, y, g);
          else run_source(make_op(And{}, nonzero, keep), x, y, g);
          return;
        }
        default: {
          auto pair = [](V v, int64_t r, int64_t) { return ArgAcc<V>{v, r}; };
          auto index = [](ArgAcc<V> a, int64_t) { return a.i; };
          int64_t* y = static_cast<int64_t*>(out.data());
          if (kind == ReduceKind::argmax) run_source(make_op(ArgBest<V, true>{}, pair, index), x, y, g);
          else run_source(make_op(ArgBest<V, false>{}, pair, index), x, y, g);
          return;
        }
      }
    });
  });
}

}  // namespace loom::cpu_backend
