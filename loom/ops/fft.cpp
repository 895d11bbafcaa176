// Rules of numpy.fft's one-axis transforms (backend/fft.h): the axis, n (zero-padding or
// truncation, done here with copies), NumPy 2's dtypes, the norm's factor, and the
// contiguous (outer, n, inner) layout the evals take, so that any axis is transformed in
// place of a transpose. hfft and ihfft are irfft and rfft of the conjugate, as in NumPy.
#include "loom/ops/fft.h"

#include <cmath>
#include <string>

#include "loom/ops/fft_primitives.h"
#include "loom/core/error.h"
#include "loom/dispatch/dispatch.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/fft_internal.h"
#include "loom/ops/shape_ops.h"

namespace loom::fft {
namespace detail {

Array slice_axis(const Array& a, int axis, int64_t start, int64_t stop) {
  Shape shape = a.shape();
  shape[axis] = stop - start;
  return a.view(shape, a.strides(), a.offset() + start * a.strides()[axis]);
}

std::string swap_direction(const char* op, const std::string& norm) {
  if (norm == "backward") return "forward";
  if (norm == "forward") return "backward";
  if (norm == "ortho") return norm;
  throw_value_error(op, "Invalid norm value " + norm + "; should be \"backward\", \"ortho\" or \"forward\".");
}

// Not in place (out=a): loom.jit's fusion of an in-place complex multiply followed by another
// elementwise op drops the imaginary parts (a jit bug outside this family); a new array is
// one allocation from the pool.
Array scaled(const Array& a, double scale) { return scale == 1.0 ? a : multiply(a, scale); }

namespace {

// NumPy's factor of a forward transform of n points under `norm` (an inverse one is the
// forward one of the swapped norm).
double factor(const char* op, const std::string& norm, int64_t n, bool forward) {
  const std::string nm = forward ? norm : swap_direction(op, norm);
  if (nm == "backward") return 1.0;
  if (nm == "ortho") return 1.0 / std::sqrt(static_cast<double>(n));
  if (nm == "forward") return 1.0 / static_cast<double>(n);
  throw_value_error(op, "Invalid norm value " + norm + "; should be \"backward\", \"ortho\" or \"forward\".");
}

bool single(DType t) { return t == DType::float32 || t == DType::float16 || t == DType::bfloat16; }

// The complex type a transform of `t` computes in: NumPy's result_type(t, 1j).
DType complex_of(DType t) {
  if (is_complex(t)) return t;
  return single(t) ? DType::complex64 : DType::complex128;
}

// The real type of an inverse real transform's result: result_type(t.real, 1.0).
DType real_result_of(DType t) {
  if (t == DType::complex64) return DType::float32;
  if (t == DType::complex128) return DType::float64;
  return is_floating(t) ? t : DType::float64;
}

struct Layout {
  int axis;
  int64_t n;
};

// The axis (AxisError as NumPy's normalize_axis_index) and n (ValueError below 1).
Layout layout(const char* op, const Array& a, std::optional<int64_t> n, int64_t axis, int64_t (*default_n)(int64_t)) {
  const int ax = normalize_axis(axis, a.ndim(), op);
  const int64_t len = n ? *n : default_n(a.shape()[ax]);
  if (len < 1) throw_value_error(op, "Invalid number of FFT data points (" + std::to_string(len) + ") specified.");
  return {ax, len};
}

int64_t same(int64_t m) { return m; }
int64_t doubled(int64_t m) { return (m - 1) * 2; }

// `a` as dtype `t` with `len` elements along `axis` (truncated, or zero-padded at the end),
// C-contiguous. `owned`: always a new array (c2r overwrites its input).
Array fit(const Array& a, DType t, int axis, int64_t len, bool owned) {
  const int64_t m = a.shape()[axis];
  if (m < len) {
    Shape shape = a.shape();
    shape[axis] = len;
    const Array r = zeros(shape, t, a.device());
    copyto(slice_axis(r, axis, 0, m), a);  // casts as it copies
    return r;
  }
  const Array src = m > len ? slice_axis(a, axis, 0, len) : a;
  if (src.dtype() != t) return src.astype(t);
  if (!src.is_contiguous()) return src.contiguous();
  return owned ? src.copy() : src;
}

// (outer, len, inner) around `axis` of `shape` with `len` along it.
Shape three_d(const Shape& shape, int axis, int64_t len) {
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; ++d) outer *= shape[d];
  for (size_t d = axis + 1; d < shape.size(); ++d) inner *= shape[d];
  return {outer, len, inner};
}

// Runs `f` (a dispatch); the backend's "[fft]" in an UnsupportedError becomes the op's name.
template <class F>
void run(const char* op, F&& f) {
  try {
    f();
  } catch (const UnsupportedError& e) {
    const std::string msg = e.what(), from = "[fft]";
    if (msg.rfind(from, 0) != 0) throw;
    throw UnsupportedError("[" + std::string(op) + "]" + msg.substr(from.size()));
  }
}

// Allocates the (outer, n_out, inner) result of `in` (already fitted) and dispatches `p`.
template <class P, class... Flags>
Array transform(const char* op, const P& p, const Array& in, int axis, int64_t n_in, int64_t n_out, DType out_t,
                Flags... flags) {
  Shape out_shape = in.shape();
  out_shape[axis] = n_out;
  const Array out = empty(out_shape, out_t, in.device());
  if (out.size() == 0) return out;
  const Array in3 = reshape(in, three_d(in.shape(), axis, n_in));
  const Array out3 = reshape(out, three_d(out_shape, axis, n_out));
  run(op, [&] { dispatch(p, {in3}, {out3}, in3, out3, flags...); });
  return out;
}

}  // namespace

Array c2c(const char* op, const Array& a, std::optional<int64_t> n, int64_t axis, bool inverse,
          const std::string& norm, double* scale) {
  const Layout l = layout(op, a, n, axis, same);
  *scale *= factor(op, norm, l.n, !inverse);
  const DType t = complex_of(a.dtype());
  const Array in = fit(a, t, l.axis, l.n, false);
  return transform(op, primitives::fft_c2c, in, l.axis, l.n, l.n, t, inverse);
}

Array r2c(const char* op, const Array& a, std::optional<int64_t> n, int64_t axis, const std::string& norm,
          double* scale) {
  if (is_complex(a.dtype()))
    throw_dtype_error(op, std::string("real input is required, not ") + dtype_name(a.dtype()) +
                              " (use fft for complex input)");
  const Layout l = layout(op, a, n, axis, same);
  *scale *= factor(op, norm, l.n, true);
  const DType t = single(a.dtype()) ? DType::float32 : DType::float64;
  const Array in = fit(a, t, l.axis, l.n, false);
  return transform(op, primitives::fft_r2c, in, l.axis, l.n, l.n / 2 + 1, complex_of(t));
}

Array c2r(const char* op, const Array& a, std::optional<int64_t> n, int64_t axis, const std::string& norm,
          double* scale) {
  const Layout l = layout(op, a, n, axis, doubled);
  *scale *= factor(op, norm, l.n, false);
  const DType t = complex_of(a.dtype());
  const DType real_t = t == DType::complex64 ? DType::float32 : DType::float64;
  const int64_t half = l.n / 2 + 1;
  const Array in = fit(a, t, l.axis, half, true);
  const Array out = transform(op, primitives::fft_c2r, in, l.axis, half, l.n, real_t);
  const DType result_t = real_result_of(a.dtype());  // float16 input gives float16, as NumPy
  return result_t == real_t ? out : out.astype(result_t);
}

}  // namespace detail

Array fft(const Array& a, std::optional<int64_t> n, int64_t axis, const std::string& norm) {
  double s = 1;
  const Array r = detail::c2c("fft.fft", a, n, axis, false, norm, &s);
  return detail::scaled(r, s);
}

Array ifft(const Array& a, std::optional<int64_t> n, int64_t axis, const std::string& norm) {
  double s = 1;
  const Array r = detail::c2c("fft.ifft", a, n, axis, true, norm, &s);
  return detail::scaled(r, s);
}

Array rfft(const Array& a, std::optional<int64_t> n, int64_t axis, const std::string& norm) {
  double s = 1;
  const Array r = detail::r2c("fft.rfft", a, n, axis, norm, &s);
  return detail::scaled(r, s);
}

Array irfft(const Array& a, std::optional<int64_t> n, int64_t axis, const std::string& norm) {
  double s = 1;
  const Array r = detail::c2r("fft.irfft", a, n, axis, norm, &s);
  return detail::scaled(r, s);
}

// hfft(a) = irfft(conj(a)) with the norm's direction swapped (NumPy's definition).
Array hfft(const Array& a, std::optional<int64_t> n, int64_t axis, const std::string& norm) {
  const char* op = "fft.hfft";
  const std::string swapped = detail::swap_direction(op, norm);
  double s = 1;
  const Array r = detail::c2r(op, is_complex(a.dtype()) ? conjugate(a) : a, n, axis, swapped, &s);
  return detail::scaled(r, s);
}

// ihfft(a) = conj(rfft(a)) with the norm's direction swapped.
Array ihfft(const Array& a, std::optional<int64_t> n, int64_t axis, const std::string& norm) {
  const char* op = "fft.ihfft";
  const std::string swapped = detail::swap_direction(op, norm);
  double s = 1;
  const Array r = conjugate(detail::r2c(op, a, n, axis, swapped, &s));
  return detail::scaled(r, s);
}

}  // namespace loom::fft
