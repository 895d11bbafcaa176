#include "loom/transforms/jacobian.h"

#include <string>

#include "loom/core/error.h"
#include "loom/ops/creation.h"
#include "loom/ops/shape_ops.h"
#include "loom/transforms/autodiff.h"
#include "loom/transforms/vmap.h"

namespace loom {
namespace {

size_t checked_argnum(int argnum, size_t nargs, const char* who) {
  const int n = static_cast<int>(nargs);
  if (argnum < -n || argnum >= n)
    throw_value_error(who, "argnum " + std::to_string(argnum) + " is out of range for a function of " +
                               std::to_string(n) + " arguments");
  return static_cast<size_t>(argnum < 0 ? argnum + n : argnum);
}

void check_real(const Array& a, const char* who, const char* what) {
  if (!is_floating(a.dtype()))
    throw DTypeError(std::string("[") + who + "] " + what + " must be a real floating array, got " +
                     dtype_name(a.dtype()));
}

// The standard basis of a's space: shape (a.size(),) + a.shape, a's dtype.
Array basis_of(const Array& a) {
  Shape shape{a.size()};
  shape.insert(shape.end(), a.shape().begin(), a.shape().end());
  return reshape(eye(a.size(), std::nullopt, 0, a.dtype(), a.device()), shape);
}

// f as a function of its argument `k` alone, the others fixed at `args`.
ArrayFn of_one(const ArrayFn& f, const std::vector<Array>& args, size_t k) {
  return [f, args, k](const std::vector<Array>& x) {
    std::vector<Array> all = args;
    all[k] = x[0];
    return f(all);
  };
}

Shape joined(const Shape& a, const Shape& b) {
  Shape s = a;
  s.insert(s.end(), b.begin(), b.end());
  return s;
}

}  // namespace

ArrayFn jacrev(ArrayFn f, int argnum) {
  if (!f) throw_value_error("jacrev", "the function is empty");
  return [f = std::move(f), argnum](const std::vector<Array>& args) {
    const size_t k = checked_argnum(argnum, args.size(), "jacrev");
    const Array& x = args[k];
    check_real(x, "jacrev", "the argument");
    auto [outs, pullback] = vjp(of_one(f, args, k), {x});
    std::vector<Array> jacobians;
    for (size_t j = 0; j < outs.size(); ++j) {
      check_real(outs[j], "jacrev", "each output");
      const size_t n = outs.size();
      // Row i of the Jacobian: the pullback of the i-th basis vector of output j's space.
      const ArrayFn row = [pullback, j, n](const std::vector<Array>& ct) {
        std::vector<Array> cts(n);
        cts[j] = ct[0];
        return pullback(cts);
      };
      const Array rows = vmap(row)({basis_of(outs[j])})[0];  // (y_j.size, *x.shape)
      jacobians.push_back(reshape(rows, joined(outs[j].shape(), x.shape())));
    }
    return jacobians;
  };
}

ArrayFn jacfwd(ArrayFn f, int argnum) {
  if (!f) throw_value_error("jacfwd", "the function is empty");
  return [f = std::move(f), argnum](const std::vector<Array>& args) {
    const size_t k = checked_argnum(argnum, args.size(), "jacfwd");
    const Array& x = args[k];
    check_real(x, "jacfwd", "the argument");
    const ArrayFn g = of_one(f, args, k);
    // Column i of each Jacobian: the tangent of the outputs along the i-th basis vector.
    const ArrayFn column = [g, x](const std::vector<Array>& t) { return jvp(g, {x}, t).second; };
    const std::vector<Array> columns = vmap(column)({basis_of(x)});  // each (x.size, *y_j.shape)
    std::vector<Array> jacobians;
    for (const Array& c : columns) {
      const Shape y_shape(c.shape().begin() + 1, c.shape().end());
      check_real(c, "jacfwd", "each output");
      const Array moved = moveaxis(c, {0}, {static_cast<int64_t>(c.ndim()) - 1});  // (*y_j.shape, x.size)
      jacobians.push_back(reshape(moved, joined(y_shape, x.shape())));
    }
    return jacobians;
  };
}

ArrayFn hessian(ArrayFn f, int argnum) {
  if (!f) throw_value_error("hessian", "the function is empty");
  ArrayFn gradient = [f, argnum](const std::vector<Array>& args) {
    auto outs = f(args);
    if (outs.empty() || outs[0].ndim() != 0)
      throw std::invalid_argument("[hessian] the function's first output must be a scalar (shape ())");
    return std::vector<Array>{outs[0]};
  };
  return jacfwd(jacrev(std::move(gradient), argnum), argnum);
}

}  // namespace loom
