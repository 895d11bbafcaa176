// GPU evals of reductions and scans: picks the kernels of a built-in ReductionSpec
// (reduce_codegen.h) and the launch shape. Programs are cached per (kind, dtype) in a
// fixed table, so a call builds no source and hashes nothing: after the first call it is
// a table lookup plus get_function's map lookup.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "loom/runtime/cuda/check.h"
#include "loom/runtime/cuda/driver_api.h"
#include "loom/backend/cuda/reduce_codegen.h"
#include "loom/backend/cuda/reduce_launch.h"
#include "loom/runtime/cuda/context.h"
#include "loom/runtime/gpu_runtime.h"
#include "loom/backend/reduce.h"
#include "loom/core/error.h"

namespace loom::gpu_backend {
namespace {

using cuda::ReductionKernelId;
constexpr unsigned kBlock = 256;

using reduce_launch::Params;

// Slot kNumReduceKinds is var's first pass (the mean in the accumulator dtype).
constexpr int kSlots = kNumReduceKinds + 1;

const cuda::Program& program_for(int slot, DType in) {
  static std::array<std::unique_ptr<cuda::Program>, kSlots * kNumDTypes> table;
  static std::array<std::once_flag, kSlots * kNumDTypes> once;
  const int k = slot * kNumDTypes + static_cast<int>(in);
  std::call_once(once[k], [&] {
    const bool var_mean = slot == kNumReduceKinds;
    const ReduceKind kind = var_mean ? ReduceKind::var : static_cast<ReduceKind>(slot);
    table[k] = std::make_unique<cuda::Program>(cuda::reduction_program(cuda::builtin_reduction_spec(kind, in, var_mean)));
  });
  return *table[k];
}

// Resident blocks per SM of a kernel (block size kBlock), cached: full reductions launch
// exactly one wave of them. LOOM_REDUCE_BLOCKS_PER_SM overrides it (tuning).
int64_t blocks_per_sm(CUfunction fn) {
  static const int forced = [] {
    const char* e = std::getenv("LOOM_REDUCE_BLOCKS_PER_SM");
    return e ? std::atoi(e) : 0;
  }();
  if (forced > 0) return forced;
  static std::mutex mu;
  static std::unordered_map<CUfunction, int> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(fn);
  if (it != cache.end()) return it->second;
  int n = 0;
  LOOM_CU_CHECK(cuda::driver().cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, fn, kBlock, 0));
  n = std::clamp(n, 1, 8);
  cache.emplace(fn, n);
  return n;
}

struct Launcher {
  int dev;
  void* stream;
  const cuda::Program& prog;
  size_t acc_size;

  CUfunction function(ReductionKernelId id) const {
    return cuda::get_function(dev, prog, cuda::reduction_kernel_name(id));
  }
  void operator()(ReductionKernelId id, int64_t grid, unsigned block, std::initializer_list<void*> args) const {
    void* params[10];
    size_t i = 0;
    for (void* a : args) params[i++] = a;
    const std::string& name = cuda::reduction_kernel_name(id);
    CUfunction fn = function(id);
    const unsigned g = static_cast<unsigned>(std::clamp<int64_t>(grid, 1, 1 << 30));
    cuda::launch(dev, fn, name.c_str(), g, block, 0, stream, params);
  }
};

// Chunks that split a reduction of `len` so that about `target` work items exist.
int64_t chunk_len_for(int64_t len, int64_t items, int64_t target, int64_t min_chunk) {
  if (items >= target || len <= 2 * min_chunk) return std::max<int64_t>(len, 1);
  int64_t chunks = std::min((target + items - 1) / items, len / min_chunk);
  int64_t cl = (len + chunks - 1) / chunks;
  return (cl + 15) / 16 * 16;  // keeps 16-byte alignment of chunk starts for every dtype
}

void run(const Launcher& L, const char* x, const ReduceGeometry& g, void* out, void* p) {
  const int64_t sms = cuda::multiprocessor_count(L.dev);
  long long outer = g.outer, len = g.len, inner = g.inner;
  if (inner == 1) {
    long long rows = outer;
    if (len <= 1024) {
      L(ReductionKernelId::warp, (rows + 7) / 8, kBlock, {&x, &out, &rows, &len, p});
      return;
    }
    long long chunk_len = chunk_len_for(len, rows, sms * blocks_per_sm(L.function(ReductionKernelId::block_map)), 8192);
    long long chunks = (len + chunk_len - 1) / chunk_len;
    if (chunks == 1) {
      L(ReductionKernelId::block_map_post, rows, kBlock, {&x, &out, &rows, &len, &chunks, &chunk_len, p});
      return;
    }
    auto partial = gpu_runtime::allocate(L.dev, static_cast<size_t>(rows * chunks) * L.acc_size, L.stream);
    void* part = partial->data();
    L(ReductionKernelId::block_map, rows * chunks, kBlock, {&x, &part, &rows, &len, &chunks, &chunk_len, p});
    const char* px = static_cast<const char*>(part);
    long long one = 1;
    L(ReductionKernelId::block_post, rows, kBlock, {&px, &out, &rows, &chunks, &one, &chunks, p});
    partial->set_last_stream(L.stream);
    return;
  }
  long long chunk_len = chunk_len_for(len, outer * inner, sms * 2048, 64);
  long long chunks = (len + chunk_len - 1) / chunk_len;
  const int64_t threads = outer * chunks * inner;
  if (chunks == 1) {
    L(ReductionKernelId::cols_map_post, (threads + kBlock - 1) / kBlock, kBlock,
      {&x, &out, &outer, &len, &inner, &chunks, &chunk_len, p});
    return;
  }
  auto partial = gpu_runtime::allocate(L.dev, static_cast<size_t>(threads) * L.acc_size, L.stream);
  void* part = partial->data();
  L(ReductionKernelId::cols_map, (threads + kBlock - 1) / kBlock, kBlock,
    {&x, &part, &outer, &len, &inner, &chunks, &chunk_len, p});
  const char* px = static_cast<const char*>(part);
  long long one = 1;
  L(ReductionKernelId::cols_post, (outer * inner + kBlock - 1) / kBlock, kBlock,
    {&px, &out, &outer, &chunks, &inner, &one, &chunks, p});
  partial->set_last_stream(L.stream);
}

}  // namespace

namespace reduce_launch {

void run(int dev, void* stream, const cuda::Program& prog, size_t acc, const char* x, const ReduceGeometry& g,
         void* out, void* params) {
  gpu_backend::run(Launcher{dev, stream, prog, acc}, x, g, out, params);
}

Params params_of(ReduceKind kind, const ReduceParams& params) {
  return {params.divisor, params.count, kind == ReduceKind::var ? (params.take_sqrt ? 1.0 : 0.0) : params.p, nullptr};
}

// Bytes of the device accumulator (builtin_reduction_spec's acc_type).
size_t acc_size(ReduceKind kind, DType in) {
  if (kind == ReduceKind::argmin || kind == ReduceKind::argmax) return 16;  // loom_argpair, 8-aligned
  const bool small = in == float16 || in == bfloat16;
  if ((kind == ReduceKind::min || kind == ReduceKind::max) && small) return 4;  // min/max of float16 in float
  return itemsize(reduce_acc_dtype(kind, in));
}

}  // namespace reduce_launch

namespace {

using reduce_launch::acc_size;

void check_args(const char* op, const Array& in, const Array& out) {
  if (!in.valid() || !out.valid() || !in.device().is_gpu() || in.device() != out.device())
    throw_value_error(op, "input and output must be arrays on the same GPU");
  if (!out.is_contiguous()) throw_value_error(op, "the output must be contiguous");
}

}  // namespace

void reduce(const Array& in, const ReduceGeometry& g, ReduceKind kind, const ReduceParams& params, const Array& out) {
  check_args(reduce_kind_name(kind), in, out);
  const int dev = out.device().index;
  cuda::activate(dev);
  gpu_runtime::wait_for_writer(in);
  gpu_runtime::wait_for_writer(out);
  void* stream = cuda::current_stream(dev);
  if (g.outer * g.inner == 0) return;
  Params p = reduce_launch::params_of(kind, params);
  const size_t acc = acc_size(kind, in.dtype());
  const char* x = static_cast<const char*>(in.data());
  std::shared_ptr<Buffer> mean;
  if (kind == ReduceKind::var) {  // pass 1: the mean of each output, in the accumulator dtype
    mean = gpu_runtime::allocate(dev, static_cast<size_t>(g.outer * g.inner) * acc, stream);
    run(Launcher{dev, stream, program_for(kNumReduceKinds, in.dtype()), acc}, x, g, mean->data(), &p);
    p.aux = mean->data();
  }
  run(Launcher{dev, stream, program_for(static_cast<int>(kind), in.dtype()), acc}, x, g, out.data(), &p);
  if (mean) mean->set_last_stream(stream);
  out.buffer()->set_last_stream(stream);
}

void scan(const Array& in, const ReduceGeometry& g, ScanKind kind, const Array& out) {
  const ReduceKind rk = scan_reduce_kind(kind);
  check_args(kind == ScanKind::sum ? "cumsum" : "cumprod", in, out);
  const int dev = out.device().index;
  cuda::activate(dev);
  gpu_runtime::wait_for_writer(in);
  gpu_runtime::wait_for_writer(out);
  void* stream = cuda::current_stream(dev);
  if (in.size() == 0) return;
  const size_t acc = acc_size(rk, in.dtype());
  const Launcher L{dev, stream, program_for(static_cast<int>(rk), in.dtype()), acc};
  const int64_t sms = cuda::multiprocessor_count(dev);
  Params p{1, 1, 0, nullptr};
  const char* x = static_cast<const char*>(in.data());
  void* y = out.data();
  long long outer = g.outer, len = g.len, inner = g.inner;
  if (inner > 1) {
    L(ReductionKernelId::scan_cols, (outer * inner + kBlock - 1) / kBlock, kBlock, {&x, &y, &outer, &len, &inner, &p});
  } else {
    // Long rows and few of them: chunk totals, their scan, then each chunk from its carry.
    long long chunk_len = len > 65536 && outer < 2 * sms ? 16384 : len;
    long long chunks = (len + chunk_len - 1) / chunk_len;
    const void* carries = nullptr;
    std::shared_ptr<Buffer> partial;
    if (chunks > 1) {
      partial = gpu_runtime::allocate(dev, static_cast<size_t>(outer * chunks) * acc, stream);
      void* part = partial->data();
      L(ReductionKernelId::block_map, outer * chunks, kBlock, {&x, &part, &outer, &len, &chunks, &chunk_len, &p});
      const char* pc = static_cast<const char*>(part);
      long long one = 1;
      L(ReductionKernelId::scan_rows_acc, outer, kBlock, {&pc, &part, &outer, &chunks, &one, &chunks, &carries, &p});
      carries = part;
    }
    L(ReductionKernelId::scan_rows_map_post, std::min<int64_t>(outer * chunks, sms * 64), kBlock,
      {&x, &y, &outer, &len, &chunks, &chunk_len, &carries, &p});
    if (partial) partial->set_last_stream(stream);
  }
  out.buffer()->set_last_stream(stream);
}

}  // namespace loom::gpu_backend
