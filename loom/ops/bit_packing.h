// numpy's packbits and unpackbits (ops/bit_packing.cpp): shifts, masks and a sum over
// groups of eight, on every device.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "loom/array/array.h"

namespace loom {

/// The truth values of an integer or bool array packed eight to a uint8 along `axis` (of
/// the flattened a when unset), the last byte padded with zero bits; bitorder "big" (first
/// element in the high bit) or "little".
Array packbits(const Array& a, std::optional<int64_t> axis = std::nullopt, const std::string& bitorder = "big");
/// The bits of a uint8 array as uint8 zeros and ones along `axis` (of the flattened a when
/// unset). count: keep that many bits along the axis (zero-padded past the end; negative:
/// drop that many from the end).
Array unpackbits(const Array& a, std::optional<int64_t> axis = std::nullopt, std::optional<int64_t> count = std::nullopt,
                 const std::string& bitorder = "big");

}  // namespace loom
