// numpy.fft's helpers as compositions of existing ops: the sample frequencies (int64 ramps
// times 1 / (n * d), float64 as NumPy) and the shifts (a roll by half of each axis: two
// slices joined per axis).
#include <string>

#include "loom/core/error.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/fft.h"
#include "loom/ops/fft_internal.h"
#include "loom/ops/shape_ops.h"

namespace loom::fft {
namespace {

double spacing(const char* op, int64_t n, double d) {
  if (n < 0) throw_value_error(op, "negative dimensions are not allowed");
  if (static_cast<double>(n) * d == 0) throw_value_error(op, "float division by zero (n * d is 0)");
  return 1.0 / (static_cast<double>(n) * d);
}

// np.roll(x, shifts, axes): repeated axes add their shifts, as NumPy's roll; a new array.
Array roll(const char* op, const Array& x, const std::vector<int64_t>& axes, const std::vector<int64_t>& shifts) {
  std::vector<int64_t> total(x.ndim(), 0);
  for (size_t i = 0; i < axes.size(); ++i) total[normalize_axis(axes[i], x.ndim(), op)] += shifts[i];
  Array r = x;
  bool copied = false;
  for (int ax = 0; ax < x.ndim(); ++ax) {
    const int64_t dim = x.shape()[ax];
    if (dim == 0) continue;
    const int64_t k = ((total[ax] % dim) + dim) % dim;  // the last k elements come first
    if (k == 0) continue;
    r = concatenate({detail::slice_axis(r, ax, dim - k, dim), detail::slice_axis(r, ax, 0, dim - k)}, ax);
    copied = true;
  }
  return copied ? r : x.copy();
}

Array shift(const char* op, const Array& x, const OptionalInts& axes, bool inverse) {
  // NumPy's roll fails on 0-d input whatever the axes (a ValueError from its index loop).
  if (x.ndim() == 0) throw_value_error(op, "a 0-d array has no axes to shift");
  std::vector<int64_t> ax, by;
  if (axes) {
    ax = *axes;
  } else {
    for (int d = 0; d < x.ndim(); ++d) ax.push_back(d);
  }
  for (int64_t a : ax) {
    const int64_t half = x.shape()[normalize_axis(a, x.ndim(), op)] / 2;
    by.push_back(inverse ? -half : half);
  }
  return roll(op, x, ax, by);
}

}  // namespace

Array fftfreq(int64_t n, double d, std::optional<Device> device) {
  const double val = spacing("fft.fftfreq", n, d);
  const int64_t positive = (n - 1) / 2 + 1;
  const Array k = concatenate({arange(Scalar(int64_t{0}), Scalar(positive), Scalar(int64_t{1}), DType::int64, device),
                               arange(Scalar(-(n / 2)), Scalar(int64_t{0}), Scalar(int64_t{1}), DType::int64, device)},
                              0);
  return multiply(k, val);
}

Array rfftfreq(int64_t n, double d, std::optional<Device> device) {
  const double val = spacing("fft.rfftfreq", n, d);
  return multiply(arange(Scalar(int64_t{0}), Scalar(n / 2 + 1), Scalar(int64_t{1}), DType::int64, device), val);
}

Array fftshift(const Array& x, const OptionalInts& axes) { return shift("fft.fftshift", x, axes, false); }

Array ifftshift(const Array& x, const OptionalInts& axes) { return shift("fft.ifftshift", x, axes, true); }

}  // namespace loom::fft
