// The reductions of all_reduce and reduce_scatter, as NCCL and torch.distributed name them.
#pragma once
#include <string>

namespace loom::distributed {

enum class ReduceOp { sum, prod, min, max, avg };

/// "sum", "prod", "min", "max", "avg" (also "mean"); ValueError naming `op` otherwise.
ReduceOp reduce_op_from_name(const std::string& name, const char* op);
const char* reduce_op_name(ReduceOp r);

}  // namespace loom::distributed
