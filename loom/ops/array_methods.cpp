// The methods of Array that compute: conversion, copies and moves between devices. They
// live with the ops (not in array/) because they reach the backends.
#include "loom/array/array.h"
#include "loom/backend/cpu/cpu_ops.h"
#include "loom/backend/gpu.h"
#include "loom/runtime/gpu_runtime.h"

namespace loom {

Array Array::copy_to(const Device& dst) const {
  const Device& src = device();
  if (src.is_cpu() && dst.is_cpu()) return copy();
  Array out = allocate(shape_, dtype_, dst);
  if (src.is_cpu()) {
    gpu_runtime::upload(HostView{data(), dtype_, shape_, strides_}, out);
  } else if (dst.is_cpu()) {
    gpu_runtime::download(contiguous(), out.data());
  } else {
    gpu_runtime::copy_peer(contiguous(), out);
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

void Array::copy_to_host(void* dst) const {
  if (device().is_gpu()) {
    gpu_runtime::download(contiguous(), dst);
    return;
  }
  auto borrowed = std::make_shared<Buffer>(dst, nbytes(), cpu(), std::function<void()>());
  cpu_backend::convert(*this, Array(borrowed, dtype_, shape_, contiguous_strides(shape_, itemsize()), 0));
}

}  // namespace loom
