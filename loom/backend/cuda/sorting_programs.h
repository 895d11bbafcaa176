// The NVRTC programs of the sorting family (kernels/loom_sorting.cuh) and the name
// expressions that pick their kernels. One small program per dtype (keys, searchsorted)
// and, per index width, one for sorts and one for unique (kernels that only move keys,
// indices or element bits), so a first sort compiles two programs of a few kernels each.
#pragma once
#include <string>

#include "loom/runtime/cuda/module_cache.h"
#include "loom/core/dtype.h"

namespace loom::cuda {

/// loom_sort_keys<T, unsigned int / unsigned long long> and loom_searchsorted<T> of `dt`
/// (complex dtypes: loom_searchsorted alone).
const Program& sort_dtype_program(DType dt);
/// Row numbers, gathers, argsort indices and the sorter check, for uint32 (index64 false)
/// or uint64 indices.
const Program& sort_index_program(bool index64);
/// unique's group flags, scatter and counts.
const Program& unique_program(bool index64);
/// select_ranks' radix selection (kernels/loom_select.cuh) for elements of `dt`.
const Program& select_program(DType dt);

/// Name expressions of the kernels (`bytes`: the element or key width, 1/2/4/8).
std::string sort_keys_name(DType dt, bool index64);
std::string searchsorted_name(DType dt);
std::string sort_rows_name(bool index64);
std::string sort_gather_name(size_t bytes, bool index64);
std::string sort_local_name(bool index64);
std::string unique_flags_name(size_t bytes, bool index64);
std::string unique_scatter_name(size_t bytes, bool index64);
inline std::string unique_counts_name() { return "loom_unique_counts"; }
inline std::string check_sorter_name() { return "loom_check_sorter"; }
/// Name expressions of select_program(dt)'s kernels.
struct SelectNames {
  std::string init, scan, hist, finish, chunk_counts, resolve;
};
SelectNames select_names(DType dt);

}  // namespace loom::cuda
