// GPU evals of advanced indexing (backend/indexing.h): the bounds check (an 8-byte flag
// that ops/ reads back, so advanced indexing waits for the GPU), gathers, scatters and the
// atomic scatter-combines of x.at[...]. Kernels: kernels/loom_indexing.cuh.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

#include "loom/runtime/cuda/check.h"
#include "loom/backend/cuda/indexing_programs.h"
#include "loom/backend/cuda/programs.h"
#include "loom/runtime/cuda/context.h"
#include "loom/backend/creation.h"
#include "loom/runtime/gpu_runtime.h"
#include "loom/backend/indexing.h"
#include "loom/core/error.h"

namespace loom::gpu_backend {
namespace {

constexpr int kMaxDims = 64;  // LOOM_MAX_DIMS

// Mirror loom_index_args / loom_index_layout of kernels/loom_indexing.cuh.
struct IndexArgs {
  int k;
  long long size[kMaxDims];
  long long stride[kMaxDims];
  const long long* idx[kMaxDims];
};
struct Layout {
  int ndim;
  long long shape[kMaxDims];
  long long src_strides[kMaxDims];
  long long b_strides[kMaxDims];
};
static_assert(sizeof(IndexArgs) == 8 + 3 * 8 * kMaxDims, "IndexArgs layout");
static_assert(sizeof(Layout) == 8 + 3 * 8 * kMaxDims, "Layout layout");

Layout make_layout(const char* op, const IndexLayout& l) {
  if (l.shape.size() > static_cast<size_t>(kMaxDims))
    throw UnsupportedError(std::string("[") + op + "] more than 64 dimensions on the GPU");
  Layout out{};
  out.ndim = static_cast<int>(l.shape.size());
  for (int d = 0; d < out.ndim; ++d) {
    out.shape[d] = l.shape[d];
    out.src_strides[d] = l.src_strides[d];
    out.b_strides[d] = l.b_strides[d];
  }
  return out;
}

// Element loads and stores of the kernels need itemsize-aligned addresses.
void check_aligned(const char* op, const Array& a) {
  const int64_t isz = static_cast<int64_t>(a.itemsize());
  bool ok = reinterpret_cast<uintptr_t>(a.data()) % isz == 0;
  for (int64_t s : a.strides()) ok = ok && s % isz == 0;
  if (!ok) {
    throw UnsupportedError(std::string("[") + op +
                           "] GPU arrays whose data or strides are not multiples of the itemsize are not supported");
  }
}

// The kernels' view of the index arrays; the current stream then follows their writers.
IndexArgs index_args(const IndexArrays& ix) {
  const int k = static_cast<int>(ix.indices.size());
  if (k > kMaxDims) throw UnsupportedError("[getitem] more than 64 index arrays on the GPU");
  IndexArgs args{};
  args.k = k;
  for (int j = 0; j < k; ++j) {
    gpu_runtime::wait_for_writer(ix.indices[j]);
    args.size[j] = ix.dim_sizes[j];
    args.stride[j] = ix.byte_strides[j];
    args.idx[j] = static_cast<const long long*>(ix.indices[j].data());
  }
  return args;
}

}  // namespace

void index_offsets(const IndexArrays& ix, const Array& out) {
  const int dev = ix.indices[0].device().index;
  cuda::activate(dev);
  IndexArgs args = index_args(ix);
  void* stream = cuda::current_stream(dev);
  // n offsets, then the flag (~0: every index in bounds).
  const int64_t n = out.size() - 1;
  gpu_runtime::wait_for_writer(out);
  long long* offsets = static_cast<long long*>(out.data());
  unsigned long long* bad = reinterpret_cast<unsigned long long*>(offsets + n);
  LOOM_CUDA_CHECK(cudaMemsetAsync(bad, 0xff, 8, static_cast<cudaStream_t>(stream)));
  long long count = n;
  cuda::launch_elementwise(dev, cuda::index_program(), cuda::index_offsets_name(), n, stream,
                           {&args, &count, &offsets, &bad});
  out.buffer()->set_last_stream(stream);
}

void gather(const Array& src, const Array& offsets, const IndexLayout& l, const Array& out) {
  check_aligned("getitem", src);
  const int dev = out.device().index;
  cuda::activate(dev);
  gpu_runtime::wait_for_writer(src);
  gpu_runtime::wait_for_writer(offsets);
  gpu_runtime::wait_for_writer(out);
  void* stream = cuda::current_stream(dev);
  const Layout layout = make_layout("getitem", l);
  const void* s = src.data();
  const void* off = offsets.data();
  void* o = out.data();
  long long n = out.size();
  cuda::launch_elementwise(dev, cuda::index_program(), cuda::index_gather_name(out.itemsize()), n, stream,
                           {&s, &off, &o, &n, const_cast<Layout*>(&layout)});
  out.buffer()->set_last_stream(stream);
}

void gather_indexed(const Array& src, const IndexArrays& ix, const Array& out, const Array& bad) {
  check_aligned("getitem", src);
  const int dev = out.device().index;
  cuda::activate(dev);
  IndexArgs args = index_args(ix);
  gpu_runtime::wait_for_writer(src);
  gpu_runtime::wait_for_writer(out);
  gpu_runtime::wait_for_writer(bad);
  void* stream = cuda::current_stream(dev);
  const void* s = src.data();
  void* o = out.data();
  long long n = out.size();
  unsigned long long* flag = static_cast<unsigned long long*>(bad.data());
  LOOM_CUDA_CHECK(cudaMemsetAsync(flag, 0xff, 8, static_cast<cudaStream_t>(stream)));  // -1: none out of bounds
  cuda::launch_elementwise(dev, cuda::index_program(), cuda::index_gather_direct_name(out.itemsize()), n, stream,
                           {&s, &args, &o, &n, &flag});
  out.buffer()->set_last_stream(stream);
  bad.buffer()->set_last_stream(stream);
}

void scatter(const Array& dst, const Array& offsets, const IndexLayout& l, const Array& values,
             ScatterMode mode) {
  const char* op = mode == ScatterMode::set ? "setitem" : "at";
  check_aligned(op, dst);
  const int dev = dst.device().index;
  cuda::activate(dev);
  gpu_runtime::wait_for_writer(dst);
  if (offsets.valid()) gpu_runtime::wait_for_writer(offsets);
  gpu_runtime::wait_for_writer(values);
  void* stream = cuda::current_stream(dev);
  const Layout layout = make_layout(op, l);
  void* d = dst.data();
  const void* off = offsets.valid() ? offsets.data() : nullptr;
  const void* v = values.data();
  long long n = values.size();
  if (mode == ScatterMode::set) {
    cuda::launch_elementwise(dev, cuda::index_program(), cuda::index_scatter_name(dst.itemsize()), n, stream,
                             {&d, &off, &v, &n, const_cast<Layout*>(&layout)});
  } else {
    cuda::launch_elementwise(dev, cuda::index_combine_program(dst.dtype()), cuda::index_combine_name(dst.dtype(), mode),
                             n, stream, {&d, &off, &v, &n, const_cast<Layout*>(&layout)});
  }
  dst.buffer()->set_last_stream(stream);
}

}  // namespace loom::gpu_backend
