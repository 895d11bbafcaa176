// GPU nonzero and count_nonzero (kernels/loom_indexing_nonzero.cuh): per-tile counts and a
// one-block scan (nonzero_starts), then (nonzero) the index writes. ops/ reads the total
// back between the two to size the result, so both wait for the GPU, as CuPy's nonzero does.
#include <cstdint>

#include "loom/backend/cuda/indexing_programs.h"
#include "loom/runtime/cuda/context.h"
#include "loom/backend/creation.h"
#include "loom/runtime/gpu_runtime.h"
#include "loom/backend/indexing.h"
#include "loom/core/error.h"

namespace loom::gpu_backend {
namespace {

constexpr int kMaxDims = 64;
constexpr unsigned kThreads = 256, kTile = 256 * 16, kScanThreads = 1024;  // loom_indexing_nonzero.cuh

struct NzShape {
  int ndim;
  long long shape[kMaxDims];
};

}  // namespace

Array nonzero_starts(const Array& a) {
  const int dev = a.device().index;
  cuda::activate(dev);
  gpu_runtime::wait_for_writer(a);
  void* stream = cuda::current_stream(dev);
  const int64_t tiles = (a.size() + kTile - 1) / kTile;
  if (tiles > INT32_MAX) throw UnsupportedError("[nonzero] array too large for the GPU grid");
  Array starts = Array::allocate({tiles + 1}, int64, a.device());
  gpu_runtime::wait_for_writer(starts);
  const void* x = a.data();
  long long n = a.size(), ntiles = tiles;
  long long* counts = static_cast<long long*>(starts.data());
  long long* total = counts + tiles;
  const cuda::Program& p = cuda::nonzero_program();
  const std::string& count_name = cuda::nonzero_count_name(a.dtype());
  void* count_args[] = {&x, &n, &counts};
  cuda::launch(dev, cuda::get_function(dev, p, count_name), count_name.c_str(), static_cast<unsigned>(tiles),
               kThreads, 0, stream, count_args);
  void* scan_args[] = {&counts, &ntiles, &total};
  cuda::launch(dev, cuda::get_function(dev, p, cuda::nonzero_scan_name()), cuda::nonzero_scan_name().c_str(), 1,
               kScanThreads, 0, stream, scan_args);
  starts.buffer()->set_last_stream(stream);
  return starts;
}

void nonzero(const Array& a, const Array& starts, const Array& out) {
  const int nd = a.ndim();
  if (nd > kMaxDims) throw UnsupportedError("[nonzero] more than 64 dimensions on the GPU");
  if (out.size() == 0) return;
  const int dev = a.device().index;
  cuda::activate(dev);
  gpu_runtime::wait_for_writer(a);
  gpu_runtime::wait_for_writer(starts);
  gpu_runtime::wait_for_writer(out);
  void* stream = cuda::current_stream(dev);
  NzShape shape{};
  shape.ndim = nd;
  for (int d = 0; d < nd; ++d) shape.shape[d] = a.shape()[d];
  const int64_t tiles = starts.size() - 1;
  const void* x = a.data();
  long long n = a.size(), count = out.shape()[1];
  const void* sp = starts.data();
  void* o = out.data();
  const std::string& name = cuda::nonzero_write_name(a.dtype());
  void* args[] = {&x, &n, &sp, &o, &count, &shape};
  cuda::launch(dev, cuda::get_function(dev, cuda::nonzero_program(), name), name.c_str(),
               static_cast<unsigned>(tiles), kThreads, 0, stream, args);
  out.buffer()->set_last_stream(stream);
}

}  // namespace loom::gpu_backend
