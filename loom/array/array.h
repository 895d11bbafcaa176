// Array: a typed, strided view of a reference-counted device buffer.
#pragma once
#include <memory>
#include <optional>
#include <string>

#include "loom/runtime/device.h"
#include "loom/core/dtype.h"
#include "loom/runtime/host_view.h"  // HostView, which Array's users pass with it
#include "loom/runtime/memory.h"
#include "loom/core/shape.h"

namespace loom {

class Array {
 public:
  Array() = default;
  Array(std::shared_ptr<Buffer> buffer, DType dtype, Shape shape, Strides strides, int64_t offset);
  /// A new contiguous array with uninitialised contents.
  static Array allocate(const Shape& shape, DType dtype, const Device& device);

  DType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  const Strides& strides() const { return strides_; }
  /// Byte offset of element 0 from the start of the buffer.
  int64_t offset() const { return offset_; }
  int ndim() const { return static_cast<int>(shape_.size()); }
  int64_t size() const { return size_; }
  size_t itemsize() const { return loom::itemsize(dtype_); }
  size_t nbytes() const { return static_cast<size_t>(size_) * itemsize(); }
  const Device& device() const;
  bool valid() const { return buffer_ != nullptr; }
  /// Address of element 0 (a device pointer for GPU arrays).
  void* data() const { return static_cast<char*>(buffer_->data()) + offset_; }
  const std::shared_ptr<Buffer>& buffer() const { return buffer_; }
  bool is_contiguous() const { return is_c_contiguous(shape_, strides_, itemsize()); }

  /// A view of the same buffer with another shape, strides and offset (bytes).
  Array view(Shape shape, Strides strides, int64_t offset) const;
  /// Reverses the axes (x.T); a view.
  Array transpose() const;

  /// This array when it already lives on `device`, else a copy there.
  Array to(const Device& device) const;
  /// Always a new copy on `device`.
  Array copy_to(const Device& device) const;
  /// A new contiguous array of `dtype` with NumPy's cast results.
  Array astype(DType dtype) const;
  /// A new contiguous copy on the same device.
  Array copy() const;
  /// This array when C-contiguous, else a contiguous copy.
  Array contiguous() const;
  /// Waits until the work that writes this array is done.
  void block_until_ready() const;
  /// Copies the elements into `dst` (C order, size() * itemsize() bytes of host memory).
  void copy_to_host(void* dst) const;

 private:
  std::shared_ptr<Buffer> buffer_;
  DType dtype_ = float32;
  Shape shape_;
  Strides strides_;
  int64_t offset_ = 0;
  int64_t size_ = 0;
};

}  // namespace loom
