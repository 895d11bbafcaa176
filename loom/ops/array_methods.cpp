// The methods of Array that compute: conversion, copies and moves between devices. They
// live with the ops (not in array/) because they reach the backends.
#include "loom/array/array.h"
#include "loom/array/transfer.h"
#include "loom/ops/creation_primitives.h"
#include "loom/dispatch/dispatch.h"

namespace loom {
namespace {

// `src` into contiguous `dst` of its dtype and shape: an op on one device (recorded as
// `op`), a runtime transfer between two.
void copy_into(const Primitive<ConvertFn>& op, const Array& src, const Array& dst) {
  if (src.device() == dst.device()) dispatch(op, {src}, {dst}, src, dst);
  else transfer(src.contiguous(), dst);  // a strided source is packed on its own device first
}

}  // namespace

Array Array::copy_to(const Device& dst) const {
  Array out = allocate(shape_, dtype_, dst);
  copy_into(primitives::copy, *this, out);
  return out;
}

Array Array::astype(DType dtype) const {
  Array out = allocate(shape_, dtype, device());
  dispatch(primitives::astype, {*this}, {out}, *this, out);  // the GPU orders itself after this array's last user
  return out;
}

Array Array::copy() const {
  Array out = allocate(shape_, dtype_, device());
  dispatch(primitives::copy, {*this}, {out}, *this, out);
  return out;
}

Array Array::contiguous() const { return is_contiguous() ? *this : copy(); }

void Array::copy_to_host(void* dst) const {
  auto borrowed = std::make_shared<Buffer>(dst, nbytes(), cpu(), std::function<void()>());
  copy_into(primitives::copy_to_host, *this,
            Array(borrowed, dtype_, shape_, contiguous_strides(shape_, itemsize()), 0));
}

}  // namespace loom
