#include "loom/backend/cuda/elementwise_launch.h"

#include <algorithm>

#include "loom/core/error.h"
#include "loom/runtime/cuda/context.h"
#include "loom/runtime/gpu_runtime.h"

namespace loom::gpu_backend::ew {
namespace {

using IK = FusedGraph::InputKind;

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

}  // namespace

void wait_for(const Array& a, void* stream) {
  // The common case costs a pointer compare; wait_for_writer checks again.
  if (!a.buffer() || a.buffer()->last_stream() != stream) gpu_runtime::wait_for_writer(a);
}

void plan_launch(int dev, const char* who, const Operand* ops, int nin, int nops, const Shape& shape, int64_t n,
                 LaunchPlan& lp) {
  if (nops > kMaxOperands) throw_value_error(who, "too many operands for one kernel");
  bool contiguous = true;
  for (int o = 0; o < nops; ++o)
    if (ops[o].kind == IK::array && !ops[o].array->is_contiguous()) contiguous = false;
  cuda::KernelConfig& cfg = lp.cfg;
  cfg = cuda::KernelConfig{};
  if (contiguous) {
    size_t widest = 1;
    for (int o = 0; o < nops; ++o)
      if (ops[o].kind == IK::array) widest = std::max(widest, ops[o].array->itemsize());
    int vec = static_cast<int>(16 / widest);
    bool ok = true;
    for (int o = 0; o < nops; ++o)
      if (ops[o].kind == IK::array)
        ok = ok && reinterpret_cast<uintptr_t>(ops[o].ptr) % (ops[o].array->itemsize() * vec) == 0;
    cfg.vec = ok && n >= vec ? vec : 1;
    cfg.index32 = n < (int64_t{1} << 31);
    const int64_t per_block =
        static_cast<int64_t>(cuda::kElementwiseBlock) * (cfg.vec > 1 ? cuda::kElementwiseUnroll * cfg.vec : 1);
    const int64_t cap = static_cast<int64_t>(cuda::multiprocessor_count(dev)) * 32;
    lp.grid = static_cast<unsigned>(std::max<int64_t>(1, std::min((n + per_block - 1) / per_block, cap)));
    return;
  }
  static const Strides zeros(kMaxDims, 0);
  const int64_t* st[kMaxOperands];
  for (int o = 0; o < nops; ++o) st[o] = ops[o].kind == IK::array ? ops[o].array->strides().data() : zeros.data();
  if (shape.size() > static_cast<size_t>(kMaxDims)) throw_value_error(who, "too many dimensions");
  int64_t cshape[kMaxDims];
  int64_t cst[kMaxOperands][kMaxDims];
  const int nd = std::max(1, collapse(shape, st, nops, cshape, cst));
  if (nd == 1 && cshape[0] == 0) cshape[0] = 1;  // unreachable (n > 0); keeps the layout defined
  bool index32 = n < (int64_t{1} << 31);
  for (int o = 0; o < nops; ++o) {
    if (ops[o].kind != IK::array) continue;
    const int64_t item = static_cast<int64_t>(ops[o].array->itemsize());
    int64_t span = 0;
    bool ok = reinterpret_cast<uintptr_t>(ops[o].ptr) % item == 0;
    for (int d = 0; d < nd; ++d) {
      ok = ok && cst[o][d] % item == 0;
      span += (cshape[d] - 1) * (cst[o][d] < 0 ? -cst[o][d] : cst[o][d]);
    }
    if (!ok)
      throw UnsupportedError(std::string("[") + who + "] GPU arrays whose data or strides are not multiples of the itemsize");
    index32 = index32 && span < (int64_t{1} << 31);
  }
  cfg.strided = true;
  cfg.ndim = nd;
  cfg.index32 = index32;
  auto fill = [&](auto zero) {
    using I = decltype(zero);
    I* p = reinterpret_cast<I*>(lp.layout);
    for (int d = 0; d < nd; ++d) p[d] = static_cast<I>(cshape[d]);
    for (int o = 0; o < nops; ++o)
      for (int d = 0; d < nd; ++d) p[nd + o * nd + d] = ops[o].kind != IK::array ? 0 : static_cast<I>(cst[o][d]);
  };
  if (index32) fill(int{0});
  else fill(0ll);
  lp.grid = cuda::grid_size(dev, n, cuda::kElementwiseBlock);
}

void launch(int dev, CUfunction fn, const char* name, const Operand* ops, int nin, int nops, int64_t n,
            const LaunchPlan& lp, void* stream) {
  void* args[kMaxOperands + 2];
  const void* ptrs[kMaxOperands];
  int a = 0;
  for (int o = 0; o < nops; ++o) {
    ptrs[o] = ops[o].ptr;
    args[a++] = o < nin && ops[o].kind == IK::param ? const_cast<void*>(ops[o].ptr) : &ptrs[o];
  }
  unsigned n32 = static_cast<unsigned>(n);
  unsigned long long n64 = static_cast<unsigned long long>(n);
  args[a++] = lp.cfg.index32 ? static_cast<void*>(&n32) : static_cast<void*>(&n64);
  if (lp.cfg.strided) args[a++] = const_cast<unsigned char*>(lp.layout);
  cuda::launch(dev, fn, name, lp.grid, cuda::kElementwiseBlock, 0, stream, args);
}

}  // namespace loom::gpu_backend::ew
