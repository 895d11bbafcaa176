// Foreign memory: arrays that view memory owned by Python objects (NumPy arrays,
// DLPack producers, CAI producers) without copying, and the NumPy import path.
#include <cstdint>

#include "bindings.h"

namespace loom::py {

Array wrap_foreign(void* elem0, DType dt, const Shape& shape, const Strides& strides, const Device& device,
                   std::function<void()> release) {
  int64_t lo = 0, hi = 0;
  bool empty = false;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0) empty = true;
    const int64_t span = strides[i] * (shape[i] - 1);
    (span < 0 ? lo : hi) += shape[i] > 0 ? span : 0;
  }
  const size_t nbytes = empty ? 0 : static_cast<size_t>(hi - lo) + itemsize(dt);
  auto on_release = [release = std::move(release), device]() {
    // Loom work reading the memory may still be queued: finish it before the owner frees it.
    if (device.is_gpu()) {
      try {
        synchronize(device);
      } catch (...) {
      }
    }
    if (!Py_IsInitialized()) return;
    nb::gil_scoped_acquire gil;
    try {
      release();
    } catch (...) {
    }
  };
  auto buf = std::make_shared<Buffer>(static_cast<char*>(elem0) + lo, nbytes, device, std::move(on_release));
  return Array(std::move(buf), dt, shape, strides, -lo);
}

Array from_numpy(nb::handle arr, std::optional<DType> dtype, const Device& device, std::optional<bool> copy) {
  nb::object a = nb::borrow(arr);
  nb::object npdt = a.attr("dtype");
  if (!nb::cast<bool>(npdt.attr("isnative"))) {
    a = a.attr("astype")(npdt.attr("newbyteorder")("="));  // byte-swapped copy
    npdt = a.attr("dtype");
  }
  const DType src = to_dtype(npdt);
  const DType dst = dtype.value_or(src);
  auto* view = new Py_buffer;
  // No PyBUF_FORMAT: NumPy then exports dtypes that have no buffer format (bfloat16).
  if (PyObject_GetBuffer(a.ptr(), view, PyBUF_STRIDES) != 0) {
    delete view;
    throw nb::python_error();
  }
  auto release_view = [view]() {
    PyBuffer_Release(view);
    delete view;
  };
  const int64_t item = static_cast<int64_t>(itemsize(src));
  Shape shape(view->shape, view->shape + view->ndim);
  Strides strides = view->strides ? Strides(view->strides, view->strides + view->ndim)
                                  : contiguous_strides(shape, item);
  bool aligned = reinterpret_cast<uintptr_t>(view->buf) % item == 0;
  for (int64_t s : strides) aligned = aligned && s % item == 0;

  const bool view_ok = device.is_cpu() && !view->readonly && aligned && src == dst;
  if (view_ok && copy != true) {
    return wrap_foreign(view->buf, src, shape, strides, cpu(), release_view);
  }
  if (copy == false) {
    release_view();
    throw std::invalid_argument("Unable to avoid copy while creating an array as requested (copy=False)");
  }
  if (device.is_cpu() && src != dst && aligned) {
    // One pass: read the NumPy memory in place and convert into a new loom array.
    Array tmp = wrap_foreign(view->buf, src, shape, strides, cpu(), release_view);
    nb::gil_scoped_release release;
    return tmp.astype(dst);
  }
  Array out;
  try {
    nb::gil_scoped_release release;
    out = from_host(HostView{view->buf, src, shape, strides}, device);
    if (dst != src) out = out.astype(dst);
  } catch (...) {
    release_view();
    throw;
  }
  release_view();
  return out;
}

}  // namespace loom::py
