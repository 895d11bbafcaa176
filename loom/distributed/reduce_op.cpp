#include "loom/distributed/reduce_op.h"

#include "loom/core/error.h"

namespace loom::distributed {

ReduceOp reduce_op_from_name(const std::string& name, const char* op) {
  if (name == "sum") return ReduceOp::sum;
  if (name == "prod" || name == "product") return ReduceOp::prod;
  if (name == "min") return ReduceOp::min;
  if (name == "max") return ReduceOp::max;
  if (name == "avg" || name == "mean") return ReduceOp::avg;
  throw_value_error(op, "op must be 'sum', 'prod', 'min', 'max' or 'avg', got '" + name + "'");
}

const char* reduce_op_name(ReduceOp r) {
  switch (r) {
    case ReduceOp::sum: return "sum";
    case ReduceOp::prod: return "prod";
    case ReduceOp::min: return "min";
    case ReduceOp::max: return "max";
    case ReduceOp::avg: return "avg";
  }
  return "?";
}

}  // namespace loom::distributed
