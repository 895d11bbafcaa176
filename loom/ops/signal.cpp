// Window functions, convolve/correlate and unwrap as compositions (ops/signal.h).
#include "loom/ops/signal.h"

#include <algorithm>
#include <cmath>

#include "loom/core/error.h"
#include "loom/core/shape.h"
#include "loom/ops/complex.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/indexing.h"
#include "loom/ops/math_parts.h"
#include "loom/ops/numeric.h"
#include "loom/ops/reduce.h"
#include "loom/ops/shape_ops.h"

namespace loom {
namespace {

constexpr double kPi = 3.14159265358979323846;

// NumPy's window abscissae n = 1 - M, 3 - M, ..., M - 1 over M - 1 (in [-1, 1]); or, for
// M < 2, the trivial windows (empty, [1.0]) in `trivial`.
bool trivial_window(int64_t M, std::optional<Device> device, Array* trivial) {
  if (M >= 2) return false;
  *trivial = M < 1 ? zeros({0}, DType::float64, device) : ones({1}, DType::float64, device);
  return true;
}
Array window_x(int64_t M, std::optional<Device> device) {
  return divide(arange(Scalar(1 - M), Scalar(M), Scalar(int64_t{2}), DType::float64, device), static_cast<double>(M - 1));
}

// The cosine-sum windows: a0 + a1 cos(pi x) + a2 cos(2 pi x).
Array cosine_window(int64_t M, double a0, double a1, double a2, std::optional<Device> device) {
  Array w;
  if (trivial_window(M, device, &w)) return w;
  const Array t = multiply(window_x(M, device), kPi);
  w = add(multiply(cos(t), a1), a0);
  return a2 == 0 ? w : add(w, multiply(cos(multiply(t, 2.0)), a2));
}

Array slice_1d(const Array& a, int64_t start, int64_t stop) {
  return getitem(a, {Index(Slice{start, stop, std::nullopt})});
}

void check_1d(const char* op, const Array& a, const Array& v) {
  if (a.ndim() != 1 || v.ndim() != 1)
    throw_value_error(op, "a and v must be one-dimensional, not of shapes " + shape_str(a.shape()) + " and " +
                              shape_str(v.shape()));
  if (a.size() == 0) throw_value_error(op, "a cannot be empty");
  if (v.size() == 0) throw_value_error(op, "v cannot be empty");
}

}  // namespace

Array bartlett(int64_t M, std::optional<Device> device) {
  Array w;
  if (trivial_window(M, device, &w)) return w;
  return subtract(1.0, absolute(window_x(M, device)));  // 1 + n/(M-1) below 0, 1 - n/(M-1) above
}
Array blackman(int64_t M, std::optional<Device> device) { return cosine_window(M, 0.42, 0.5, 0.08, device); }
Array hamming(int64_t M, std::optional<Device> device) { return cosine_window(M, 0.54, 0.46, 0.0, device); }
Array hanning(int64_t M, std::optional<Device> device) { return cosine_window(M, 0.5, 0.5, 0.0, device); }

Array kaiser(int64_t M, double beta, std::optional<Device> device) {
  Array w;
  if (trivial_window(M, device, &w)) return w;
  // i0(beta sqrt(1 - x^2)) / i0(beta) over x in [-1, 1].
  const Array x = window_x(M, device);
  const Array num = i0(multiply(sqrt(subtract(1.0, square(x))), beta));
  return divide(num, i0(full({}, beta, DType::float64, device)));
}

Array convolve(const Array& a_in, const Array& v_in, const std::string& mode) {
  // NumPy reads both inputs with ndmin=1: a 0-d one is one weight (np.correlate refuses it).
  const Array a = a_in.ndim() == 0 ? reshape(a_in, {1}) : a_in;
  const Array v = v_in.ndim() == 0 ? reshape(v_in, {1}) : v_in;
  check_1d("convolve", a, v);
  if (mode != "full" && mode != "same" && mode != "valid")
    throw_value_error("convolve", "mode must be 'full', 'same' or 'valid', not '" + mode + "'");
  // The longer input slides; the shorter one's elements are the weights (the convolution
  // is symmetric). out[k] = sum_j w[j] * x[k - j]: one shifted multiply-add per weight over
  // x padded with len(w) - 1 zeros on each side.
  const bool a_long = a.size() >= v.size();
  const Array& x = a_long ? a : v;
  const Array& w = a_long ? v : a;
  const int64_t n = x.size(), m = w.size(), full_len = n + m - 1;
  const DType t = promote_types(a.dtype(), v.dtype());
  const Array zpad = zeros({m - 1}, t, x.device());
  const Array xp = concatenate({zpad, x.astype(t), zpad}, 0);
  const Array wt = w.astype(t);
  Array out = zeros({full_len}, t, x.device());
  for (int64_t j = 0; j < m; ++j)
    out = add(out, multiply(slice_1d(xp, m - 1 - j, m - 1 - j + full_len), getitem(wt, {Index(j)})));
  if (mode == "full") return out;
  if (mode == "same") {
    const int64_t start = (m - 1) / 2;
    return slice_1d(out, start, start + n).contiguous();
  }
  return slice_1d(out, m - 1, n).contiguous();
}

Array correlate(const Array& a, const Array& v, const std::string& mode) {
  check_1d("correlate", a, v);
  if (mode != "full" && mode != "same" && mode != "valid")
    throw_value_error("correlate", "mode must be 'full', 'same' or 'valid', not '" + mode + "'");
  // sum_n a[n + k] conj(v[n]) is a's convolution with v reversed and conjugated.
  Array r = flip(v);
  if (is_complex(v.dtype())) r = conjugate(r);
  if (a.size() >= v.size() || mode == "full") return convolve(a, r, mode);
  // NumPy slides the shorter a along v here and gives the result reversed (and, for
  // complex input, conjugated): the same values as the full correlation's window.
  Array s = flip(convolve(v, is_complex(a.dtype()) ? conjugate(flip(a)) : flip(a), mode));
  return is_complex(s.dtype()) ? conjugate(s).contiguous() : s.contiguous();
}

Array unwrap(const Array& p, std::optional<double> discont, int64_t axis, double period) {
  const char* op = "unwrap";
  if (is_complex(p.dtype())) throw_dtype_error(op, "is not defined for complex input");
  if (p.ndim() == 0) throw_value_error(op, "p must be at least one-dimensional");
  const int ax = normalize_axis(axis, p.ndim(), op);
  const Array x = moveaxis(p, {ax}, {-1}).astype(
      is_floating(p.dtype()) ? p.dtype() : DType::float64);
  const int64_t n = x.shape().back();
  if (n < 2) return moveaxis(x.contiguous(), {-1}, {ax});
  const double high = period / 2, low = -high, dis = std::max(discont.value_or(high), high);
  const Index all{ellipsis};
  // NumPy takes the steps with diff in p's own dtype, then promotes them with the float
  // period: an unsigned step down wraps around there (uint8 7 -> 6 is +255), a bool step is
  // "differs" (diff's not_equal), and so here.
  const Array dd = diff(moveaxis(p, {ax}, {-1}), 1, -1).astype(x.dtype());
  // The jump's representative in [low, high); a jump of exactly +period/2 stays positive.
  Array ddmod = add(remainder(subtract(dd, low), period), low);
  ddmod = where(logical_and(equal(ddmod, low), greater(dd, 0)), high, ddmod);
  Array correct = where(less(absolute(dd), dis), 0.0, subtract(ddmod, dd));
  const Array tail = add(getitem(x, {all, Index(Slice{1, std::nullopt, std::nullopt})}),
                         cumsum(correct, x.ndim() - 1).astype(x.dtype()));
  const Array out = concatenate({getitem(x, {all, Index(Slice{0, 1, std::nullopt})}), tail}, x.ndim() - 1);
  return moveaxis(out, {-1}, {ax}).contiguous();
}

}  // namespace loom
