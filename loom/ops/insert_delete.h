// numpy's insert, delete, resize, trim_zeros, choose, rollaxis and row_stack
// (ops/insert_delete.cpp): compositions of slicing, concatenate, advanced indexing, sorting
// and transposes, on every device.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loom/array/array.h"
#include "loom/ops/indexing.h"

namespace loom {

/// `values` inserted before the positions `obj` along `axis` (of the flattened arr when
/// unset), as NumPy's insert: an integer obj inserts one block (values with their first axis
/// moved to `axis`), a slice or 1-d integer array inserts values[..., j, ...] before each
/// index (a single index: one block of values as given), a 1-d bool array before its true
/// positions. Values are cast to arr's dtype. IndexError for an index outside [-n, n].
Array insert(const Array& arr, const Index& obj, const Array& values, std::optional<int64_t> axis = std::nullopt);
/// numpy.delete (`delete` is a C++ keyword): arr without the sub-arrays at `obj` (an
/// integer, a slice, an integer array, or a bool mask of the axis' length) along `axis` (of
/// the flattened arr when unset). A mask or an index array waits for the device: the
/// result's length is counted there.
Array delete_(const Array& arr, const Index& obj, std::optional<int64_t> axis = std::nullopt);
/// A new array of `new_shape` filled with a's elements in C order, repeated cyclically
/// (zeros when a is empty).
Array resize(const Array& a, const Shape& new_shape);
/// filt sliced to drop leading ("f"), trailing ("b") or both ("fb") zeros along each of
/// `axis` (every axis when unset): the smallest box holding every nonzero element. A view;
/// its shape depends on the data, so this waits for the device.
Array trim_zeros(const Array& filt, const std::string& trim = "fb",
                 const std::optional<std::vector<int64_t>>& axis = std::nullopt);
/// out[i] = choices[a[i]][i], all broadcast together; mode "raise" (ValueError for an
/// index outside [0, len(choices)); waits for the device), "wrap" or "clip".
Array choose(const Array& a, const std::vector<Array>& choices, const std::string& mode = "raise");
/// The axis `axis` moved to sit before position `start` (NumPy's older moveaxis); a view.
Array rollaxis(const Array& a, int64_t axis, int64_t start = 0);
/// NumPy's deprecated alias of vstack.
Array row_stack(const std::vector<Array>& arrays, std::optional<DType> dtype = std::nullopt,
                const std::string& casting = "same_kind");

}  // namespace loom
