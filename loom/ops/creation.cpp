#include "loom/ops/creation.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "loom/ops/creation_primitives.h"
#include "loom/core/error.h"
#include "loom/dispatch/dispatch.h"

namespace loom {
namespace {

Device resolve(const std::optional<Device>& d) { return d ? *d : default_device(); }

void fill_any(const Array& out, const Scalar& v) {
  if (out.size() == 0) return;
  dispatch(primitives::full, {}, {out}, out, v);
}

}  // namespace

Array empty(const Shape& shape, DType dtype, std::optional<Device> device) {
  return Array::allocate(shape, dtype, resolve(device));
}

Array zeros(const Shape& shape, DType dtype, std::optional<Device> device) {
  return full(shape, Scalar(0), dtype, device);
}

Array ones(const Shape& shape, DType dtype, std::optional<Device> device) {
  return full(shape, Scalar(1), dtype, device);
}

Array full(const Shape& shape, const Scalar& value, DType dtype, std::optional<Device> device) {
  check_fill_value("full", value, dtype);
  Array out = Array::allocate(shape, dtype, resolve(device));
  fill_any(out, value);
  return out;
}

Array empty_like(const Array& a, std::optional<DType> dtype, std::optional<Device> device) {
  return empty(a.shape(), dtype.value_or(a.dtype()), device ? device : a.device());
}

Array zeros_like(const Array& a, std::optional<DType> dtype, std::optional<Device> device) {
  return zeros(a.shape(), dtype.value_or(a.dtype()), device ? device : a.device());
}

Array ones_like(const Array& a, std::optional<DType> dtype, std::optional<Device> device) {
  return ones(a.shape(), dtype.value_or(a.dtype()), device ? device : a.device());
}

Array full_like(const Array& a, const Scalar& value, std::optional<DType> dtype,
                std::optional<Device> device) {
  check_fill_value("full_like", value, dtype.value_or(a.dtype()));
  return full(a.shape(), value, dtype.value_or(a.dtype()), device ? device : a.device());
}

Array arange(const Scalar& start, const Scalar& stop, const Scalar& step, DType dtype,
             std::optional<Device> device) {
  const double d_start = start.as_double(), d_stop = stop.as_double(), d_step = step.as_double();
  if (d_step == 0) throw_value_error("arange", "step must not be zero");
  if (!std::isfinite(d_start) || !std::isfinite(d_stop) || !std::isfinite(d_step)) {
    throw_value_error("arange", "arange needs finite start, stop and step");
  }
  // Length as NumPy computes it: ceil((stop - start) / step), at least 0.
  int64_t n;
  if (start.kind != Scalar::Kind::float_ && stop.kind != Scalar::Kind::float_ &&
      step.kind != Scalar::Kind::float_ && start.kind != Scalar::Kind::uint_ &&
      stop.kind != Scalar::Kind::uint_ && step.kind != Scalar::Kind::uint_) {
    // Exact integer arithmetic, so that huge int64 ranges get the right length.
    const int64_t a = start.kind == Scalar::Kind::boolean ? start.b : start.i;
    const int64_t b = stop.kind == Scalar::Kind::boolean ? stop.b : stop.i;
    const int64_t s = step.kind == Scalar::Kind::boolean ? step.b : step.i;
    const __int128 span = static_cast<__int128>(b) - a;
    __int128 q = span / s;
    if (q * s != span && ((span > 0) == (s > 0))) ++q;
    n = q > 0 ? static_cast<int64_t>(q) : 0;
  } else {
    const double len = std::ceil((d_stop - d_start) / d_step);
    if (!(len < 9.2e18)) throw_value_error("arange", "maximum allowed size exceeded");
    n = len > 0 ? static_cast<int64_t>(len) : 0;
  }
  if (dtype == bool_ && n > 2) throw_dtype_error("arange", "no fill-function for data-type bool with more than 2 elements");
  Array out = Array::allocate({n}, dtype, resolve(device));
  if (n == 0) return out;
  // The second value is start + step computed in the arguments' own type, as NumPy.
  Scalar second;
  if (start.kind == Scalar::Kind::float_ || step.kind == Scalar::Kind::float_ ||
      start.kind == Scalar::Kind::uint_ || step.kind == Scalar::Kind::uint_) {
    second = Scalar(d_start + d_step);
  } else {
    second = Scalar(static_cast<long long>((start.kind == Scalar::Kind::boolean ? start.b : start.i) +
                                           (step.kind == Scalar::Kind::boolean ? step.b : step.i)));
  }
  dispatch(primitives::arange, {}, {out}, out, start, second);
  return out;
}

Array linspace(double start, double stop, int64_t num, bool endpoint, DType dtype,
               std::optional<Device> device) {
  if (num < 0) throw_value_error("linspace", "number of samples, " + std::to_string(num) + ", must be non-negative");
  Array out = Array::allocate({num}, dtype, resolve(device));
  if (num == 0) return out;
  const int64_t div = endpoint ? num - 1 : num;
  const double delta = stop - start;
  // NumPy: step = delta / div; a zero div multiplies by delta instead (only i = 0 exists).
  const double step = div > 0 ? delta / static_cast<double>(div) : delta;
  if (step == 0 && delta != 0) {
    // NumPy's gh-5437: a step that underflows to 0 (subnormal deltas) becomes
    // (i / div) * delta instead. Rare and tiny: written on the host, copied once.
    std::vector<double> v(static_cast<size_t>(num));
    for (int64_t i = 0; i < num; ++i) v[static_cast<size_t>(i)] = static_cast<double>(i) / static_cast<double>(div) * delta + start;
    if (endpoint && num > 1) v.back() = stop;
    return from_host(HostView{v.data(), DType::float64, {num}, {8}}, device.has_value() ? device : std::optional<Device>(out.device()))
        .astype(dtype);
  }
  dispatch(primitives::linspace, {}, {out}, out, start, step, stop, endpoint);
  return out;
}

Array eye(int64_t n, std::optional<int64_t> m, int64_t k, DType dtype, std::optional<Device> device) {
  const int64_t cols = m.value_or(n);
  if (n < 0 || cols < 0) throw_value_error("eye", "negative dimensions are not allowed");
  Array out = Array::allocate({n, cols}, dtype, resolve(device));
  if (out.size() == 0) return out;
  // A diagonal at or beyond either edge holds no element: clamped there, the evals'
  // row + k cannot overflow for any k.
  k = std::clamp(k, -n, cols);
  dispatch(primitives::eye, {}, {out}, out, k);
  return out;
}

Array identity(int64_t n, DType dtype, std::optional<Device> device) {
  return eye(n, std::nullopt, 0, dtype, device);
}

Array from_host(const HostView& src, std::optional<Device> device) {
  Array out = Array::allocate(src.shape, src.dtype, resolve(device));
  if (out.size() == 0) return out;
  dispatch(primitives::from_host, {}, {out}, src, out);
  return out;
}

}  // namespace loom
