// numpy's NaN-ignoring reductions (ops/nan_reduce.cpp): nansum, nanprod, nanmean, nanvar,
// nanstd, nanmax, nanmin, nanargmax, nanargmin, as compositions of the reductions (every
// device). Integer and bool arrays hold no NaN: they reduce as sum, max, ... do.
#pragma once
#include <optional>

#include "loom/ops/reduce.h"

namespace loom {

Array nansum(const Array& a, const AxisArg& axis = std::nullopt, bool keepdims = false,
             std::optional<DType> dtype = std::nullopt);
Array nanprod(const Array& a, const AxisArg& axis = std::nullopt, bool keepdims = false,
              std::optional<DType> dtype = std::nullopt);
/// NaN for a slice of NaNs only (NumPy also warns).
Array nanmean(const Array& a, const AxisArg& axis = std::nullopt, bool keepdims = false,
              std::optional<DType> dtype = std::nullopt);
/// Divisor (non-NaN count - ddof); NaN where that is not positive.
Array nanvar(const Array& a, const AxisArg& axis = std::nullopt, bool keepdims = false,
             std::optional<DType> dtype = std::nullopt, double ddof = 0);
Array nanstd(const Array& a, const AxisArg& axis = std::nullopt, bool keepdims = false,
             std::optional<DType> dtype = std::nullopt, double ddof = 0);
/// NaN for a slice of NaNs only (NumPy also warns); ValueError for an empty reduction.
Array nanmax(const Array& a, const AxisArg& axis = std::nullopt, bool keepdims = false);
Array nanmin(const Array& a, const AxisArg& axis = std::nullopt, bool keepdims = false);
/// ValueError "All-NaN slice encountered" for a slice of NaNs only (waits for the device).
Array nanargmax(const Array& a, std::optional<int64_t> axis = std::nullopt, bool keepdims = false);
Array nanargmin(const Array& a, std::optional<int64_t> axis = std::nullopt, bool keepdims = false);

}  // namespace loom
