// The NVRTC programs of the counting family (kernels/loom_counting.cuh) and the name
// expressions that pick their kernels. Per element dtype, three small programs, each
// compiled on first use: the plain one (min/max, counts), the weighted sums, and the
// per-element bins that the histogram's derivative reads.
#pragma once
#include <string>

#include "loom/core/dtype.h"
#include "loom/runtime/cuda/module_cache.h"

namespace loom::cuda {

/// What a program of the family holds besides min/max (plain only).
enum class CountingGroup { plain = 0, weighted = 1, bins = 2 };

/// Whether `dt` has programs: the integers, float16, float32 and float64 (bool is read as
/// uint8; ops/ casts bfloat16 and complex values away first).
bool counting_dtype(DType dt);
/// The program of element dtype `dt` (counting_dtype(dt)) for `group`.
const Program& counting_program(DType dt, CountingGroup group);

/// Name expressions. `w`: 0 counts, 1 float64 weights, 2 complex128 weights, 3 bins.
std::string minmax_partial_name(DType dt);
std::string minmax_final_name(DType dt);
std::string bincount_name(DType dt, int w);
/// The bin type is dt for floats and double for integers; `wide` only varies for
/// float16 and float32 (it changes nothing where the bin type is double).
std::string histogram_name(DType dt, bool wide, int w);

}  // namespace loom::cuda
