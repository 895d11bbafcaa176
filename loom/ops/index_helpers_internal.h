// What the index helpers, in-place updates and insert/delete share (ops/index_helpers.cpp
// defines them): integer index arrays, bounds checks that read one flag back, host values
// on a device, and NumPy's wrap/clip index modes.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loom/array/array.h"

namespace loom::index_detail {

/// `indices` as int64; DTypeError naming `op` unless they are integers (or bools, which
/// NumPy casts safely to intp, when `allow_bool`).
Array int64_indices(const char* op, const Array& indices, bool allow_bool = false);
/// Whether any element of the bool array `cond` is true: one value read back, so the
/// caller waits for the device (false for 0-size and traced arrays, which cannot be read).
bool any_true(const Array& cond);
/// The first element of the int64 `idx` outside [lo, hi), if any (one flag read back, and
/// on failure the value: the caller waits for the device).
std::optional<int64_t> first_outside(const Array& idx, int64_t lo, int64_t hi);
/// IndexError "[op] index v is out of bounds for axis `axis` with size n" when an element
/// of the int64 `idx` lies outside [lo, hi) (v: the first such element). Waits for the device.
void check_index_bounds(const char* op, const Array& idx, int64_t lo, int64_t hi, int64_t axis, int64_t n);
/// The int64 values as a 1-d array on `device`.
Array int64_array(const std::vector<int64_t>& values, const Device& device);
/// ValueError naming `op` unless mode is "raise", "wrap" or "clip".
void check_index_mode(const char* op, const std::string& mode);
/// NumPy's index modes for an axis of length n: "wrap" (modulo n), "clip" (into [0, n)),
/// "raise" (idx unchanged; the caller checks). ValueError naming `op` for other modes.
Array apply_index_mode(const char* op, const Array& idx, int64_t n, const std::string& mode);
/// The first `count` elements of the flattened `values` repeated cyclically (NumPy's rule
/// for a.flat[...] = values, put and place); `values` must not be empty.
Array cycled(const Array& values, int64_t count);
/// The coordinates of flat indices known to lie in [0, prod(shape)), order 'C' or 'F'.
std::vector<Array> unravel_unchecked(const Array& idx, const Shape& shape, char order);
/// a.flat[positions] = values: `positions` are C-order flat indices in [0, a.size()) of any
/// layout of `a` (a contiguous a is written through a 1-d view, others by multi-index).
void set_flat(const Array& a, const Array& positions, const Array& values);

}  // namespace loom::index_detail
