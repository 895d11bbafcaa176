// loom's dtypes and reductions as NCCL's enums (nccl_api.h), shared by the process group's
// backend and the one-process device group.
#pragma once
#include <string>

#include "loom/core/dtype.h"
#include "loom/core/error.h"
#include "loom/distributed/cuda/nccl_api.h"
#include "loom/distributed/reduce_op.h"

namespace loom::distributed::nccl {

inline DataType data_type(DType t) {
  switch (t) {
    case DType::bool_:
    case DType::uint8: return kUint8;
    case DType::int8: return kInt8;
    case DType::int32: return kInt32;
    case DType::uint32: return kUint32;
    case DType::int64: return kInt64;
    case DType::uint64: return kUint64;
    case DType::float16: return kFloat16;
    case DType::bfloat16: return kBfloat16;
    case DType::float32: return kFloat32;
    case DType::float64: return kFloat64;
    default: throw_dtype_error("distributed", std::string("NCCL cannot reduce ") + dtype_name(t));
  }
}

inline RedOp red_op(ReduceOp r) {
  switch (r) {
    case ReduceOp::sum: return kSum;
    case ReduceOp::prod: return kProd;
    case ReduceOp::min: return kMin;
    case ReduceOp::max: return kMax;
    case ReduceOp::avg: return kAvg;
  }
  return kSum;
}

}  // namespace loom::distributed::nccl
