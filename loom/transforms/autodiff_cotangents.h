// The cotangents of one backward pass (transforms/autodiff.h): one buffer per buffer of
// the trace, made on first use. A recorded view rebound to a cotangent buffer is that
// view's cotangent, so views, slices and broadcasts need no rules of their own.
#pragma once
#include <unordered_map>
#include <unordered_set>

#include "loom/array/array.h"
#include "loom/array/rebind.h"

namespace loom::autodiff {

class Cotangents {
 public:
  /// The cotangent of recorded view `v`, or an invalid Array while it is still zero.
  Array read(const Array& v) const;
  /// Adds `ct` (v's shape, any floating dtype) to the cotangent of `v`. Axes along which
  /// `v` is broadcast (stride 0) are summed first. `exclusive`: nothing else refers to ct's
  /// buffer (a derivative rule's fresh result), so a first contribution that covers v's
  /// buffer becomes that buffer's cotangent as it is, without a copy.
  void accumulate(const Array& v, const Array& ct, bool exclusive = false);
  /// Whether `b` holds one of the cotangents (which a rule may hand back unchanged).
  bool holds(const Buffer* b) const { return held_.count(b) != 0; }
  /// Sets the cotangent of `v`'s region to zero.
  void zero(const Array& v);
  /// read(v) in a buffer of the cotangent's own (copied when it shares one): what grad
  /// returns to the caller, who may write into it.
  Array take(const Array& v);

 private:
  struct Slot {
    BufferBinding binding;
    // False while the buffer may be another's too (a rule's output passed through, a value
    // of the forward pass): it is copied before its first write.
    bool owned = true;
  };
  // Copies a shared slot into a buffer of its own, in `like`'s dtype where it divides the
  // buffer (so that an enclosing trace sees a differentiable copy), else as bytes.
  void own(Slot& s, const Buffer* b, const Array& like);
  Array view(const Slot& s, const Array& v) const {
    return Array(s.binding.buffer, v.dtype(), v.shape(), v.strides(), v.offset() + s.binding.offset_delta);
  }
  std::unordered_map<const Buffer*, Slot> slots_;
  std::unordered_set<const Buffer*> held_;  // the buffers the slots point into
};

}  // namespace loom::autodiff
