// What the loom.fft ops share (ops/fft.cpp, fft_nd.cpp, fft_helpers.cpp): one-axis
// transforms that leave the norm's factor to the caller, so that a multi-axis transform
// scales once at the end instead of once per axis.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "loom/array/array.h"

namespace loom::fft::detail {

/// The complex transform of `a` along `axis` over n points (nullopt: the axis' length);
/// unscaled; *scale is multiplied by the norm's factor. `op` names the public op in errors.
Array c2c(const char* op, const Array& a, std::optional<int64_t> n, int64_t axis, bool inverse,
          const std::string& norm, double* scale);
/// The forward real-to-complex transform (n/2 + 1 outputs along `axis`).
Array r2c(const char* op, const Array& a, std::optional<int64_t> n, int64_t axis, const std::string& norm,
          double* scale);
/// The inverse complex-to-real transform (n outputs; n default 2 * (m - 1)).
Array c2r(const char* op, const Array& a, std::optional<int64_t> n, int64_t axis, const std::string& norm,
          double* scale);
/// `a` times `scale` (a new array); `a` itself when scale is 1.
Array scaled(const Array& a, double scale);
/// NumPy's _swap_direction: the norm of the forward transform that an inverse one equals.
std::string swap_direction(const char* op, const std::string& norm);
/// a[..., start:stop, ...] along `axis`: a view.
Array slice_axis(const Array& a, int axis, int64_t start, int64_t stop);

}  // namespace loom::fft::detail
