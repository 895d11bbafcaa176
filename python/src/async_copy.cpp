// loom._upload_async and loom._hand_over: the two halves of loom.data's prefetching. A
// batch is gathered into a pinned host buffer, copied to the GPU on a copy stream without
// the host waiting (`_upload_async`), and given to the user only after the user's stream
// has been ordered after that copy (`_hand_over`). Private: loom.data is their only user.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "bindings.h"
#include "loom/runtime/cpu/thread_pool.h"
#include "loom/runtime/gpu_runtime.h"
#include "loom/runtime/profiler.h"

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
  profiler::begin_span(&dst, profiler::Category::copy, "copy HtoD", "async", dst.device(), stream.native(),
                       static_cast<int64_t>(dst.nbytes()));
  gpu_runtime::upload_async(view.buf, dst);
  profiler::end_span(&dst);
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

// The bytes of C-contiguous buffer `h` (a NumPy array), checked.
struct HostBytes {
  Py_buffer view{};
  HostBytes(nb::handle h, bool writable, const char* what) {
    const int flags = PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(h.ptr(), &view, flags) != 0) {
      PyErr_Clear();
      throw std::invalid_argument(std::string("[_gather_rows] ") + what + " must be a C-contiguous" +
                                  (writable ? ", writable" : "") + " NumPy array");
    }
  }
  ~HostBytes() { PyBuffer_Release(&view); }
  HostBytes(const HostBytes&) = delete;
  HostBytes& operator=(const HostBytes&) = delete;
};

// out[i] = src[index[i]] (or src[first + i] without an index) for every row of `out`, rows
// copied in parallel on loom's CPU pool: one thread's memcpy (~10 GB/s) is slower than the
// DMA it feeds (~25 GB/s from pinned memory), so a single-threaded gather, not the copy,
// would set the pace of prefetching.
void gather_rows(nb::handle src, nb::handle index, int64_t first, nb::handle out) {
  const HostBytes s(src, false, "src"), o(out, true, "out");
  const int64_t n = o.view.ndim ? o.view.shape[0] : 1;
  const int64_t rows = s.view.ndim ? s.view.shape[0] : 1;
  if (n == 0) return;
  const int64_t row_bytes = o.view.len / n;
  if (rows == 0 || s.view.len / rows != row_bytes)
    throw std::invalid_argument("[_gather_rows] src and out rows differ in size");
  std::vector<int64_t> idx;
  if (!index.is_none()) {
    const HostBytes ix(index, false, "index");
    if (ix.view.len != n * static_cast<int64_t>(sizeof(int64_t)))
      throw std::invalid_argument("[_gather_rows] index must hold one int64 per row of out");
    const auto* p = static_cast<const int64_t*>(ix.view.buf);
    idx.assign(p, p + n);
  }
  for (int64_t i = 0; i < n; ++i) {
    const int64_t r = idx.empty() ? first + i : idx[i];
    if (r < 0 || r >= rows) throw std::invalid_argument("[_gather_rows] a row index is out of range");
  }
  const char* from = static_cast<const char*>(s.view.buf);
  char* to = static_cast<char*>(o.view.buf);
  nb::gil_scoped_release release;
  const int64_t grain = std::max<int64_t>(1, (int64_t{1} << 18) / std::max<int64_t>(row_bytes, 1));
  cpu_runtime::parallel_for(n, grain, [&](int64_t lo, int64_t hi) {
    if (idx.empty()) {
      std::memcpy(to + lo * row_bytes, from + (first + lo) * row_bytes, static_cast<size_t>((hi - lo) * row_bytes));
      return;
    }
    for (int64_t i = lo; i < hi; ++i)
      std::memcpy(to + i * row_bytes, from + idx[i] * row_bytes, static_cast<size_t>(row_bytes));
  });
}

}  // namespace

LOOM_BINDING_FAMILY(async_copy, 57) {
  m.def("_gather_rows", &gather_rows, nb::arg("src"), nb::arg("index").none(), nb::arg("first"), nb::arg("out"),
        "out[i] = src[index[i]] (src[first + i] when index is None) for every row of out, in "
        "parallel; C-contiguous NumPy arrays of one row size, int64 index.");
  m.def("_upload_async", &upload_async, nb::arg("src"), nb::arg("stream"),
        "A new array on stream's GPU, copied from `src` (a C-contiguous NumPy array in pinned "
        "memory, loom.empty_pinned) on `stream` without waiting: keep `src` unchanged until an "
        "event recorded on `stream` afterwards has completed.");
  m.def("_hand_over", &hand_over, nb::arg("a"), nb::arg("copied"),
        "Orders the current stream of a's device after the event `copied` and makes it a's last "
        "user, so that ops on `a` wait for its copy and nothing later.");
}

}  // namespace loom::py
