// Host memory of any layout, as NumPy arrays present it: what the copies to a GPU read
// (runtime/gpu_runtime.h) and what Array's constructors from host data take.
#pragma once
#include "loom/core/dtype.h"
#include "loom/core/shape.h"

namespace loom {

struct HostView {
  const void* data;
  DType dtype;
  Shape shape;
  Strides strides;  // bytes
};

}  // namespace loom
