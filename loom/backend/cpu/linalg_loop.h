// loom's own matrix-product loop, the CPU gemm's fallback (backend/cpu/linalg_loop.cpp).
#pragma once
#include "loom/array/array.h"

namespace loom::cpu_backend {

/// out[i] = a[i] @ b[i] with a cache-blocked loop (integers, bool, and floats when no BLAS
/// is there); a and b may have any strides. Exposed for the tests that check it against
/// the BLAS path.
void gemm_loop(const Array& a, const Array& b, const Array& out);

}  // namespace loom::cpu_backend
