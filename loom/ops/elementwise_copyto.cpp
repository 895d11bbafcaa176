// copyto: assignment with broadcasting and casting into any strided view, on the
// elementwise engine (the op table's internal `copy` op).
#include "loom/ops/creation_primitives.h"
#include "loom/ops/elementwise_primitives.h"
#include "loom/core/error.h"
#include "loom/dispatch/dispatch.h"
#include "loom/ops/elementwise.h"

namespace loom {

void copyto(const Array& dst, const Array& src) {
  check_same_device("copyto", dst.device(), src.device());
  if (broadcast_shapes(src.shape(), dst.shape(), "copyto") != dst.shape())
    throw_value_error("copyto", "could not broadcast input array from shape " + shape_str(src.shape()) +
                                    " into shape " + shape_str(dst.shape()));
  if (dst.size() == 0) return;
  Strides st(dst.ndim(), 0);
  const size_t lead = dst.shape().size() - src.shape().size();
  for (size_t i = 0; i < src.shape().size(); ++i) st[lead + i] = src.shape()[i] == 1 ? 0 : src.strides()[i];
  Array s = src.view(dst.shape(), st, src.offset());
  // Overlapping memory that is not the very same view: read from a copy.
  if (s.buffer() == dst.buffer() && !(s.offset() == dst.offset() && s.strides() == dst.strides())) s = s.copy();
  if (dst.is_contiguous()) {  // the convert paths: memcpy when the dtype is the same
    dispatch(primitives::copyto, {s}, {dst}, s, dst);
    return;
  }
  ElementwiseCall call;
  call.op = OpId::copy;
  call.loop = dst.dtype();
  call.nin = 1;
  call.in[0] = s;
  call.out = dst;
  dispatch(primitives::copyto_strided, {s}, {dst}, call);
}

}  // namespace loom
