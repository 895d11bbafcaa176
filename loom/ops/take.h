// numpy's take, take_along_axis, put_along_axis and roll (ops/take.cpp): compositions of
// advanced indexing, slicing and concatenate, on every device.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loom/array/array.h"

namespace loom {

/// Elements of a at integer `indices` along `axis` (the flattened a when unset); mode
/// "raise" (out-of-range indices raise IndexError), "wrap" or "clip".
Array take(const Array& a, const Array& indices, std::optional<int64_t> axis = std::nullopt,
           const std::string& mode = "raise");
/// out[..., j, ...] = arr[..., indices[..., j, ...], ...] along `axis` (indices has arr's
/// number of dimensions and broadcasts against it on the others; unset: both flattened).
Array take_along_axis(const Array& arr, const Array& indices, std::optional<int64_t> axis);
/// arr[..., indices[..., j, ...], ...] = values along `axis`, in place.
void put_along_axis(const Array& arr, const Array& indices, const Array& values, std::optional<int64_t> axis);
/// a with its elements shifted by `shift` along each of `axis` (cyclically); axis unset:
/// the flattened a, reshaped back. A shift per axis, or one shift for every axis.
Array roll(const Array& a, const std::vector<int64_t>& shift,
           const std::optional<std::vector<int64_t>>& axis = std::nullopt);

}  // namespace loom
