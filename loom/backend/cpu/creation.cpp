// fill, arange, linspace and eye on cpu() arrays, following NumPy's fill rules.
#include <cmath>
#include <cstring>

#include "loom/core/cast.h"
#include "loom/backend/creation.h"

namespace loom::cpu_backend {

void fill(const Array& out, const Scalar& value) {
  alignas(16) unsigned char bytes[16];
  scalar_to_bytes(value, out.dtype(), bytes);
  const int64_t n = out.size();
  switch (out.itemsize()) {
    case 1: std::memset(out.data(), bytes[0], n); break;
    case 2: {
      uint16_t v; std::memcpy(&v, bytes, 2);
      auto* p = static_cast<uint16_t*>(out.data());
      for (int64_t i = 0; i < n; ++i) p[i] = v;
      break;
    }
    case 4: {
      uint32_t v; std::memcpy(&v, bytes, 4);
      auto* p = static_cast<uint32_t*>(out.data());
      for (int64_t i = 0; i < n; ++i) p[i] = v;
      break;
    }
    case 8: {
      uint64_t v; std::memcpy(&v, bytes, 8);
      auto* p = static_cast<uint64_t*>(out.data());
      for (int64_t i = 0; i < n; ++i) p[i] = v;
      break;
    }
    default: {  // complex128
      auto* p = static_cast<unsigned char*>(out.data());
      for (int64_t i = 0; i < n; ++i) std::memcpy(p + 16 * i, bytes, 16);
    }
  }
}

void arange(const Array& out, const Scalar& first, const Scalar& second) {
  dispatch_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    T* p = static_cast<T*>(out.data());
    const int64_t n = out.size();
    T a, b;
    scalar_to_bytes(first, out.dtype(), &a);
    scalar_to_bytes(second, out.dtype(), &b);
    if (n > 0) p[0] = a;
    if (n > 1) p[1] = b;
    if constexpr (is_f16<T>) {
      const float start = f16_to_float(a), delta = f16_to_float(b) - start;
      for (int64_t i = 2; i < n; ++i) p[i] = cast<T>(start + static_cast<float>(i) * delta);
    } else if constexpr (std::is_same_v<T, bool>) {
      // NumPy has no fill for bool; the op layer allows at most two elements.
    } else {
      const T delta = static_cast<T>(b - a);
      for (int64_t i = 2; i < n; ++i) p[i] = static_cast<T>(a + static_cast<T>(i) * delta);
    }
  });
}

void linspace(const Array& out, double start, double step, double stop, bool endpoint) {
  // NumPy floors for integer dtypes only; bool takes value != 0 of the float.
  const bool integral = is_integer(out.dtype());
  dispatch_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    T* p = static_cast<T*>(out.data());
    const int64_t n = out.size();
    for (int64_t i = 0; i < n; ++i) {
      double v = static_cast<double>(i) * step + start;
      if (endpoint && n > 1 && i == n - 1) v = stop;
      if (integral) v = std::floor(v);
      p[i] = cast<T>(v);
    }
  });
}

void eye(const Array& out, int64_t k) {
  fill(out, Scalar(0));
  const int64_t rows = out.shape()[0], cols = out.shape()[1];
  alignas(16) unsigned char one[16];
  scalar_to_bytes(Scalar(1), out.dtype(), one);
  char* base = static_cast<char*>(out.data());
  const size_t item = out.itemsize();
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t c = r + k;
    if (c >= 0 && c < cols) std::memcpy(base + (r * cols + c) * item, one, item);
  }
}

}  // namespace loom::cpu_backend
