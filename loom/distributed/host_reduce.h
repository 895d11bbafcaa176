// Elementwise reductions of host memory for the CPU transport (Gloo takes them as plain
// functions): out[i] = a[i] (op) b[i] for every loom dtype, half types through float.
#pragma once
#include <cstddef>
#include <functional>

#include "loom/core/dtype.h"
#include "loom/distributed/reduce_op.h"

namespace loom::distributed {

using HostReduceFn = void (*)(void* out, const void* a, const void* b, size_t n);

/// avg reduces as sum (the caller divides afterwards: scale_host).
HostReduceFn host_reduce_fn(DType t, ReduceOp op);
/// x[i] /= divisor, for floating dtypes (avg's last step).
void scale_host(void* x, DType t, size_t n, double divisor);

}  // namespace loom::distributed
