// What the CPU decomposition evals share: LAPACK's int sizes, LinAlgError naming the batch
// index, the float32/float64/complex64/complex128 switch, and the error of a build without
// LAPACK.
#pragma once
#include <complex>
#include <cstdint>
#include <string>
#include <type_traits>

#include "loom/core/dtype.h"
#include "loom/backend/linalg_decomp.h"
#include "loom/core/error.h"

namespace loom::cpu_backend::lapack {

inline int checked_int(int64_t v, const char* op) {
  if (v > INT32_MAX) throw UnsupportedError(std::string("[linalg.") + op + "] a dimension over 2^31-1");
  return static_cast<int>(v);
}

[[noreturn]] inline void raise(const char* op, const std::string& what, int64_t batch, int64_t batches) {
  raise_linalg_error(op, what, batch, batches);
}

/// f(float{}), f(double{}), f(std::complex<float>{}) or f(std::complex<double>{}) by dtype
/// (the op layer hands float32, float64, complex64 or complex128 only).
template <class F>
void for_type(DType t, F&& f) {
  switch (t) {
    case DType::float32: f(float{}); break;
    case DType::float64: f(double{}); break;
    case DType::complex64: f(std::complex<float>{}); break;
    default: f(std::complex<double>{}); break;
  }
}

/// The real type of T's values (T itself for float and double).
template <class T> struct real_of { using type = T; };
template <class T> struct real_of<std::complex<T>> { using type = T; };
template <class T> using real_t = typename real_of<T>::type;
template <class T> constexpr bool is_cplx_v = !std::is_same_v<T, real_t<T>>;


[[noreturn]] inline void no_lapack(const char* op) {
  throw UnsupportedError(std::string("[linalg.") + op + "] loom was built without LAPACK (install libopenblas-dev)");
}

}  // namespace loom::cpu_backend::lapack
