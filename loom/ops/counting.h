// numpy's bincount and histogram with a number of equal bins (ops/counting.cpp), over the
// counting family's primitives (backend/counting.h), with NumPy's answers to the bit: the
// edges in NumPy's bin dtype, each value's bin by NumPy's arithmetic. Also NumPy's outer
// edges and equal-bin edges, which histogram_bin_edges and histogramdd share.
#pragma once
#include <optional>
#include <utility>

#include "loom/array/array.h"

namespace loom {

/// Occurrences (or summed weights) of each value of non-negative 1-d integers x, at least
/// minlength bins (waits for the device to learn min(x) and max(x), one read).
Array bincount(const Array& x, const std::optional<Array>& weights = std::nullopt, int64_t minlength = 0);
/// Counts (or summed weights, in weights' dtype; density: normalised) of a's values in
/// `bins` equal bins over [lo, hi] (a's range when unset: one read of min and max), the
/// last bin closed; returns (hist, edges), edges in NumPy's bin dtype (a's for floats,
/// float64 for integers).
std::pair<Array, Array> histogram(const Array& a, int64_t bins = 10, std::optional<std::pair<double, double>> range = std::nullopt,
                                  const std::optional<Array>& weights = std::nullopt, bool density = false);

/// NumPy's outer edges of equal bins over a 1-d array and the dtypes it computes them in
/// (numpy/lib/_histograms_impl.py: _get_outer_edges, _get_bin_edges).
struct UniformBins {
  DType bin_type = DType::float64;  // the edges' dtype
  DType compute = DType::float64;   // linspace's: bin_type from the data's range, float64 from Python numbers
  double first = 0, last = 1;       // the outer edges, values of `compute`
  double denom = 1;                 // NumPy's norm_denom: last - first as NumPy computes it
  bool wide = true;                 // NumPy divides by denom in float64 (else in bin_type)
};
/// The outer edges of a histogram of `flat` (1-d, contiguous, a real dtype; bool read as
/// uint8, bfloat16 as float32): `range` (Python numbers), or the data's min and max (one
/// read from the device), widened by 0.5 when equal; NumPy's ValueErrors for a reversed or
/// non-finite range.
UniformBins uniform_bins(const Array& flat, std::optional<std::pair<double, double>> range, const char* op);
/// numpy.linspace(u.first, u.last, count + 1) computed in u.compute as NumPy computes it,
/// cast to `bin_type`, on `device` (computed on the host and uploaded); NumPy's ValueError
/// when the edges do not increase ("Too many bins for data range").
Array uniform_edges(const UniformBins& u, DType bin_type, int64_t count, const Device& device, const char* op);

}  // namespace loom
