// GPU evals of advanced indexing (backend/indexing.h): the bounds check (an 8-byte flag
// that ops/ reads back, so advanced indexing waits for the GPU), gathers, scatters and the
// atomic scatter-combines of x.at[...]. Kernels: kernels/loom_indexing.cuh.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>

#include "loom/runtime/cuda/check.h"
#include "loom/backend/cuda/indexing_programs.h"
#include "loom/backend/cuda/programs.h"
#include "loom/backend/cuda/sorting_cub.h"
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

void check_cub(int err, const char* call) {
  if (err != cudaSuccess) cuda::raise_runtime_error(static_cast<cudaError_t>(err), call);
}

// The values' target offsets sorted (stable, so each element's values keep their order),
// then one thread per run of equal targets folds them in: for complex128's multiply, min and
// max, whose 16-byte elements no compare-and-swap covers.
void combine_in_order(int dev, const Array& dst, const void* off, const Array& values, const Layout& layout,
                      ScatterMode mode, void* stream) {
  long long n = values.size();
  const size_t bytes = static_cast<size_t>(n) * sizeof(unsigned long long);
  std::shared_ptr<Buffer> keys[2], order[2];
  for (int i = 0; i < 2; ++i) {
    keys[i] = gpu_runtime::allocate(dev, bytes, stream);
    order[i] = gpu_runtime::allocate(dev, bytes, stream);
  }
  void* k0 = keys[0]->data();
  void* o0 = order[0]->data();
  cuda::launch_elementwise(dev, cuda::index_program(), cuda::index_targets_name(), n, stream,
                           {&off, &n, const_cast<Layout*>(&layout), &k0, &o0});
  void* kb[2] = {keys[0]->data(), keys[1]->data()};
  void* ob[2] = {order[0]->data(), order[1]->data()};
  size_t temp_bytes = 0;
  int ksel = 0, osel = 0;
  check_cub(cuda::cub_sort_pairs_u64(8, nullptr, temp_bytes, kb, ob, n, 0, 64, stream, nullptr, nullptr),
            "cub::DeviceRadixSort::SortPairs (size query)");
  std::shared_ptr<Buffer> temp = gpu_runtime::allocate(dev, std::max<size_t>(temp_bytes, 1), stream);
  check_cub(cuda::cub_sort_pairs_u64(8, temp->data(), temp_bytes, kb, ob, n, 0, 64, stream, &ksel, &osel),
            "cub::DeviceRadixSort::SortPairs");
  void* d = dst.data();
  const void* ks = kb[ksel];
  const void* os = ob[osel];
  const void* v = values.data();
  cuda::launch_elementwise(dev, cuda::index_combine_program(dst.dtype()), cuda::index_combine_name(dst.dtype(), mode),
                           n, stream, {&d, &ks, &os, &v, &n});
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
  } else if (dst.dtype() == DType::complex128 && mode != ScatterMode::add) {
    combine_in_order(dev, dst, off, values, layout, mode, stream);
  } else {
    cuda::launch_elementwise(dev, cuda::index_combine_program(dst.dtype()), cuda::index_combine_name(dst.dtype(), mode),
                             n, stream, {&d, &off, &v, &n, const_cast<Layout*>(&layout)});
  }
  dst.buffer()->set_last_stream(stream);
}

}  // namespace loom::gpu_backend
