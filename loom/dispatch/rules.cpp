// BatchMap (dispatch/rules.h).
#include "loom/dispatch/rules.h"

namespace loom {

Array BatchMap::batched(const Array& v) const {
  Shape shape{size};
  Strides strides{0};
  shape.insert(shape.end(), v.shape().begin(), v.shape().end());
  strides.insert(strides.end(), v.strides().begin(), v.strides().end());
  auto it = buffers.find(v.buffer().get());
  if (it == buffers.end()) return v.view(shape, strides, v.offset());
  strides[0] = it->second.batch_stride;
  return Array(it->second.buffer, v.dtype(), shape, strides, v.offset() + it->second.offset_delta);
}

bool BatchMap::is_batched(const Array& v) const {
  auto it = buffers.find(v.buffer().get());
  return it != buffers.end() && it->second.batch_stride != 0;
}

BufferMap BatchMap::example(int64_t b) const {
  BufferMap m;
  m.reserve(buffers.size());
  for (const auto& [key, bb] : buffers) m[key] = {bb.buffer, bb.offset_delta + b * bb.batch_stride};
  return m;
}

}  // namespace loom
