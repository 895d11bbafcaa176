// The NVRTC programs of the indexing family (kernels/loom_indexing.cuh, loom_indexing_nonzero.cuh),
// kept small: one for the bounds check, gathers and scatters, one per dtype for the
// scatter-combines of x.at[...], one for nonzero.
#pragma once
#include <string>

#include "loom/runtime/cuda/module_cache.h"
#include "loom/backend/indexing_plan.h"
#include "loom/core/dtype.h"

namespace loom::cuda {

/// loom_index_offsets, loom_index_gather<U>, loom_index_gather_direct<U> and
/// loom_index_scatter<U> (U: unsigned of 1-8 bytes, or the 16-byte complex carrier).
const Program& index_program();
const std::string& index_offsets_name();
const std::string& index_gather_name(size_t itemsize);
const std::string& index_gather_direct_name(size_t itemsize);
const std::string& index_scatter_name(size_t itemsize);

/// loom_index_combine<T, OP> for dtype `dt` and the four combining modes; for complex128's
/// multiply, min and max (no 16-byte atomics) loom_index_combine_runs<T, OP>, which folds the
/// runs of equal targets after loom_index_targets (in index_program) and a sort.
const Program& index_combine_program(DType dt);
const std::string& index_combine_name(DType dt, ScatterMode mode);
const std::string& index_targets_name();

/// loom_nonzero_count/write<U, F> for each (itemsize, float) and loom_nonzero_scan.
const Program& nonzero_program();
const std::string& nonzero_count_name(DType dt);
const std::string& nonzero_write_name(DType dt);
const std::string& nonzero_scan_name();

}  // namespace loom::cuda
