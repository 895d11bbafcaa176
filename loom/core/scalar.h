// A host scalar of any loom dtype, as passed to full(), arange() and kernels.
#pragma once
#include <cstdint>

#include "loom/core/dtype.h"

namespace loom {

/// A Python-like scalar: bool, signed int, unsigned int, float or complex. Converted to an
/// array dtype with NumPy's cast rules (see convert.h). A complex scalar keeps its real part
/// in `f` and its imaginary part in `im`.
struct Scalar {
  enum class Kind : uint8_t { boolean, int_, uint_, float_, complex_ } kind = Kind::int_;
  union {
    bool b;
    int64_t i;
    uint64_t u;
    double f;
  };
  double im = 0;  // the imaginary part of a complex scalar
  Scalar() : i(0) {}
  static Scalar complex(double re, double im) {
    Scalar s(re);
    s.kind = Kind::complex_;
    s.im = im;
    return s;
  }
  Scalar(bool v) : kind(Kind::boolean), b(v) {}
  Scalar(int v) : kind(Kind::int_), i(v) {}
  Scalar(long v) : kind(Kind::int_), i(v) {}
  Scalar(long long v) : kind(Kind::int_), i(v) {}
  Scalar(unsigned v) : kind(Kind::uint_), u(v) {}
  Scalar(unsigned long v) : kind(Kind::uint_), u(v) {}
  Scalar(unsigned long long v) : kind(Kind::uint_), u(v) {}
  Scalar(float v) : kind(Kind::float_), f(v) {}
  Scalar(double v) : kind(Kind::float_), f(v) {}

  /// The value as a double (a complex scalar's real part).
  double as_double() const {
    switch (kind) {
      case Kind::boolean: return b ? 1.0 : 0.0;
      case Kind::int_: return static_cast<double>(i);
      case Kind::uint_: return static_cast<double>(u);
      default: return f;
    }
  }
  /// The dtype NumPy gives this scalar alone: bool, int64, uint64 or float64.
  DType natural_dtype() const {
    switch (kind) {
      case Kind::boolean: return bool_;
      case Kind::int_: return int64;
      case Kind::uint_: return uint64;
      case Kind::complex_: return complex128;
      default: return float64;
    }
  }
  bool is_complex() const { return kind == Kind::complex_; }
};

/// Writes `v` converted to `dt` into `dst` (itemsize(dt) bytes), NumPy cast rules.
void scalar_to_bytes(const Scalar& v, DType dt, void* dst);
/// NumPy's rule for a float fill value of an integer array (np.array(v, dtype)): NaN is
/// std::invalid_argument ("[op] cannot convert float NaN to integer"), infinity and values
/// whose truncation is outside the dtype's range are std::overflow_error. A cast would
/// silently give 0 or a saturated value instead. Other kinds and dtypes pass.
void check_fill_value(const char* op, const Scalar& v, DType dt);
/// Reads one element of dtype `dt`.
Scalar scalar_from_bytes(const void* src, DType dt);

}  // namespace loom
