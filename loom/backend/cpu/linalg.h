// CPU eval of the batched matrix product behind matmul/dot/einsum (ops/linalg.h owns the
// rules). float32/float64 go through a CBLAS (OpenBLAS) when the build found one.
#pragma once
#include "loom/array/array.h"

namespace loom::cpu_backend {

/// out[i] = a[i] @ b[i] for a (B, m, k), b (B, k, n), out contiguous (B, m, n), all of one
/// dtype, k >= 1; a and b have a BLAS layout (gemm_operand(x).ok, backend/gemm_layout.h).
/// Integers wrap around, bool is or-of-ands, float16/bfloat16 accumulate in float32.
void gemm(const Array& a, const Array& b, const Array& out);
/// "openblas", "blas" (the library CMake found) or "none" (loom's own loops).
const char* blas_name();

/// loom's cache-blocked loop (integers, bool, and floats when no BLAS is there); a and b
/// may have any strides. Exposed for the tests that check it against the BLAS path.
void gemm_loop(const Array& a, const Array& b, const Array& out);

}  // namespace loom::cpu_backend
