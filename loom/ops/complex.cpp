#include "loom/ops/complex.h"

#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"

namespace loom {

Array real(const Array& a) {
  if (!is_complex(a.dtype())) return a;
  return Array(a.buffer(), real_dtype(a.dtype()), a.shape(), a.strides(), a.offset());
}

Array imag(const Array& a) {
  if (!is_complex(a.dtype())) return zeros_like(a);
  // The imaginary part is the second half of each element (NumPy's and C's layout).
  const auto half = static_cast<int64_t>(a.itemsize() / 2);
  return Array(a.buffer(), real_dtype(a.dtype()), a.shape(), a.strides(), a.offset() + half);
}

Array angle(const Array& a, bool deg) {
  // NumPy's arctan2(0, a) for real a: its Python 0 makes a bool array int64 (so float64 out).
  const Array x = a.dtype() == bool_ ? a.astype(int64) : a;
  Array r = is_complex(x.dtype()) ? arctan2(imag(x), real(x)) : arctan2(zeros_like(x), x);
  if (deg) r = multiply(r, Operand(180.0 / 3.14159265358979323846));
  return r;
}

Array iscomplex(const Array& a) {
  if (!is_complex(a.dtype())) return zeros_like(a, bool_);
  return not_equal(imag(a), Operand(0));
}

Array isreal(const Array& a) {
  if (!is_complex(a.dtype())) return ones_like(a, bool_);
  return equal(imag(a), Operand(0));
}

}  // namespace loom
