// GPU eval of elementwise ops: classify the operands (contiguous with 16-byte vectors,
// contiguous unaligned, or strided over jointly collapsed dims; 32- or 64-bit indices),
// look the kernel up by a compact key, and launch it. A miss generates the source
// (graph/cuda_codegen.cpp) and compiles it through the compile cache; a hit does no
// string work and no allocation, which keeps small ops at launch cost.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "loom/graph/cuda_codegen.h"
#include "loom/runtime/cuda/module_cache.h"
#include "loom/runtime/cuda/context.h"
#include "loom/runtime/gpu_runtime.h"
#include "loom/backend/elementwise.h"
#include "loom/core/error.h"

namespace loom::gpu_backend {
namespace {

using IK = FusedGraph::InputKind;
constexpr int kMaxOps = 4;
constexpr int kMaxDims = 64;

struct Kernel {
  CUfunction fn;
  std::string name;
};

std::mutex g_mu;
std::unordered_map<uint64_t, Kernel>& kernels() {
  static auto* m = new std::unordered_map<uint64_t, Kernel>();
  return *m;
}

// Everything that decides the generated source, packed into 56 bits (+ 8 for the device).
uint64_t pack_key(const ElementwiseCall& c, const DType* dt, const IK* kinds, const cuda::KernelConfig& cfg) {
  uint64_t k = static_cast<uint64_t>(c.op);
  k = (k << 4) | static_cast<uint64_t>(c.loop);
  k = (k << 4) | static_cast<uint64_t>(c.out.dtype());
  for (int i = 0; i < 3; ++i) {
    const bool used = i < c.nin;
    k = (k << 4) | (used ? static_cast<uint64_t>(dt[i]) : 0);
    k = (k << 2) | (used ? static_cast<uint64_t>(kinds[i]) + 1 : 0);
  }
  k = (k << 1) | (cfg.strided ? 1 : 0);
  k = (k << 5) | static_cast<uint64_t>(cfg.vec);
  k = (k << 1) | (cfg.index32 ? 1 : 0);
  k = (k << 7) | static_cast<uint64_t>(cfg.ndim);
  return k;
}

const Kernel& kernel_for(int dev, uint64_t key, const ElementwiseCall& c, const DType* dt, const IK* kinds,
                         const cuda::KernelConfig& cfg) {
  const uint64_t full = key ^ (static_cast<uint64_t>(dev) << 56);
  // Loops call one kernel again and again: a per-thread last hit skips the mutex and the
  // map. Entries are never erased and map nodes do not move, so the pointer stays valid.
  thread_local uint64_t t_key = 0;
  thread_local const Kernel* t_kernel = nullptr;
  if (t_kernel && t_key == full) return *t_kernel;
  {
    std::lock_guard<std::mutex> lock(g_mu);
    auto it = kernels().find(full);
    if (it != kernels().end()) {
      t_key = full;
      t_kernel = &it->second;
      return it->second;
    }
  }
  std::vector<DType> in(dt, dt + c.nin);
  std::vector<IK> k(kinds, kinds + c.nin);
  const FusedGraph g = single_op_graph(c.op, c.loop, in, k, c.out.dtype());
  char hash[24];
  std::snprintf(hash, sizeof(hash), "%014llx", static_cast<unsigned long long>(key));
  const std::string name = std::string("loom_") + op_info(c.op).name + "_" + hash;
  const cuda::Program program(name + ".cu", cuda::elementwise_source(g, cfg, name), {name}, {"--fmad=false"});
  Kernel kernel{cuda::get_function(dev, program, name), name};
  std::lock_guard<std::mutex> lock(g_mu);
  const Kernel& added = kernels().emplace(full, std::move(kernel)).first->second;
  t_key = full;
  t_kernel = &added;
  return added;
}

// Joint collapse of the operands' dims (size-1 dims dropped, mergeable neighbours merged).
int collapse(const Shape& shape, const int64_t* const* st, int nops, int64_t* cshape, int64_t (*cst)[kMaxDims]) {
  int nd = 0;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    bool merge = nd > 0;
    for (int o = 0; o < nops && merge; ++o) merge = cst[o][nd - 1] == shape[d] * st[o][d];
    if (merge) {
      cshape[nd - 1] *= shape[d];
      for (int o = 0; o < nops; ++o) cst[o][nd - 1] = st[o][d];
    } else {
      cshape[nd] = shape[d];
      for (int o = 0; o < nops; ++o) cst[o][nd] = st[o][d];
      ++nd;
    }
  }
  return nd;
}

bool all_zero(const Strides& s) {
  for (int64_t v : s)
    if (v != 0) return false;
  return true;
}

}  // namespace

void elementwise(const ElementwiseCall& c) {
  const Array& out = c.out;
  const int dev = out.device().index;
  const int nin = c.nin, nops = nin + 1;
  cuda::activate(dev);
  // The stream is read once; wait_for_writer (which checks again) only runs for an array
  // last written on another stream, so the common case costs a pointer compare.
  void* stream = cuda::current_stream(dev);
  auto wait = [stream](const Array& a) {
    if (!a.buffer() || a.buffer()->last_stream() != stream) gpu_runtime::wait_for_writer(a);
  };
  for (int i = 0; i < nin; ++i)
    if (!c.is_scalar[i]) wait(c.in[i]);
  wait(out);
  const int64_t n = out.size();
  if (n == 0) return;

  DType dt[3];
  IK kinds[3];
  alignas(8) unsigned char scalar_bytes[3][16];
  const void* ptrs[kMaxOps];
  bool contiguous = out.is_contiguous();
  for (int i = 0; i < nin; ++i) {
    if (c.is_scalar[i]) {
      dt[i] = input_loop_dtype(c.op, i, c.loop);
      kinds[i] = IK::param;
      scalar_to_bytes(c.scalar[i], dt[i], scalar_bytes[i]);
      ptrs[i] = scalar_bytes[i];
      continue;
    }
    dt[i] = c.in[i].dtype();
    ptrs[i] = c.in[i].data();
    kinds[i] = all_zero(c.in[i].strides()) ? IK::uniform : IK::array;
    if (kinds[i] == IK::array && !c.in[i].is_contiguous()) contiguous = false;
  }
  ptrs[nin] = out.data();

  cuda::KernelConfig cfg;
  unsigned grid = 1;
  alignas(8) unsigned char layout[8 * (kMaxDims + kMaxOps * kMaxDims)];
  size_t layout_size = 0;
  if (contiguous) {
    size_t widest = out.itemsize();
    for (int i = 0; i < nin; ++i)
      if (kinds[i] == IK::array) widest = std::max(widest, c.in[i].itemsize());
    int vec = static_cast<int>(16 / widest);
    auto aligned = [&](const void* p, size_t item) { return reinterpret_cast<uintptr_t>(p) % (item * vec) == 0; };
    bool ok = aligned(out.data(), out.itemsize());
    for (int i = 0; i < nin; ++i)
      if (kinds[i] == IK::array) ok = ok && aligned(ptrs[i], c.in[i].itemsize());
    cfg.vec = ok && n >= vec ? vec : 1;
    cfg.index32 = n < (int64_t{1} << 31);
    const int64_t per_block = static_cast<int64_t>(cuda::kElementwiseBlock) * (cfg.vec > 1 ? cuda::kElementwiseUnroll * cfg.vec : 1);
    const int64_t cap = static_cast<int64_t>(cuda::multiprocessor_count(dev)) * 32;
    grid = static_cast<unsigned>(std::max<int64_t>(1, std::min((n + per_block - 1) / per_block, cap)));
  } else {
    const int64_t* st[kMaxOps] = {};
    for (int i = 0; i < nin; ++i) st[i] = kinds[i] == IK::array ? c.in[i].strides().data() : nullptr;
    static const Strides zeros(kMaxDims, 0);
    for (int i = 0; i < nin; ++i)
      if (!st[i]) st[i] = zeros.data();
    st[nin] = out.strides().data();
    if (out.ndim() > kMaxDims) throw_value_error(op_info(c.op).name, "too many dimensions");
    int64_t cshape[kMaxDims];
    int64_t cst[kMaxOps][kMaxDims];
    const int nd = std::max(1, collapse(out.shape(), st, nops, cshape, cst));
    if (nd == 1 && cshape[0] == 0) cshape[0] = 1;  // unreachable (n > 0); keeps the layout defined
    bool index32 = n < (int64_t{1} << 31);
    for (int o = 0; o < nops; ++o) {
      if (o < nin && kinds[o] != IK::array) continue;
      const int64_t item = static_cast<int64_t>(o < nin ? c.in[o].itemsize() : out.itemsize());
      int64_t span = 0;
      bool ok = reinterpret_cast<uintptr_t>(ptrs[o]) % item == 0;
      for (int d = 0; d < nd; ++d) {
        ok = ok && cst[o][d] % item == 0;
        span += (cshape[d] - 1) * (cst[o][d] < 0 ? -cst[o][d] : cst[o][d]);
      }
      if (!ok)
        throw UnsupportedError(std::string("[") + op_info(c.op).name +
                               "] GPU arrays whose data or strides are not multiples of the itemsize");
      index32 = index32 && span < (int64_t{1} << 31);
    }
    cfg.strided = true;
    cfg.ndim = nd;
    cfg.index32 = index32;
    auto fill = [&](auto zero) {
      using I = decltype(zero);
      I* p = reinterpret_cast<I*>(layout);
      for (int d = 0; d < nd; ++d) p[d] = static_cast<I>(cshape[d]);
      for (int o = 0; o < nops; ++o)
        for (int d = 0; d < nd; ++d) p[nd + o * nd + d] = (o < nin && kinds[o] != IK::array) ? 0 : static_cast<I>(cst[o][d]);
      layout_size = sizeof(I) * nd * (nops + 1);
    };
    if (index32) fill(int{0});
    else fill(0ll);
    grid = cuda::grid_size(dev, n, cuda::kElementwiseBlock);
  }

  const Kernel& k = kernel_for(dev, pack_key(c, dt, kinds, cfg), c, dt, kinds, cfg);
  void* args[8];
  int a = 0;
  for (int i = 0; i < nin; ++i) args[a++] = kinds[i] == IK::param ? const_cast<void*>(ptrs[i]) : &ptrs[i];
  args[a++] = &ptrs[nin];
  unsigned n32 = static_cast<unsigned>(n);
  unsigned long long n64 = static_cast<unsigned long long>(n);
  args[a++] = cfg.index32 ? static_cast<void*>(&n32) : static_cast<void*>(&n64);
  if (cfg.strided) args[a++] = layout;
  (void)layout_size;
  cuda::launch(dev, k.fn, k.name.c_str(), grid, cuda::kElementwiseBlock, 0, stream, args);
  out.buffer()->set_last_stream(stream);
}

}  // namespace loom::gpu_backend
