// The reductions of all_reduce and reduce_scatter, as NCCL and torch.distributed name them.
#pragma once
#include <string>

#include "loom/array/array.h"

namespace loom::distributed {

enum class ReduceOp { sum, prod, min, max, avg };

/// "sum", "prod", "min", "max", "avg" (also "mean"); ValueError naming `op` otherwise.
ReduceOp reduce_op_from_name(const std::string& name, const char* op);
const char* reduce_op_name(ReduceOp r);

/// Raises a DTypeError naming `op` where `r` does not apply to dtype `t`: avg of integers,
/// bool with anything but min/max, complex with anything but sum/avg (as torch.distributed).
void check_reduction_dtype(const char* op, DType t, ReduceOp r);

/// What a transport reduces for the contiguous array `x`: x itself, or for a complex x a
/// view of its bytes as twice as many reals. Neither NCCL nor Gloo has complex types, and
/// sum and avg (the only complex reductions) act on real and imaginary parts alike.
Array as_reals_if_complex(const Array& x);

}  // namespace loom::distributed
