#include "loom/backend/reduce_kinds.h"

namespace loom {
namespace {

bool small_float(DType dt) { return dt == float16 || dt == bfloat16; }

// Float accumulator of the float-valued kinds: float32 for the float32 family, float64 else.
DType float_acc(DType in) { return small_float(in) || in == float32 ? float32 : float64; }

}  // namespace

const char* reduce_kind_name(ReduceKind k) {
  static const char* const names[kNumReduceKinds] = {
      "sum",  "prod", "min",     "max",     "any",          "all",          "argmin",  "argmax",
      "mean", "var",  "norm_l2", "norm_l1", "norm_max_abs", "norm_min_abs", "norm_l0", "norm_p"};
  return names[static_cast<int>(k)];
}

bool reduce_kind_float_only(ReduceKind k) { return k >= ReduceKind::norm_l2; }

DType reduce_acc_dtype(ReduceKind kind, DType in) {
  switch (kind) {
    case ReduceKind::sum:
    case ReduceKind::prod:
      if (in == bool_) return int64;
      if (dtype_kind(in) == DTypeKind::signed_int) return int64;
      if (dtype_kind(in) == DTypeKind::unsigned_int) return uint64;
      if (is_complex(in)) return in;  // NumPy sums complex64 in complex64
      return float_acc(in);
    case ReduceKind::min:
    case ReduceKind::max:
    case ReduceKind::argmin:
    case ReduceKind::argmax:
      return in;
    case ReduceKind::any:
    case ReduceKind::all:
      return bool_;
    default:
      return float_acc(in);
  }
}

DType reduce_out_dtype(ReduceKind kind, DType in) {
  switch (kind) {
    case ReduceKind::sum:
    case ReduceKind::prod:
      return is_floating(in) || is_complex(in) ? in : reduce_acc_dtype(kind, in);
    case ReduceKind::min:
    case ReduceKind::max:
      return in;
    case ReduceKind::argmin:
    case ReduceKind::argmax:
      return int64;
    case ReduceKind::any:
    case ReduceKind::all:
      return bool_;
    default:
      return is_floating(in) ? in : float64;
  }
}

}  // namespace loom
