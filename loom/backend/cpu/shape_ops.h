// CPU evals of the shape family's gather (repeat with unequal counts).
#pragma once
#include <cstdint>

#include "loom/array/array.h"

namespace loom::cpu_backend {

/// Row gather: dst viewed as (outer, m, inner) gets dst[o, j, :] = src[o, idx[j], :], with
/// src (contiguous) viewed as (outer, n, inner). Both share a dtype; idx[j] in [0, n).
void take_rows(const Array& src, const int64_t* idx, const Array& dst, int64_t outer, int64_t n,
               int64_t m, int64_t inner);

}  // namespace loom::cpu_backend
