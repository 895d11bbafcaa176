// What the CPU decomposition evals share: LAPACK's int sizes, LinAlgError naming the batch
// index, the float32/float64 switch, and the error of a build without LAPACK.
#pragma once
#include <cstdint>
#include <string>

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

/// f(float{}) or f(double{}) by dtype (the op layer hands float32 or float64 only).
template <class F>
void for_float(DType t, F&& f) {
  if (t == DType::float32) f(float{});
  else f(double{});
}

[[noreturn]] inline void no_lapack(const char* op) {
  throw UnsupportedError(std::string("[linalg.") + op + "] loom was built without LAPACK (install libopenblas-dev)");
}

}  // namespace loom::cpu_backend::lapack
