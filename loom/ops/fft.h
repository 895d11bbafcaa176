// numpy.fft as loom::fft: discrete Fourier transforms with NumPy 2's arguments and results.
// n / s pad with zeros or truncate along each transformed axis; norm is "backward" (the
// inverse carries 1/n), "ortho" (both 1/sqrt(n)) or "forward" (the forward carries 1/n).
// Results: complex64 for float32/complex64 (and 16-bit float) input, complex128 for
// float64, complex128, integers and bool; the inverse real transforms give the matching
// real type. Errors as NumPy: ValueError for n < 1, an unknown norm or mismatched s and
// axes, AxisError (an IndexError) for axes out of range, TypeError for complex input to
// rfft. Repeated axes repeat the transform, as in NumPy.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loom/array/array.h"

namespace loom::fft {

using OptionalInts = std::optional<std::vector<int64_t>>;

/// numpy.fft.fft: the 1-d transform along `axis`, over n points (the axis' length when nullopt).
Array fft(const Array& a, std::optional<int64_t> n = std::nullopt, int64_t axis = -1,
          const std::string& norm = "backward");
/// numpy.fft.ifft: the inverse of fft.
Array ifft(const Array& a, std::optional<int64_t> n = std::nullopt, int64_t axis = -1,
           const std::string& norm = "backward");
/// numpy.fft.rfft: fft of real input, the n/2 + 1 non-negative frequencies.
Array rfft(const Array& a, std::optional<int64_t> n = std::nullopt, int64_t axis = -1,
           const std::string& norm = "backward");
/// numpy.fft.irfft: the real inverse of rfft; n output points (default 2 * (m - 1)).
Array irfft(const Array& a, std::optional<int64_t> n = std::nullopt, int64_t axis = -1,
            const std::string& norm = "backward");
/// numpy.fft.hfft: the real transform of a Hermitian-symmetric signal's half (n default 2 * (m - 1)).
Array hfft(const Array& a, std::optional<int64_t> n = std::nullopt, int64_t axis = -1,
           const std::string& norm = "backward");
/// numpy.fft.ihfft: the inverse of hfft (n/2 + 1 outputs).
Array ihfft(const Array& a, std::optional<int64_t> n = std::nullopt, int64_t axis = -1,
            const std::string& norm = "backward");

/// numpy.fft.fftn: transforms over `axes` (all, or the last len(s), when nullopt); s: the
/// points per axis (-1: the axis' length).
Array fftn(const Array& a, const OptionalInts& s = std::nullopt, const OptionalInts& axes = std::nullopt,
           const std::string& norm = "backward");
Array ifftn(const Array& a, const OptionalInts& s = std::nullopt, const OptionalInts& axes = std::nullopt,
            const std::string& norm = "backward");
/// numpy.fft.rfftn: rfft over the last of `axes`, then fft over the others.
Array rfftn(const Array& a, const OptionalInts& s = std::nullopt, const OptionalInts& axes = std::nullopt,
            const std::string& norm = "backward");
/// numpy.fft.irfftn: ifft over all but the last of `axes`, then irfft over the last (its
/// default length 2 * (m - 1)).
Array irfftn(const Array& a, const OptionalInts& s = std::nullopt, const OptionalInts& axes = std::nullopt,
             const std::string& norm = "backward");
/// The 2-d forms: the n-d ones over `axes` (the last two by default).
Array fft2(const Array& a, const OptionalInts& s = std::nullopt, const std::vector<int64_t>& axes = {-2, -1},
           const std::string& norm = "backward");
Array ifft2(const Array& a, const OptionalInts& s = std::nullopt, const std::vector<int64_t>& axes = {-2, -1},
            const std::string& norm = "backward");
Array rfft2(const Array& a, const OptionalInts& s = std::nullopt, const std::vector<int64_t>& axes = {-2, -1},
            const std::string& norm = "backward");
Array irfft2(const Array& a, const OptionalInts& s = std::nullopt, const std::vector<int64_t>& axes = {-2, -1},
             const std::string& norm = "backward");

/// numpy.fft.fftfreq: the n sample frequencies [0, 1, ..., -1] / (d * n), float64.
/// std::invalid_argument for n < 0 and for n * d == 0.
Array fftfreq(int64_t n, double d = 1.0, std::optional<Device> device = std::nullopt);
/// numpy.fft.rfftfreq: the n/2 + 1 non-negative ones, float64.
Array rfftfreq(int64_t n, double d = 1.0, std::optional<Device> device = std::nullopt);
/// numpy.fft.fftshift: the zero frequency moved to the centre of `axes` (all when nullopt);
/// a new array.
Array fftshift(const Array& x, const OptionalInts& axes = std::nullopt);
/// numpy.fft.ifftshift: the inverse of fftshift.
Array ifftshift(const Array& x, const OptionalInts& axes = std::nullopt);

}  // namespace loom::fft
