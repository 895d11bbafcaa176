// numpy's histogram_bin_edges (counts and NumPy's estimators), histogram over given edges,
// histogramdd and histogram2d (ops/histograms.cpp): searchsorted into the edges and a
// scatter-add, on every device. (histogram with an integer bin count is in sets_counts.h.)
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "loom/array/array.h"

namespace loom {

/// How bins are given: a count of equal bins, monotonically increasing edges, or the
/// name of one of NumPy's estimators ("auto", "fd", "doane", "scott", "rice", "sturges",
/// "sqrt").
struct HistogramBins {
  std::optional<int64_t> count;
  std::optional<Array> edges;
  std::string estimator;
};

/// The edges numpy.histogram would use for a's values (flattened) within `range` (a's
/// range when unset). Estimators and unset ranges wait for the device.
Array histogram_bin_edges(const Array& a, const HistogramBins& bins,
                          std::optional<std::pair<double, double>> range = std::nullopt);
/// Counts (or summed weights; density: normalised by the bin widths) of a's values in the
/// bins [e[i], e[i+1]), the last one closed; returns (hist, edges).
std::pair<Array, Array> histogram_with_edges(const Array& a, const Array& edges,
                                             const std::optional<Array>& weights = std::nullopt, bool density = false);
/// The D-dimensional histogram of the rows of `sample` (N, D): bins and range per dimension
/// (one entry for all, or D). Returns (hist of shape (nbins...), float64 as NumPy's, and the
/// edges per dimension).
std::pair<Array, std::vector<Array>> histogramdd(const Array& sample, const std::vector<HistogramBins>& bins,
                                                 const std::vector<std::optional<std::pair<double, double>>>& range = {},
                                                 const std::optional<Array>& weights = std::nullopt, bool density = false);

}  // namespace loom
