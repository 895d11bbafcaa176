// The cotangents of one backward pass (transforms/autodiff.h): one buffer per buffer of
// the trace, made on first use. A recorded view rebound to a cotangent buffer is that
// view's cotangent, so views, slices and broadcasts need no rules of their own.
#pragma once
#include <unordered_map>

#include "loom/array/array.h"
#include "loom/array/rebind.h"

namespace loom::autodiff {

class Cotangents {
 public:
  /// The cotangent of recorded view `v`, or an invalid Array while it is still zero.
  Array read(const Array& v) const;
  /// Adds `ct` (v's shape, any floating dtype) to the cotangent of `v`. Axes along which
  /// `v` is broadcast (stride 0) are summed first.
  void accumulate(const Array& v, const Array& ct);
  /// Sets the cotangent of `v`'s region to zero.
  void zero(const Array& v);

 private:
  struct Slot {
    BufferBinding binding;
  };
  Array view(const Slot& s, const Array& v) const {
    return Array(s.binding.buffer, v.dtype(), v.shape(), v.strides(), v.offset() + s.binding.offset_delta);
  }
  std::unordered_map<const Buffer*, Slot> slots_;
};

}  // namespace loom::autodiff
