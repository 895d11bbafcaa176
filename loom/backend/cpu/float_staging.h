// The float32 staging of the CPU evals that compute only in float32 and float64 (conv,
// pool): 16-bit operands are widened once, the result computed in float32 and rounded once
// into `out`, as cpu/linalg.cpp does for its products.
#pragma once
#include "loom/array/array.h"
#include "loom/backend/creation.h"
#include "loom/core/error.h"

namespace loom::cpu_backend {

/// `a` itself, or a float32 copy of it when it is float16/bfloat16.
inline Array widened(const Array& a) {
  if (a.dtype() != DType::float16 && a.dtype() != DType::bfloat16) return a;
  Array f = Array::allocate(a.shape(), float32, a.device());
  convert(a, f);
  return f;
}

/// Calls body(out, T{}, ins...) with T = float or double for out's dtype; 16-bit outputs run
/// as float32 on widened inputs into a float32 `out` that is then rounded into the real one.
/// Empty outputs do nothing; other dtypes raise DTypeError naming `who`.
template <class Body, class... Arrays>
void in_float(const char* who, const Array& out, Body body, const Arrays&... ins) {
  if (out.size() == 0) return;
  const DType t = out.dtype();
  if (t == DType::float16 || t == DType::bfloat16) {
    const Array tmp = Array::allocate(out.shape(), float32, out.device());
    body(tmp, float{}, widened(ins)...);
    convert(tmp, out);
  } else if (t == DType::float32) {
    body(out, float{}, ins...);
  } else if (t == DType::float64) {
    body(out, double{}, ins...);
  } else {
    throw_dtype_error(who, "needs a floating dtype");
  }
}

}  // namespace loom::cpu_backend
