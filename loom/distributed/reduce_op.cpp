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

void check_reduction_dtype(const char* op, DType t, ReduceOp r) {
  if (is_complex(t)) {
    if (r != ReduceOp::sum && r != ReduceOp::avg)
      throw_dtype_error(op, std::string(dtype_name(t)) + " arrays reduce with 'sum' or 'avg' only, not '" +
                                reduce_op_name(r) + "' (complex numbers have no order, and NCCL no complex product)");
    return;
  }
  if (r == ReduceOp::avg && !is_floating(t))
    throw_dtype_error(op, std::string("op='avg' needs a floating dtype, got ") + dtype_name(t) +
                              " (use 'sum' and divide)");
  if (t == DType::bool_ && r != ReduceOp::min && r != ReduceOp::max)
    throw_dtype_error(op, std::string("a bool array reduces with 'min' (and) or 'max' (or), not '") +
                              reduce_op_name(r) + "'");
}

Array as_reals_if_complex(const Array& x) {
  if (!is_complex(x.dtype())) return x;
  const DType part = real_dtype(x.dtype());
  return Array(x.buffer(), part, Shape{2 * x.size()}, Strides{static_cast<int64_t>(itemsize(part))}, x.offset());
}

}  // namespace loom::distributed
