// loom._upload_async and loom._hand_over: the two halves of loom.data's prefetching. A
// batch is gathered into a pinned host buffer, copied to the GPU on a copy stream without
// the host waiting (`_upload_async`), and given to the user only after the user's stream
// has been ordered after that copy (`_hand_over`). Private: loom.data is their only user.
#include <string>

#include "bindings.h"
#include "loom/runtime/gpu_runtime.h"

namespace loom::py {
namespace {

// A new array on stream.device() filled from the C-contiguous NumPy array `src` (pinned),
// allocated and copied on `stream`; returns before the copy ends.
Array upload_async(nb::handle src, const Stream& stream) {
  if (!stream.device().is_gpu()) throw std::invalid_argument("[_upload_async] stream must be on a GPU");
  const DType dt = to_dtype(src.attr("dtype"));
  Py_buffer view{};
  // No PyBUF_FORMAT: NumPy then exports dtypes that have no buffer format (bfloat16).
  if (PyObject_GetBuffer(src.ptr(), &view, PyBUF_C_CONTIGUOUS) != 0) {
    PyErr_Clear();
    throw std::invalid_argument("[_upload_async] src must be a C-contiguous NumPy array");
  }
  struct Release {
    Py_buffer* v;
    ~Release() { PyBuffer_Release(v); }
  } release{&view};
  const Shape shape(view.shape, view.shape + view.ndim);
  // Allocated on the copy stream: the block is then safe to write there without waiting for
  // the user's stream, and the allocator orders its reuse after the user's last read.
  StreamScope scope(stream);
  Array dst = Array::allocate(shape, dt, stream.device());
  // Inside a traced function the batch is a constant of the trace, as any upload (transfer.cpp).
  if (dst.buffer()->is_abstract())
    dst.buffer()->materialize(memory::allocate_concrete(dst.buffer()->nbytes(), dst.device()));
  if (static_cast<size_t>(view.len) != dst.nbytes())
    throw std::invalid_argument("[_upload_async] src has " + std::to_string(view.len) + " bytes, expected " +
                                std::to_string(dst.nbytes()));
  gpu_runtime::upload_async(view.buf, dst);
  return dst;
}

// Makes the current stream of a's device wait for `copied` (recorded after a's copy) and
// the buffer's last user. Without this the first op on `a` would wait for whatever the
// copy stream holds by then, later batches' copies included (Buffer::last_stream).
void hand_over(const Array& a, const Event& copied) {
  if (!a.device().is_gpu() || copied.device() != a.device())
    throw std::invalid_argument("[_hand_over] expected a GPU array and an event of its device");
  const Stream current = Stream::current(a.device());
  copied.wait(current);
  a.buffer()->set_last_stream(current.native());
}

}  // namespace

LOOM_BINDING_FAMILY(async_copy, 57) {
  m.def("_upload_async", &upload_async, nb::arg("src"), nb::arg("stream"),
        "A new array on stream's GPU, copied from `src` (a C-contiguous NumPy array in pinned "
        "memory, loom.empty_pinned) on `stream` without waiting: keep `src` unchanged until an "
        "event recorded on `stream` afterwards has completed.");
  m.def("_hand_over", &hand_over, nb::arg("a"), nb::arg("copied"),
        "Orders the current stream of a's device after the event `copied` and makes it a's last "
        "user, so that ops on `a` wait for its copy and nothing later.");
}

}  // namespace loom::py
