// numpy.histogram's `bins` (an int, edges or an estimator's name) and `range` (a pair or
// None) as ops/histograms.h takes them; defined in histograms.cpp, used by sets_counts.cpp.
#pragma once
#include <optional>
#include <utility>

#include "bindings.h"
#include "loom/ops/histograms.h"

namespace loom::py {

HistogramBins to_histogram_bins(nb::handle bins, const Device& device, const char* op);
std::optional<std::pair<double, double>> to_histogram_range(nb::handle range, const char* op);

}  // namespace loom::py
