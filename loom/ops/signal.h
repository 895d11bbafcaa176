// NumPy's window functions (bartlett, blackman, hamming, hanning, kaiser), convolve,
// correlate and unwrap (ops/signal.cpp): compositions of creation, elementwise ops,
// slicing and scans, on every device.
#pragma once
#include <optional>
#include <string>

#include "loom/array/array.h"

namespace loom {

/// The M-point windows (float64; empty for M < 1, [1.0] for M == 1), on `device`.
Array bartlett(int64_t M, std::optional<Device> device = std::nullopt);
Array blackman(int64_t M, std::optional<Device> device = std::nullopt);
Array hamming(int64_t M, std::optional<Device> device = std::nullopt);
Array hanning(int64_t M, std::optional<Device> device = std::nullopt);
Array kaiser(int64_t M, double beta, std::optional<Device> device = std::nullopt);

/// The discrete linear convolution of 1-d a and v; mode "full" (length N + M - 1), "same"
/// (max(N, M), centred) or "valid" (max(N, M) - min(N, M) + 1). One multiply-add per
/// element of the shorter input, each over the whole output.
Array convolve(const Array& a, const Array& v, const std::string& mode = "full");
/// The cross-correlation sum_n a[n + k] * conj(v[n]) of 1-d a and v (mode as convolve's,
/// default "valid").
Array correlate(const Array& a, const Array& v, const std::string& mode = "valid");

/// p with its jumps larger than `discont` (default period / 2) along axis replaced by
/// their complement modulo `period` (numpy.unwrap).
Array unwrap(const Array& p, std::optional<double> discont = std::nullopt, int64_t axis = -1,
             double period = 6.283185307179586);

}  // namespace loom
