// CPU eval of elementwise ops (the op table's loops over any strided operands).
#pragma once
#include "loom/backend/elementwise_call.h"

namespace loom::cpu_backend {

/// Computes `call` into call.out: inputs cast to their loop dtypes and the result cast
/// to out's dtype in small buffers, rows split over the thread pool for large arrays.
void elementwise(const ElementwiseCall& call);

}  // namespace loom::cpu_backend
