// numpy.pad (ops/pad.cpp): each axis in turn grows by slices of the array itself
// (edge, reflect, symmetric, wrap), constants, ramps or statistics of its ends, joined with
// concatenate, on every device.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "loom/array/array.h"

namespace loom {

/// Per-axis (before, after) pairs; a single pair applies to every axis.
using PadPairs = std::vector<std::pair<int64_t, int64_t>>;
/// Per-axis (before, after) values for "constant" (constant_values) and "linear_ramp"
/// (end_values); a single pair applies to every axis.
using PadValues = std::vector<std::pair<double, double>>;

struct PadOptions {
  PadValues constant_values{{0.0, 0.0}};
  PadValues end_values{{0.0, 0.0}};
  PadPairs stat_length;          // empty: the whole axis
  std::string reflect_type = "even";
};

/// NumPy's pad with mode "constant", "edge", "linear_ramp", "maximum", "minimum", "mean",
/// "median", "reflect", "symmetric", "wrap" or "empty".
Array pad(const Array& a, const PadPairs& pad_width, const std::string& mode = "constant",
          const PadOptions& options = {});

}  // namespace loom
