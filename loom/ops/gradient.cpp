// numpy.gradient as a composition (ops/gradient.h).
#include "loom/ops/gradient.h"

#include <string>

#include "loom/core/error.h"
#include "loom/core/shape.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/indexing.h"
#include "loom/ops/shape_ops.h"

namespace loom {
namespace {

// f[..., start:stop] along the last axis.
Array last(const Array& f, std::optional<int64_t> start, std::optional<int64_t> stop) {
  return getitem(f, {Index(ellipsis), Index(Slice{start, stop, std::nullopt})});
}

// a * f0 + b * f1 + c * f2 with coefficients that are numbers or arrays along the last axis.
Array combine(const Array& a, const Array& f0, const Array& b, const Array& f1, const Array& c, const Array& f2) {
  return add(add(multiply(a, f0), multiply(b, f1)), multiply(c, f2));
}

// The gradient along the last axis of g (length n), with sample coordinates x (1-d) or
// the uniform step h.
Array along_last(const Array& g, const GradientSpacing& sp, int edge_order) {
  const int64_t n = g.shape().back();
  const Device dev = g.device();
  const DType t = g.dtype();
  auto num = [&](double v) { return full({}, v, t, dev); };
  Array interior, first, end;
  if (!sp.x) {
    const double h = sp.h;
    interior = divide(subtract(last(g, 2, std::nullopt), last(g, std::nullopt, -2)), 2.0 * h);
    if (edge_order == 1) {
      first = divide(subtract(last(g, 1, 2), last(g, 0, 1)), h);
      end = divide(subtract(last(g, n - 1, n), last(g, n - 2, n - 1)), h);
    } else {
      first = divide(combine(num(-1.5), last(g, 0, 1), num(2.0), last(g, 1, 2), num(-0.5), last(g, 2, 3)), h);
      end = divide(combine(num(0.5), last(g, n - 3, n - 2), num(-2.0), last(g, n - 2, n - 1), num(1.5), last(g, n - 1, n)), h);
    }
  } else {
    const Array x = sp.x->astype(is_floating(sp.x->dtype()) ? promote_types(sp.x->dtype(), t) : DType::float64);
    const Array dx = subtract(last(x, 1, std::nullopt), last(x, std::nullopt, -1));  // n - 1 steps
    const Array d1 = last(dx, std::nullopt, -1), d2 = last(dx, 1, std::nullopt);
    const Array sum = add(d1, d2);
    // Second-order weights for the three samples around each interior point.
    const Array a = negative(divide(d2, multiply(d1, sum))), b = divide(subtract(d2, d1), multiply(d1, d2)),
                c = divide(d1, multiply(d2, sum));
    interior = combine(a, last(g, std::nullopt, -2), b, last(g, 1, -1), c, last(g, 2, std::nullopt));
    const Array s0 = last(dx, 0, 1), sn = last(dx, n - 2, n - 1);
    if (edge_order == 1) {
      first = divide(subtract(last(g, 1, 2), last(g, 0, 1)), s0);
      end = divide(subtract(last(g, n - 1, n), last(g, n - 2, n - 1)), sn);
    } else {
      const Array e1 = s0, e2 = last(dx, 1, 2), es = add(e1, e2);
      first = combine(negative(divide(add(multiply(e1, 2.0), e2), multiply(e1, es))), last(g, 0, 1),
                      divide(es, multiply(e1, e2)), last(g, 1, 2), negative(divide(e1, multiply(e2, es))), last(g, 2, 3));
      const Array f1 = last(dx, n - 3, n - 2), f2 = sn, fs = add(f1, f2);
      end = combine(divide(f2, multiply(f1, fs)), last(g, n - 3, n - 2), negative(divide(fs, multiply(f1, f2))),
                    last(g, n - 2, n - 1), divide(add(multiply(f2, 2.0), f1), multiply(f2, fs)), last(g, n - 1, n));
    }
  }
  const int ax = g.ndim() - 1;
  return concatenate({first.astype(t), interior.astype(t), end.astype(t)}, ax);
}

}  // namespace

std::vector<Array> gradient(const Array& f, const std::vector<GradientSpacing>& spacing, const AxisArg& axis,
                            int edge_order) {
  const char* op = "gradient";
  if (edge_order != 1 && edge_order != 2) throw_value_error(op, "'edge_order' greater than 2 not supported");
  std::vector<int> axes;
  if (axis)
    for (int64_t a : *axis) axes.push_back(normalize_axis(a, f.ndim(), op));
  else
    for (int d = 0; d < f.ndim(); ++d) axes.push_back(d);
  if (!spacing.empty() && spacing.size() != 1 && spacing.size() != axes.size())
    throw std::invalid_argument("[gradient] invalid number of arguments: " + std::to_string(spacing.size()) +
                                " spacings for " + std::to_string(axes.size()) + " axes");
  // Floats and complex values keep their dtype (NumPy's); integers and bool compute in float64.
  const Array g = f.astype(is_floating(f.dtype()) || is_complex(f.dtype()) ? f.dtype() : DType::float64);
  std::vector<Array> out;
  for (size_t k = 0; k < axes.size(); ++k) {
    const int ax = axes[k];
    const GradientSpacing sp = spacing.empty() ? GradientSpacing{} : spacing[spacing.size() == 1 ? 0 : k];
    const int64_t n = f.shape()[ax];
    if (n < edge_order + 1)
      throw_value_error(op, "Shape of array too small to calculate a numerical gradient, at least (edge_order + 1) "
                            "elements are required.");
    if (sp.x && (sp.x->ndim() != 1 || sp.x->shape()[0] != n))
      throw_value_error(op, sp.x->ndim() != 1 ? "distances must be either scalars or 1d"
                                              : "when 1d, distances must match the length of the corresponding dimension");
    const Array moved = moveaxis(g, {ax}, {-1});
    out.push_back(moveaxis(along_last(moved, sp, edge_order), {-1}, {ax}).contiguous());
  }
  return out;
}

}  // namespace loom
