// numpy.fft's multi-axis transforms as compositions of the one-axis ones (ops/fft.cpp), in
// NumPy's order (_raw_fftnd: the last axis first; rfftn: rfft on the last axis, then fft on
// the others; irfftn: ifft on the others, then irfft on the last), with the norm's factors
// multiplied together and applied once at the end.
#include <string>

#include "loom/core/error.h"
#include "loom/ops/fft.h"
#include "loom/ops/fft_internal.h"

namespace loom::fft {
namespace {

struct Cooked {
  std::vector<int64_t> s, axes;
};

// NumPy's _cook_nd_args: s defaults to the axes' lengths, axes to the last len(s) axes;
// -1 in s means the axis' length; `invreal` (irfftn) makes the last default 2 * (m - 1).
Cooked cook(const char* op, const Array& a, const OptionalInts& s, const OptionalInts& axes, bool invreal) {
  auto length = [&](int64_t axis) {
    if (axis < -a.ndim() || axis >= a.ndim())
      throw std::out_of_range(std::string("[") + op + "] index " + std::to_string(axis) +
                              " is out of bounds for axis 0 with size " + std::to_string(a.ndim()));
    return a.shape()[axis < 0 ? axis + a.ndim() : axis];
  };
  Cooked c;
  if (axes) {
    c.axes = *axes;
  } else {
    const int64_t k = s ? static_cast<int64_t>(s->size()) : a.ndim();
    for (int64_t i = -k; i < 0; ++i) c.axes.push_back(i);
  }
  if (s) {
    c.s = *s;
  } else {
    for (int64_t ax : c.axes) c.s.push_back(length(ax));
  }
  if (c.s.size() != c.axes.size()) throw_value_error(op, "Shape and axes have different lengths.");
  if (invreal && !s && !c.axes.empty()) c.s.back() = (length(c.axes.back()) - 1) * 2;
  for (size_t i = 0; i < c.s.size(); ++i)
    if (c.s[i] == -1) c.s[i] = length(c.axes[i]);
  return c;
}

Array c2c_nd(const char* op, const Array& a, const OptionalInts& s, const OptionalInts& axes,
             const std::string& norm, bool inverse) {
  const Cooked c = cook(op, a, s, axes, false);
  if (c.axes.empty()) return a;  // NumPy returns its input as it is
  double scale = 1;
  Array r = a;
  for (size_t i = c.axes.size(); i-- > 0;) r = detail::c2c(op, r, c.s[i], c.axes[i], inverse, norm, &scale);
  return detail::scaled(r, scale);
}

[[noreturn]] void no_axes(const char* op) {
  throw std::out_of_range(std::string("[") + op + "] at least one axis is needed");
}

Array real_nd(const char* op, const Array& a, const OptionalInts& s, const OptionalInts& axes,
              const std::string& norm) {
  const Cooked c = cook(op, a, s, axes, false);
  if (c.axes.empty()) no_axes(op);
  double scale = 1;
  Array r = detail::r2c(op, a, c.s.back(), c.axes.back(), norm, &scale);
  for (size_t i = c.axes.size() - 1; i-- > 0;) r = detail::c2c(op, r, c.s[i], c.axes[i], false, norm, &scale);
  return detail::scaled(r, scale);
}

Array inverse_real_nd(const char* op, const Array& a, const OptionalInts& s, const OptionalInts& axes,
                      const std::string& norm) {
  const Cooked c = cook(op, a, s, axes, true);
  if (c.axes.empty()) no_axes(op);
  double scale = 1;
  Array r = a;
  for (size_t i = 0; i + 1 < c.axes.size(); ++i) r = detail::c2c(op, r, c.s[i], c.axes[i], true, norm, &scale);
  r = detail::c2r(op, r, c.s.back(), c.axes.back(), norm, &scale);
  return detail::scaled(r, scale);
}

}  // namespace

Array fftn(const Array& a, const OptionalInts& s, const OptionalInts& axes, const std::string& norm) {
  return c2c_nd("fft.fftn", a, s, axes, norm, false);
}

Array ifftn(const Array& a, const OptionalInts& s, const OptionalInts& axes, const std::string& norm) {
  return c2c_nd("fft.ifftn", a, s, axes, norm, true);
}

Array rfftn(const Array& a, const OptionalInts& s, const OptionalInts& axes, const std::string& norm) {
  return real_nd("fft.rfftn", a, s, axes, norm);
}

Array irfftn(const Array& a, const OptionalInts& s, const OptionalInts& axes, const std::string& norm) {
  return inverse_real_nd("fft.irfftn", a, s, axes, norm);
}

Array fft2(const Array& a, const OptionalInts& s, const std::vector<int64_t>& axes, const std::string& norm) {
  return c2c_nd("fft.fft2", a, s, axes, norm, false);
}

Array ifft2(const Array& a, const OptionalInts& s, const std::vector<int64_t>& axes, const std::string& norm) {
  return c2c_nd("fft.ifft2", a, s, axes, norm, true);
}

Array rfft2(const Array& a, const OptionalInts& s, const std::vector<int64_t>& axes, const std::string& norm) {
  return real_nd("fft.rfft2", a, s, axes, norm);
}

Array irfft2(const Array& a, const OptionalInts& s, const std::vector<int64_t>& axes, const std::string& norm) {
  return inverse_real_nd("fft.irfft2", a, s, axes, norm);
}

}  // namespace loom::fft
