// The contract between loom/ops/reduce*.cpp and the backends' reduction evals
// (backend/reduce.h): what to compute and in which dtypes.
// The ops layer owns the rules (axes, dtype=, errors) and hands the backends a dense
// input viewed as [outer][len][inner] and a contiguous output [outer][inner].
#pragma once
#include <cstdint>

#include "loom/array/rebind.h"
#include "loom/core/dtype.h"

namespace loom {

enum class ReduceKind : uint8_t {
  sum, prod, min, max, any, all, argmin, argmax,
  mean,          // sum / divisor
  var,           // sum((x - mean)^2) / divisor (sqrt when ReduceParams::take_sqrt); two passes
  norm_l2,       // sqrt(sum(x * x))
  norm_l1,       // sum(|x|)
  norm_max_abs,  // max(|x|), 0 for an empty reduction (NumPy's initial=0)
  norm_min_abs,  // min(|x|)
  norm_l0,       // count of x != 0, as a float
  norm_p,        // sum(|x|^p)^(1/p)
};
constexpr int kNumReduceKinds = 16;

/// Inclusive scans (cumsum, cumprod).
enum class ScanKind : uint8_t { sum, prod };

/// The input, dense: element (o, r, i) at data + ((o * len + r) * inner + i) * itemsize.
struct ReduceGeometry {
  int64_t outer = 1, len = 1, inner = 1;
};

/// Run-time parameters of a reduction.
struct ReduceParams {
  double divisor = 1;      // mean: N; var: max(N - ddof, 0)
  double count = 1;        // var: N (the divisor of the first pass, the mean)
  double p = 2;            // norm_p
  bool take_sqrt = false;  // var -> std
};

template <>
struct PlainTraceArg<ReduceGeometry> : std::true_type {};
template <>
struct PlainTraceArg<ReduceParams> : std::true_type {};

/// "sum", "argmax", ... (messages, kernel names).
const char* reduce_kind_name(ReduceKind k);
/// True for the kinds that are only defined for float inputs (the norms).
bool reduce_kind_float_only(ReduceKind k);
/// The accumulator dtype of `kind` over input `in`: int64/uint64 for integer sums and
/// products, float32 for float16/bfloat16/float32 and float64 otherwise where a float is
/// needed; the input's own dtype for min/max, bool for any/all; argmin/argmax: `in`
/// (their accumulator pairs a value of `in` with an int64 index).
DType reduce_acc_dtype(ReduceKind kind, DType in);
/// The output dtype of `kind` over input `in` (NumPy 2's default result dtype).
DType reduce_out_dtype(ReduceKind kind, DType in);
/// Scans accumulate and return like sum/prod.
inline ReduceKind scan_reduce_kind(ScanKind k) { return k == ScanKind::sum ? ReduceKind::sum : ReduceKind::prod; }

}  // namespace loom
