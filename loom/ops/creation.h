// Array creation: empty, zeros, ones, full, arange, linspace, eye, identity, and
// copies of host memory. Every function takes a dtype and an optional device
// (default_device() when omitted).
#pragma once
#include <optional>

#include "loom/array/array.h"
#include "loom/core/scalar.h"

namespace loom {

Array empty(const Shape& shape, DType dtype = float32, std::optional<Device> device = std::nullopt);
Array zeros(const Shape& shape, DType dtype = float32, std::optional<Device> device = std::nullopt);
Array ones(const Shape& shape, DType dtype = float32, std::optional<Device> device = std::nullopt);
Array full(const Shape& shape, const Scalar& value, DType dtype,
           std::optional<Device> device = std::nullopt);
Array empty_like(const Array& a, std::optional<DType> dtype = std::nullopt,
                 std::optional<Device> device = std::nullopt);
Array zeros_like(const Array& a, std::optional<DType> dtype = std::nullopt,
                 std::optional<Device> device = std::nullopt);
Array ones_like(const Array& a, std::optional<DType> dtype = std::nullopt,
                std::optional<Device> device = std::nullopt);
Array full_like(const Array& a, const Scalar& value, std::optional<DType> dtype = std::nullopt,
                std::optional<Device> device = std::nullopt);
/// NumPy's arange: ceil((stop - start) / step) values start, start + step, ...
Array arange(const Scalar& start, const Scalar& stop, const Scalar& step, DType dtype,
             std::optional<Device> device = std::nullopt);
/// NumPy's linspace; integer dtypes take the floor of the float64 values.
Array linspace(double start, double stop, int64_t num, bool endpoint = true, DType dtype = float64,
               std::optional<Device> device = std::nullopt);
/// N x M with ones on diagonal k.
Array eye(int64_t n, std::optional<int64_t> m = std::nullopt, int64_t k = 0, DType dtype = float64,
          std::optional<Device> device = std::nullopt);
Array identity(int64_t n, DType dtype = float64, std::optional<Device> device = std::nullopt);
/// Copies host memory of any layout into a new contiguous array on `device`.
Array from_host(const HostView& src, std::optional<Device> device = std::nullopt);

}  // namespace loom
