// GPU evals of the counting family (kernels/loom_counting.cuh). min/max: per-block pairs
// into scratch, then one block. bincount and histogram: one launch over a zeroed output;
// each block sums into shared memory when its sums (and the histogram's edges) fit in
// kSharedMax bytes, else every element is a global atomic (weights: float64 atomicAdd).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "loom/backend/counting.h"
#include "loom/backend/cuda/counting_programs.h"
#include "loom/core/error.h"
#include "loom/runtime/cuda/check.h"
#include "loom/runtime/cuda/context.h"
#include "loom/runtime/gpu_runtime.h"

namespace loom::gpu_backend {
namespace {

constexpr unsigned kThreads = 256;               // LOOM_COUNT_THREADS
constexpr int64_t kItems = 16;                   // elements per thread before the grid stops growing
constexpr int64_t kSharedMax = 32 * 1024;        // a block's sums and edges in shared memory
constexpr int64_t kSharedPerSm = 200 * 1024;    // of an SM's shared memory (228 KiB on Hopper)
constexpr int64_t kCounterMax = int64_t{1} << 31;  // elements per block under 32-bit shared counters

// Blocks for n elements: enough for kItems per thread, at most as many per SM as are
// resident at once with `smem` shared bytes each, and enough that no block counts
// kCounterMax elements.
unsigned blocks_for(int dev, int64_t n, int64_t smem) {
  const int64_t per_sm = std::clamp<int64_t>(kSharedPerSm / std::max<int64_t>(smem, 1), 1, 8);
  const int64_t want = (n + kThreads * kItems - 1) / (kThreads * kItems);
  const int64_t cap = static_cast<int64_t>(cuda::multiprocessor_count(dev)) * per_sm;
  const int64_t least = (n + kCounterMax - 1) / kCounterMax;
  return static_cast<unsigned>(std::clamp<int64_t>(std::max(std::min(want, cap), least), 1, INT32_MAX));
}

// Bytes per bin of a block's sums: 32-bit counters, or one or two doubles.
int64_t sum_bytes(int w) { return w == 0 ? 4 : w == 1 ? 8 : w == 2 ? 16 : 0; }

int weight_mode(const Array& weights) {
  if (!weights.valid()) return 0;
  return weights.dtype() == complex128 ? 2 : 1;
}

// Launches kernel `name` of `program` on the stream with `smem` bytes of shared memory.
void launch_counting(int dev, void* stream, const cuda::Program& program, const std::string& name, unsigned grid,
                     int64_t smem, void** args) {
  cuda::launch(dev, cuda::get_function(dev, program, name), name.c_str(), grid, kThreads,
               static_cast<unsigned>(smem), stream, args);
}

void check_dtype(const char* op, DType dt) {
  if (!cuda::counting_dtype(dt))
    throw_dtype_error(op, std::string(dtype_name(dt)) + " is not supported on the GPU here");
}

}  // namespace

void minmax(const Array& x, const Array& out) {
  check_dtype("minmax", x.dtype());
  if (x.size() == 0) throw_value_error("minmax", "zero-size array");
  const int dev = out.device().index;
  cuda::activate(dev);
  gpu_runtime::wait_for_writer(x);
  gpu_runtime::wait_for_writer(out);
  void* stream = cuda::current_stream(dev);
  const unsigned grid = blocks_for(dev, x.size(), 0);
  const size_t value_bytes = x.dtype() == float16 ? 4 : x.itemsize();  // float16 pairs are floats
  std::shared_ptr<Buffer> partial = gpu_runtime::allocate(dev, 2 * grid * value_bytes, stream);
  const cuda::Program& p = cuda::counting_program(x.dtype(), cuda::CountingGroup::plain);
  const void* xp = x.data();
  long long n = x.size(), count = grid;
  void* pp = partial->data();
  void* op = out.data();
  void* a1[] = {&xp, &n, &pp};
  launch_counting(dev, stream, p, cuda::minmax_partial_name(x.dtype()), grid, 0, a1);
  void* a2[] = {&pp, &count, &op};
  launch_counting(dev, stream, p, cuda::minmax_final_name(x.dtype()), 1, 0, a2);
  out.buffer()->set_last_stream(stream);
}

void bincount(const Array& x, const Array& weights, const Array& out) {
  check_dtype("bincount", x.dtype());
  const int dev = out.device().index;
  cuda::activate(dev);
  gpu_runtime::wait_for_writer(x);
  if (weights.valid()) gpu_runtime::wait_for_writer(weights);
  gpu_runtime::wait_for_writer(out);
  void* stream = cuda::current_stream(dev);
  if (out.nbytes() > 0)
    LOOM_CUDA_CHECK(cudaMemsetAsync(out.data(), 0, out.nbytes(), static_cast<cudaStream_t>(stream)));
  if (x.size() > 0 && out.size() > 0) {
    const int w = weight_mode(weights);
    const int64_t bins = out.size(), smem = bins * sum_bytes(w);
    const bool shared = smem <= kSharedMax;
    const unsigned grid = shared ? blocks_for(dev, x.size(), smem) : cuda::grid_size(dev, x.size(), kThreads);
    const void* xp = x.data();
    const void* wp = weights.valid() ? weights.data() : nullptr;
    void* op = out.data();
    long long n = x.size(), nb = bins;
    int sh = shared ? 1 : 0;
    void* args[] = {&xp, &n, &wp, &op, &nb, &sh};
    const cuda::Program& p =
        cuda::counting_program(x.dtype(), w ? cuda::CountingGroup::weighted : cuda::CountingGroup::plain);
    launch_counting(dev, stream, p, cuda::bincount_name(x.dtype(), w), grid, shared ? smem : 0, args);
  }
  out.buffer()->set_last_stream(stream);
}

void histogram(const Array& x, const Array& edges, const Array& weights, const HistogramParams& hp,
               const Array& out) {
  check_dtype("histogram", x.dtype());
  if (x.dtype() == bool_) throw_dtype_error("histogram", "bool values are not supported here");
  const int dev = out.device().index;
  cuda::activate(dev);
  gpu_runtime::wait_for_writer(x);
  gpu_runtime::wait_for_writer(edges);
  if (weights.valid()) gpu_runtime::wait_for_writer(weights);
  gpu_runtime::wait_for_writer(out);
  void* stream = cuda::current_stream(dev);
  if (!hp.bin_index && out.nbytes() > 0)
    LOOM_CUDA_CHECK(cudaMemsetAsync(out.data(), 0, out.nbytes(), static_cast<cudaStream_t>(stream)));
  if (x.size() > 0) {
    const int w = hp.bin_index ? 3 : weight_mode(weights);
    const int64_t bins = hp.bins;
    const int64_t edge_bytes = (bins + 1) * (edges.dtype() == float16 ? 4 : static_cast<int64_t>(edges.itemsize()));
    const int64_t smem = (bins * sum_bytes(w) + 7) / 8 * 8 + edge_bytes;
    const bool shared = smem <= kSharedMax;
    const unsigned grid = shared ? blocks_for(dev, x.size(), smem) : cuda::grid_size(dev, x.size(), kThreads);
    const void* xp = x.data();
    const void* ep = edges.data();
    const void* wp = weights.valid() ? weights.data() : nullptr;
    void* op = out.data();
    long long n = x.size(), nb = bins;
    double denom = hp.denom, cn = hp.count;
    int sh = shared ? 1 : 0;
    void* args[] = {&xp, &n, &ep, &nb, &denom, &cn, &wp, &op, &sh};
    const cuda::CountingGroup g = w == 3   ? cuda::CountingGroup::bins
                                  : w == 0 ? cuda::CountingGroup::plain
                                           : cuda::CountingGroup::weighted;
    launch_counting(dev, stream, cuda::counting_program(x.dtype(), g), cuda::histogram_name(x.dtype(), hp.wide, w),
                    grid, shared ? smem : 0, args);
  }
  out.buffer()->set_last_stream(stream);
}

}  // namespace loom::gpu_backend
