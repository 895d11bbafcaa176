// The Array type: its storage, views and lifetime. Methods that compute (astype, copy,
// contiguous, copies between devices) are ops: ops/array_methods.cpp.
#include "loom/array/array.h"

#include "loom/runtime/device_runtime.h"
#include "loom/core/error.h"
#include "loom/runtime/stream.h"

namespace loom {

Array::Array(std::shared_ptr<Buffer> buffer, DType dtype, Shape shape, Strides strides, int64_t offset)
    : buffer_(std::move(buffer)),
      dtype_(dtype),
      shape_(std::move(shape)),
      strides_(std::move(strides)),
      offset_(offset),
      size_(shape_size(shape_)) {
  if (shape_.size() != strides_.size()) throw_value_error("Array", "shape and strides differ in length");
}

Array Array::allocate(const Shape& shape, DType dtype, const Device& device) {
  check_device_present(device);  // gpu(i) of an absent GPU fails at its first use, here
  const int64_t n = shape_size(shape, "empty");
  const size_t item = loom::itemsize(dtype);
  if (n > 0 && static_cast<uint64_t>(n) > SIZE_MAX / item) throw_value_error("empty", "array is too big");
  return Array(loom::allocate(static_cast<size_t>(n) * item, device), dtype, shape,
               contiguous_strides(shape, item), 0);
}

const Device& Array::device() const {
  if (!buffer_) throw_value_error("Array", "the array is empty (default-constructed)");
  return buffer_->device();
}

Array Array::view(Shape shape, Strides strides, int64_t offset) const {
  return Array(buffer_, dtype_, std::move(shape), std::move(strides), offset);
}

Array Array::transpose() const {
  return view(Shape(shape_.rbegin(), shape_.rend()), Strides(strides_.rbegin(), strides_.rend()), offset_);
}

Array Array::to(const Device& device) const {
  return device == this->device() ? *this : copy_to(device);
}

void Array::block_until_ready() const {
  const Device& d = device();
  device_runtime(d).stream_synchronize(d, buffer_->last_stream());  // a no-op on the CPU
}

}  // namespace loom
