// GPU eval of select_ranks: radix selection over the sort keys, 8 bits a pass, MSB first
// (kernels/loom_select.cuh). Per pass one histogram kernel over the whole array and one
// single-block kernel that moves every rank's prefix and remaining rank on in device
// memory: no host synchronisation. float32 takes 4 passes (10 launches with init and
// finish), float64 and int64 8; float dtypes add two launches that do nothing unless a
// rank lands on +-0.0 or NaN, where they find the element a stable sort would put there.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "loom/backend/cuda/kernels/loom_select.cuh"
#include "loom/backend/cuda/sorting_programs.h"
#include "loom/backend/sorting.h"
#include "loom/runtime/cuda/context.h"
#include "loom/runtime/gpu_runtime.h"

namespace loom::gpu_backend {
namespace {

static_assert(LOOM_SELECT_MAX_RANKS == kMaxSelectRanks, "backend/sorting.h and loom_select.cuh disagree");

constexpr unsigned kHistBlock = 256;           // threads of the histogram kernel
constexpr unsigned kResolveBlock = 1024;       // threads of loom_select_resolve (its shared array)
constexpr int64_t kHistPerBlock = 256 * 4 * 4;  // elements a block takes per wave: 4 rounds of 4 loads

void launch(int dev, const cuda::Program& p, const std::string& expr, unsigned grid, unsigned block,
            unsigned shared, void* stream, std::initializer_list<void*> args) {
  void* params[8];
  size_t i = 0;
  for (void* a : args) params[i++] = a;
  cuda::launch(dev, cuda::get_function(dev, p, expr), expr.c_str(), grid, block, shared, stream, params);
}

}  // namespace

void select_ranks(const Array& x, const Array& ranks, const Array& out) {
  const int dev = out.device().index;
  cuda::activate(dev);
  gpu_runtime::wait_for_writer(x);
  gpu_runtime::wait_for_writer(ranks);
  gpu_runtime::wait_for_writer(out);
  void* stream = cuda::current_stream(dev);
  long long n = x.size();
  int m = static_cast<int>(ranks.size());
  if (m == 0 || n == 0) return;
  if (m > kMaxSelectRanks) throw std::logic_error("[select_ranks] more than kMaxSelectRanks ranks");

  const DType dt = x.dtype();
  const cuda::Program& p = cuda::select_program(dt);
  const cuda::SelectNames names = cuda::select_names(dt);
  const size_t hist_bytes = static_cast<size_t>(m) * LOOM_SELECT_BINS * sizeof(unsigned long long);
  std::shared_ptr<Buffer> state = gpu_runtime::allocate(dev, sizeof(loom_select_state), stream);
  std::shared_ptr<Buffer> hist = gpu_runtime::allocate(dev, hist_bytes, stream);
  void* st = state->data();
  void* hp = hist->data();
  const void* xp = x.data();
  const void* rp = ranks.data();
  void* op = out.data();

  launch(dev, p, names.init, 1, LOOM_SELECT_BINS, 0, stream, {&rp, &m, &n, &st, &hp});
  // Enough blocks to fill the GPU, few enough that their flushes of the histogram stay
  // cheap; a block's count stays below 2^32 for any array that fits in memory.
  const int64_t sms = cuda::multiprocessor_count(dev);
  const unsigned grid = static_cast<unsigned>(
      std::max<int64_t>(1, std::min<int64_t>((n + kHistPerBlock - 1) / kHistPerBlock, sms * 8)));
  const unsigned shared = static_cast<unsigned>(m) * LOOM_SELECT_BINS * sizeof(unsigned int);
  const int key_bits = static_cast<int>(8 * x.itemsize());
  for (int shift = key_bits - 8; shift >= 0; shift -= 8) {
    // The key bits above this digit, which earlier passes fixed (none in the first).
    unsigned long long mask = shift + 8 >= 64 ? 0ull : ~0ull << (shift + 8);
    launch(dev, p, names.hist, grid, kHistBlock, shared, stream, {&xp, &n, &st, &hp, &mask, &shift});
    launch(dev, p, names.scan, 1, LOOM_SELECT_BINS, 0, stream, {&st, &hp, &m, &shift});
  }
  launch(dev, p, names.finish, 1, 32, 0, stream, {&st, &m, &op});

  if (is_floating(dt)) {
    // Chunks of about sqrt(n) elements (at least 1024), so that the one block that walks
    // to a shared key's holder scans about as many chunk counts as elements.
    long long chunk = 1024;
    while (chunk < n / chunk) chunk *= 2;
    int chunks = static_cast<int>((n + chunk - 1) / chunk);
    std::shared_ptr<Buffer> counts = gpu_runtime::allocate(dev, 2 * static_cast<size_t>(chunks) * 8, stream);
    void* cp = counts->data();
    launch(dev, p, names.chunk_counts, static_cast<unsigned>(chunks), 256, 0, stream, {&xp, &n, &st, &chunk, &cp});
    launch(dev, p, names.resolve, static_cast<unsigned>(m), kResolveBlock, 0, stream,
           {&xp, &n, &st, &cp, &chunks, &chunk, &op});
  }
  out.buffer()->set_last_stream(stream);
}

}  // namespace loom::gpu_backend
