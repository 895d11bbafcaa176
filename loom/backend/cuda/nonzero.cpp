// GPU nonzero and count_nonzero (kernels/loom_nonzero.cuh): per-tile counts, a one-block
// scan, then (nonzero) the index writes. The total is read back to size the result, so
// both wait for the GPU, as CuPy's nonzero does.
#include <cstdint>

#include "loom/backend/cuda/index_programs.h"
#include "loom/runtime/cuda/runtime.h"
#include "loom/backend/gpu.h"
#include "loom/runtime/gpu_runtime.h"
#include "loom/backend/gpu_indexing.h"
#include "loom/core/error.h"

namespace loom::gpu_backend {
namespace {

constexpr int kMaxDims = 64;
constexpr unsigned kThreads = 256, kTile = 256 * 16, kScanThreads = 1024;  // loom_nonzero.cuh

struct NzShape {
  int ndim;
  long long shape[kMaxDims];
};

struct Counted {
  Array starts;  // per-tile starting positions, then the total
  int64_t tiles = 0;
  int64_t total = 0;
  void* stream = nullptr;
};

// Counts the nonzero elements of contiguous `a` (size > 0) tile by tile and scans.
Counted count_tiles(const Array& a) {
  const int dev = a.device().index;
  cuda::activate(dev);
  gpu_runtime::wait_for_writer(a);
  Counted c;
  c.stream = cuda::current_stream(dev);
  c.tiles = (a.size() + kTile - 1) / kTile;
  if (c.tiles > INT32_MAX) throw UnsupportedError("[nonzero] array too large for the GPU grid");
  c.starts = Array::allocate({c.tiles + 1}, int64, a.device());
  gpu_runtime::wait_for_writer(c.starts);
  const void* x = a.data();
  long long n = a.size(), tiles = c.tiles;
  long long* counts = static_cast<long long*>(c.starts.data());
  long long* total = counts + c.tiles;
  const cuda::Program& p = cuda::nonzero_program();
  const std::string& count_name = cuda::nonzero_count_name(a.dtype());
  void* count_args[] = {&x, &n, &counts};
  cuda::launch(dev, cuda::get_function(dev, p, count_name), count_name.c_str(), static_cast<unsigned>(c.tiles),
               kThreads, 0, c.stream, count_args);
  void* scan_args[] = {&counts, &tiles, &total};
  cuda::launch(dev, cuda::get_function(dev, p, cuda::nonzero_scan_name()), cuda::nonzero_scan_name().c_str(), 1,
               kScanThreads, 0, c.stream, scan_args);
  c.starts.buffer()->set_last_stream(c.stream);
  gpu_runtime::download(c.starts.view({1}, {8}, c.tiles * 8), &c.total);
  return c;
}

}  // namespace

int64_t count_nonzero(const Array& a) {
  if (a.size() == 0) return 0;
  return count_tiles(a).total;
}

Array nonzero(const Array& a) {
  const int nd = a.ndim();
  if (nd > kMaxDims) throw UnsupportedError("[nonzero] more than 64 dimensions on the GPU");
  if (a.size() == 0) return Array::allocate({nd, 0}, int64, a.device());
  Counted c = count_tiles(a);
  Array out = Array::allocate({nd, c.total}, int64, a.device());
  if (c.total == 0) return out;
  const int dev = a.device().index;
  gpu_runtime::wait_for_writer(out);
  NzShape shape{};
  shape.ndim = nd;
  for (int d = 0; d < nd; ++d) shape.shape[d] = a.shape()[d];
  const void* x = a.data();
  long long n = a.size(), count = c.total;
  const void* starts = c.starts.data();
  void* o = out.data();
  const std::string& name = cuda::nonzero_write_name(a.dtype());
  void* args[] = {&x, &n, &starts, &o, &count, &shape};
  cuda::launch(dev, cuda::get_function(dev, cuda::nonzero_program(), name), name.c_str(),
               static_cast<unsigned>(c.tiles), kThreads, 0, c.stream, args);
  out.buffer()->set_last_stream(c.stream);
  return out;
}

}  // namespace loom::gpu_backend
