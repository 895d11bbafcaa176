// sum and prod on the CPU: elements widened to the accumulator dtype (int64, uint64,
// float32 for float16/bfloat16/float32, float64) and cast to the output dtype at the end.
#include "loom/backend/reduce.h"
#include "loom/backend/cpu/reduce_source.h"

namespace loom::cpu_backend {
using namespace reduce_detail;

void reduce_sum_prod(const ReduceInput& in, const ReduceGeometry& g, ReduceKind kind, const Array& out) {
  dispatch_any_dtype(in.dtype(), [&](auto in_tag) {
    using In = decltype(in_tag);
    using A = sum_acc_t<In>;
    using Out = std::conditional_t<is_float_storage<In>, In, A>;
    Out* y = static_cast<Out*>(out.data());
    auto map = [](auto v, int64_t, int64_t) { return static_cast<A>(v); };
    auto post = [](A a, int64_t) { return a; };
    with_source<In>(in, [&](const auto& x) {
      if (kind == ReduceKind::sum) run_source(make_op(Add<A>{}, map, post), x, y, g);
      else run_source(make_op(Mul<A>{}, map, post), x, y, g);
    });
  });
}

void reduce(const Array& in, const ReduceGeometry& g, ReduceKind kind, const ReduceParams& params,
            const Array& out) {
  reduce_any_input(ReduceInput{&in, nullptr}, g, kind, params, out);
}

void reduce_any_input(const ReduceInput& in, const ReduceGeometry& g, ReduceKind kind, const ReduceParams& params,
                      const Array& out) {
  switch (kind) {
    case ReduceKind::sum:
    case ReduceKind::prod:
      return reduce_sum_prod(in, g, kind, out);
    case ReduceKind::min:
    case ReduceKind::max:
    case ReduceKind::any:
    case ReduceKind::all:
    case ReduceKind::argmin:
    case ReduceKind::argmax:
      return reduce_extrema(in, g, kind, out);
    default:
      return reduce_stats(in, g, kind, params, out);
  }
}

}  // namespace loom::cpu_backend
