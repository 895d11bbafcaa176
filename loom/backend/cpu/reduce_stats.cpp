// mean, var/std (two passes: the mean per output, then squared deviations) and the vector
// norms on the CPU, accumulated in float32 (float16, bfloat16, float32 inputs) or float64.
#include <cmath>

#include "loom/backend/reduce.h"
#include "loom/backend/cpu/reduce_source.h"

namespace loom::cpu_backend {
using namespace reduce_detail;

namespace {

template <class In, class Src, class Out>
void stats_typed(const Src& x, Out* y, const ReduceGeometry& g, ReduceKind kind, const ReduceParams& prm) {
  using A = float_acc_t<In>;
  const A divisor = static_cast<A>(prm.divisor);
  auto widen = [](auto v, int64_t, int64_t) { return static_cast<A>(v); };
  auto keep = [](A a, int64_t) { return a; };
  auto abs_map = [](auto v, int64_t, int64_t) { return std::abs(static_cast<A>(v)); };
  switch (kind) {
    case ReduceKind::mean:
      return run_source(make_op(Add<A>{}, widen, [divisor](A a, int64_t) { return a / divisor; }), x, y, g);
    case ReduceKind::var: {
      // Pass 1: the mean of each output in the accumulator type.
      auto mean = make_buf<A>(g.outer * g.inner);
      const A count = static_cast<A>(prm.count);
      run_source(make_op(Add<A>{}, widen, [count](A a, int64_t) { return a / count; }), x, mean.get(), g);
      const A* m = mean.get();
      auto dev2 = [m](auto v, int64_t, int64_t j) {
        const A d = static_cast<A>(v) - m[j];
        return d * d;
      };
      const bool root = prm.take_sqrt;
      return run_source(make_op(Add<A>{}, dev2,
                         [divisor, root](A a, int64_t) { return root ? std::sqrt(a / divisor) : a / divisor; }),
                 x, y, g);
    }
    case ReduceKind::norm_l2:
      return run_source(make_op(Add<A>{}, [](auto v, int64_t, int64_t) { return static_cast<A>(v) * static_cast<A>(v); },
                         [](A a, int64_t) { return std::sqrt(a); }),
                 x, y, g);
    case ReduceKind::norm_l1:
      return run_source(make_op(Add<A>{}, abs_map, keep), x, y, g);
    case ReduceKind::norm_max_abs:
      // Identity 0 rather than -inf: NumPy's max(abs(x), initial=0).
      return run_source(make_op(Max<A>{}, abs_map, [](A a, int64_t) { return a == -INFINITY ? A(0) : a; }), x, y, g);
    case ReduceKind::norm_min_abs:
      return run_source(make_op(Min<A>{}, abs_map, keep), x, y, g);
    case ReduceKind::norm_l0:
      return run_source(make_op(Add<A>{}, [](auto v, int64_t, int64_t) { return v != 0 ? A(1) : A(0); }, keep), x, y, g);
    default: {  // norm_p
      const A p = static_cast<A>(prm.p), inv = static_cast<A>(1.0 / prm.p);
      return run_source(make_op(Add<A>{}, [p](auto v, int64_t, int64_t) { return std::pow(std::abs(static_cast<A>(v)), p); },
                         [inv](A a, int64_t) { return std::pow(a, inv); }),
                 x, y, g);
    }
  }
}

}  // namespace

void reduce_stats(const ReduceInput& in, const ReduceGeometry& g, ReduceKind kind, const ReduceParams& params,
                  const Array& out) {
  dispatch_dtype(in.dtype(), [&](auto in_tag) {
    using In = decltype(in_tag);
    using Out = std::conditional_t<is_float_storage<In>, In, double>;
    with_source<In>(in, [&](const auto& x) { stats_typed<In>(x, static_cast<Out*>(out.data()), g, kind, params); });
  });
}

}  // namespace loom::cpu_backend
