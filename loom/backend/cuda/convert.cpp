// GPU evals of convert: dst (contiguous) = src (any layout) cast to dst's dtype, and of
// copy_from_host.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <climits>
#include <cstdint>

#include "loom/runtime/cuda/check.h"
#include "loom/backend/cuda/programs.h"
#include "loom/runtime/cuda/context.h"
#include "loom/backend/creation.h"
#include "loom/runtime/gpu_runtime.h"
#include "loom/core/error.h"

namespace loom::gpu_backend {
namespace {

constexpr int kMaxDims = 64;  // LOOM_MAX_DIMS in kernels/loom_cast.cuh

// Mirrors loom_strided_layout<I> of kernels/loom_convert.cuh.
template <typename I>
struct StridedLayout {
  int ndim;
  I shape[kMaxDims];
  I strides[kMaxDims];
};
static_assert(sizeof(StridedLayout<int>) == 4 + 2 * 4 * kMaxDims, "layout mismatch");
static_assert(sizeof(StridedLayout<long long>) == 8 + 2 * 8 * kMaxDims, "layout mismatch");

template <typename I>
StridedLayout<I> make_layout(const CollapsedLayout& l) {
  StridedLayout<I> layout{};
  layout.ndim = static_cast<int>(l.shape.size());
  for (int d = 0; d < layout.ndim; ++d) {
    layout.shape[d] = static_cast<I>(l.shape[d]);
    layout.strides[d] = static_cast<I>(l.strides[d]);
  }
  return layout;
}

void launch_contiguous(int dev, const void* src, DType sdt, void* dst, DType ddt, int64_t n,
                       void* stream) {
  long long count = n;
  cuda::launch_elementwise(dev, cuda::convert_program(sdt), cuda::convert_name(sdt, ddt), n, stream,
                           {&src, &dst, &count});
}

}  // namespace

void convert(const Array& src, const Array& dst) {
  if (!src.valid() || !dst.valid() || !src.device().is_gpu() || src.device() != dst.device())
    throw_value_error("convert", "src and dst must be arrays on the same GPU");
  if (!dst.is_contiguous()) throw_value_error("convert", "dst must be contiguous");
  if (src.shape() != dst.shape()) throw_value_error("convert", "src and dst shapes differ");
  const int dev = dst.device().index;
  cuda::activate(dev);
  gpu_runtime::wait_for_writer(src);
  gpu_runtime::wait_for_writer(dst);
  void* stream = cuda::current_stream(dev);
  const int64_t n = dst.size();
  if (n == 0) return;

  if (src.is_contiguous()) {
    if (src.dtype() == dst.dtype()) {
      LOOM_CUDA_CHECK(cudaMemcpyAsync(dst.data(), src.data(), dst.nbytes(), cudaMemcpyDeviceToDevice,
                                      static_cast<cudaStream_t>(stream)));
    } else {
      launch_contiguous(dev, src.data(), src.dtype(), dst.data(), dst.dtype(), n, stream);
    }
    dst.buffer()->set_last_stream(stream);
    return;
  }

  const CollapsedLayout l = collapse_dims(src.shape(), src.strides());
  if (l.shape.size() > static_cast<size_t>(kMaxDims))
    throw_value_error("convert", "more than 64 dimensions after collapsing");
  const int64_t isz = static_cast<int64_t>(src.itemsize());
  bool aligned = reinterpret_cast<uintptr_t>(src.data()) % isz == 0;
  int64_t lo = 0, hi = 0;  // byte offsets reached, relative to element 0
  for (size_t d = 0; d < l.shape.size(); ++d) {
    aligned = aligned && l.strides[d] % isz == 0;
    const int64_t span = (l.shape[d] - 1) * l.strides[d];
    (span < 0 ? lo : hi) += span;
  }
  if (!aligned)
    throw UnsupportedError("[convert] GPU arrays whose data or strides are not multiples of the "
                           "itemsize are not supported");
  // 32-bit indexing when every index (plus a grid's worth of threads) and offset fits.
  const bool index32 = n < (int64_t{1} << 31) - (int64_t{1} << 26) && lo >= INT_MIN && hi <= INT_MAX;
  const void* sp = src.data();
  if (index32) {
    StridedLayout<int> layout = make_layout<int>(l);
    void* dp = dst.data();
    int count = static_cast<int>(n);
    cuda::launch_elementwise(dev, cuda::convert_program(src.dtype()),
                             cuda::convert_strided_name(src.dtype(), dst.dtype()), n, stream,
                             {&sp, &dp, &count, &layout});
  } else {
    // Gather into contiguous memory of src's dtype (dst itself when no cast is needed).
    StridedLayout<long long> layout = make_layout<long long>(l);
    std::shared_ptr<Buffer> tmp;
    void* gathered = dst.data();
    if (src.dtype() != dst.dtype()) {
      tmp = gpu_runtime::allocate(dev, static_cast<size_t>(n) * src.itemsize(), stream);
      gathered = tmp->data();
    }
    long long count = n;
    cuda::launch_elementwise(dev, cuda::convert_program(src.dtype()), cuda::gather_name(src.itemsize()),
                             n, stream, {&sp, &gathered, &count, &layout});
    if (tmp) launch_contiguous(dev, gathered, src.dtype(), dst.data(), dst.dtype(), n, stream);
  }
  dst.buffer()->set_last_stream(stream);
}

void copy_from_host(const HostView& src, const Array& dst) { gpu_runtime::upload(src, dst); }

}  // namespace loom::gpu_backend
