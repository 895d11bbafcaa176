#include "loom/array.h"

#include "loom/backend/cpu/cpu_ops.h"
#include "loom/backend/gpu.h"
#include "loom/error.h"
#include "loom/stream.h"

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

Array Array::copy_to(const Device& dst) const {
  const Device& src = device();
  if (src.is_cpu() && dst.is_cpu()) return copy();
  Array out = allocate(shape_, dtype_, dst);
  if (src.is_cpu()) {
    gpu_backend::upload(HostView{data(), dtype_, shape_, strides_}, out);
  } else if (dst.is_cpu()) {
    gpu_backend::download(*this, out.data());
  } else {
    gpu_backend::copy_peer(contiguous(), out);
  }
  return out;
}

Array Array::astype(DType dtype) const {
  Array out = allocate(shape_, dtype, device());
  if (device().is_cpu()) {
    cpu_backend::convert(*this, out);
  } else {
    gpu_backend::convert(*this, out);  // orders itself after this array's last user
  }
  return out;
}

Array Array::copy() const { return astype(dtype_); }

Array Array::contiguous() const { return is_contiguous() ? *this : copy(); }

void Array::block_until_ready() const {
  const Device& d = device();
  if (d.is_gpu()) gpu_backend::stream_synchronize(d.index, buffer_->last_stream());
}

void Array::copy_to_host(void* dst) const {
  if (device().is_gpu()) {
    gpu_backend::download(*this, dst);
    return;
  }
  auto borrowed = std::make_shared<Buffer>(dst, nbytes(), cpu(), std::function<void()>());
  cpu_backend::convert(*this, Array(borrowed, dtype_, shape_, contiguous_strides(shape_, itemsize()), 0));
}

}  // namespace loom
