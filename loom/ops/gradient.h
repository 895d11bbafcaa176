// numpy.gradient (ops/gradient.cpp): second-order central differences inside, first- or
// second-order one-sided differences at the edges, for uniform spacings and for coordinate
// arrays, as compositions of slicing and arithmetic on every device.
#pragma once
#include <optional>
#include <vector>

#include "loom/ops/reduce.h"

namespace loom {

/// The sample spacing along one axis: a uniform step `h`, or the 1-d coordinates `x` of
/// the samples (as long as the axis).
struct GradientSpacing {
  double h = 1.0;
  std::optional<Array> x;
};

/// The gradient of f along each axis of `axis` (all when unset), one array per axis.
/// `spacing` has one entry for all axes, one per axis, or none (h = 1). Integers give
/// float64. Each axis needs edge_order + 1 samples (edge_order 1 or 2).
std::vector<Array> gradient(const Array& f, const std::vector<GradientSpacing>& spacing = {},
                            const AxisArg& axis = std::nullopt, int edge_order = 1);

}  // namespace loom
