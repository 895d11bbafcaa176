// Indexing as NumPy does it: x[...] reads (getitem), x[...] = v writes (setitem), JAX's
// functional updates x.at[...].set/add/multiply/min/max, and nonzero and its relatives.
//
// Basic indices (integers, slices, newaxis, ellipsis) give VIEWS of the same buffer.
// Advanced indices (integer arrays of any integer dtype, broadcast together; boolean
// arrays, which stand for nonzero(mask)) gather into a new array. Integer scalars count
// as advanced indices for NumPy's placement rule when an array index is present: the
// broadcast index dimensions replace the indexed axes in place when all advanced indices
// are adjacent, and go first otherwise.
//
// Synchronisation: advanced indexing checks every index on the device and reads one small
// result back before raising IndexError, and boolean masks / nonzero read their count
// back to size the result, so these ops wait for the GPU (as boolean masks and nonzero do
// in CuPy). Basic indexing never waits.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "loom/array/array.h"

namespace loom {

/// A slice start:stop:step; missing parts are None (NumPy's defaults, also for negative steps).
struct Slice {
  std::optional<int64_t> start, stop, step;
};
struct NewAxis {};
struct Ellipsis {};
inline constexpr NewAxis newaxis{};
inline constexpr Ellipsis ellipsis{};

/// One entry of an index expression: x[1, Slice{0, 5, 2}, newaxis, ellipsis, idx].
class Index {
 public:
  enum class Kind : uint8_t { integer, slice, newaxis, ellipsis, array };
  Index(int v) : kind_(Kind::integer), integer_(v) {}
  Index(int64_t v) : kind_(Kind::integer), integer_(v) {}
  Index(Slice s) : kind_(Kind::slice), slice_(s) {}
  Index(NewAxis) : kind_(Kind::newaxis) {}
  Index(Ellipsis) : kind_(Kind::ellipsis) {}
  /// An integer array (any integer dtype) or a boolean mask (any ndim, also 0-d).
  Index(Array a) : kind_(Kind::array), array_(std::move(a)) {}

  Kind kind() const { return kind_; }
  int64_t integer() const { return integer_; }
  const Slice& slice() const { return slice_; }
  const Array& array() const { return array_; }

 private:
  Kind kind_;
  int64_t integer_ = 0;
  Slice slice_;
  Array array_;
};

/// x[index]. Views for basic indices, a new contiguous array otherwise. Errors as NumPy:
/// IndexError (std::out_of_range) for out-of-bounds integers, too many indices, a second
/// ellipsis, non-integer index arrays, a boolean mask whose shape does not match, and
/// index arrays that do not broadcast; ValueError for a zero slice step.
Array getitem(const Array& x, const std::vector<Index>& index);

/// x[index] = value: `value` is broadcast to the shape of x[index] and cast to x's dtype.
/// Basic indices write through the view; advanced indices scatter. With repeated indices
/// the last write wins on the CPU (NumPy's rule); on the GPU which write wins is unspecified.
/// Bounds are checked before anything is written.
void setitem(const Array& x, const std::vector<Index>& index, const Array& value);

/// The combining rule of a functional update.
enum class AtOp : uint8_t { set, add, multiply, min, max };

/// JAX's x.at[index].<op>(value): a new array equal to x with x[index] combined with `value`
/// (broadcast and cast to x's dtype). Repeated indices accumulate for add, multiply, min and
/// max (np.add.at semantics; float16/bfloat16 round after each step); for set the last write
/// wins on the CPU, unspecified on the GPU. min/max propagate NaN as np.minimum/np.maximum.
/// On bool arrays add is logical or and multiply logical and.
Array at_update(const Array& x, const std::vector<Index>& index, const Array& value, AtOp op);

/// np.nonzero: one int64 array of indices per dimension (C order). ValueError for 0-d.
std::vector<Array> nonzero(const Array& a);
/// np.flatnonzero: indices of the nonzero elements of the flattened array.
Array flatnonzero(const Array& a);
/// np.argwhere: (count, ndim) int64 array of the nonzero elements' indices.
Array argwhere(const Array& a);
/// np.count_nonzero(a) with axis=None.
int64_t count_nonzero(const Array& a);
/// np.count_nonzero over `axis` (nullopt: all axes), with the Array API's keepdims: the
/// int64 counts as an array, computed on the device without a host read.
Array count_nonzero(const Array& a, const std::optional<std::vector<int64_t>>& axis, bool keepdims);

}  // namespace loom
