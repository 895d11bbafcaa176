// Shape operations, as NumPy has them: views wherever NumPy returns a view (reshape when
// the strides allow it, ravel of a contiguous array, transpose, swapaxes, moveaxis, squeeze,
// expand_dims, broadcast_to, atleast_nd, flip, split), copies otherwise (flatten,
// concatenate, stack, tile, repeat). A view shares its input's buffer: writes through
// one are visible through the other.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "loom/array/array.h"

namespace loom {

/// The shape `requested` with its one -1 replaced so that it holds `size` elements;
/// throws std::invalid_argument ("[op] cannot reshape array of size 6 into shape (4,)").
Shape infer_reshape(const Shape& requested, int64_t size, const char* op = "reshape");
/// Strides that view a (shape, strides) layout as `new_shape` in C order without copying,
/// or nullopt when no such strides exist (NumPy's _attempt_nocopy_reshape). Sizes must match.
std::optional<Strides> reshape_strides(const Shape& shape, const Strides& strides,
                                       const Shape& new_shape, size_t itemsize);

/// NumPy's reshape: a view when the strides allow it, else a copy. `shape` may hold one negative
/// value (NumPy: the unknown dimension, inferred).
/// order: 'C', 'F' or 'A'. copy: nullopt (view if possible), true (always copy), false
/// (view or std::invalid_argument).
Array reshape(const Array& a, const Shape& shape, char order = 'C',
              std::optional<bool> copy = std::nullopt);
/// 1-d; a view when `a` is contiguous in `order` ('C', 'F', 'A'), else a copy.
Array ravel(const Array& a, char order = 'C');
/// 1-d copy, always.
Array flatten(const Array& a, char order = 'C');

/// Permutes the axes (reversed when `axes` is nullopt); a view.
Array transpose(const Array& a, const std::optional<std::vector<int64_t>>& axes = std::nullopt);
Array swapaxes(const Array& a, int64_t axis1, int64_t axis2);
/// Moves axes `source` to positions `destination`, the others keep their order; a view.
Array moveaxis(const Array& a, const std::vector<int64_t>& source,
               const std::vector<int64_t>& destination);
/// Removes length-1 axes (all of them, or those in `axis`, which must have length 1).
Array squeeze(const Array& a, const std::optional<std::vector<int64_t>>& axis = std::nullopt);
/// Inserts length-1 axes at positions `axis` of the result.
Array expand_dims(const Array& a, const std::vector<int64_t>& axis);
/// A view with zero strides along broadcast dimensions.
Array broadcast_to(const Array& a, const Shape& shape);
/// NumPy's diagonal: the diagonal `offset` above (below, when negative) the main one of the
/// matrices spanned by axis1 and axis2, as a last axis; the other axes stay in order. A
/// view (writable, as torch.diagonal; NumPy's is read-only).
Array diagonal(const Array& a, int64_t offset = 0, int64_t axis1 = 0, int64_t axis2 = 1);
std::vector<Array> broadcast_arrays(const std::vector<Array>& arrays);
Array atleast_1d(const Array& a);
Array atleast_2d(const Array& a);
Array atleast_3d(const Array& a);

/// Reverses the order of elements along `axis` (all axes when nullopt): a view with
/// negative strides.
Array flip(const Array& a, const std::optional<std::vector<int64_t>>& axis = std::nullopt);
Array fliplr(const Array& a);
Array flipud(const Array& a);

/// `sections` equal views along `axis` (std::invalid_argument when it does not divide).
std::vector<Array> split(const Array& a, int64_t sections, int64_t axis = 0);
/// Views a[:i0], a[i0:i1], ..., a[ik:] along `axis` (Python slice rules for the indices).
std::vector<Array> split_at(const Array& a, const std::vector<int64_t>& indices, int64_t axis = 0);
/// `sections` views along `axis`; the first len % sections are one longer.
std::vector<Array> array_split(const Array& a, int64_t sections, int64_t axis = 0);

/// NumPy's concatenate. axis nullopt: the inputs are raveled first. The result dtype is
/// `dtype`, else the promotion of the inputs'; `casting` is "no", "equiv", "safe",
/// "same_kind" or "unsafe" (DTypeError when an input may not be cast). Same device required.
Array concatenate(const std::vector<Array>& arrays, std::optional<int64_t> axis = 0,
                  std::optional<DType> dtype = std::nullopt, const std::string& casting = "same_kind");
/// Joins same-shaped arrays along a new axis `axis` of the result.
Array stack(const std::vector<Array>& arrays, int64_t axis = 0,
            std::optional<DType> dtype = std::nullopt, const std::string& casting = "same_kind");
Array hstack(const std::vector<Array>& arrays, std::optional<DType> dtype = std::nullopt,
             const std::string& casting = "same_kind");
Array vstack(const std::vector<Array>& arrays, std::optional<DType> dtype = std::nullopt,
             const std::string& casting = "same_kind");

/// NumPy's tile: a copy repeating `a` reps[i] times along each axis.
Array tile(const Array& a, const std::vector<int64_t>& reps);
/// Each element repeated `repeats` times along `axis` (of the raveled array when nullopt).
Array repeat(const Array& a, int64_t repeats, std::optional<int64_t> axis = std::nullopt);
/// Element i along `axis` repeated repeats[i] times (one entry: the same count for all).
Array repeat(const Array& a, const std::vector<int64_t>& repeats,
             std::optional<int64_t> axis = std::nullopt);

}  // namespace loom
