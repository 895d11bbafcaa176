// GPU eval of elementwise ops: classify the operands (elementwise_launch.h), look the
// kernel up by a compact key, and launch it. A miss generates the source
// (graph/cuda_codegen.cpp) and compiles it through the compile cache; a hit does no
// string work and no allocation, which keeps small ops at launch cost.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "loom/backend/cuda/elementwise_launch.h"
#include "loom/backend/elementwise.h"
#include "loom/core/error.h"
#include "loom/runtime/cuda/context.h"

namespace loom::gpu_backend {
namespace {

using IK = FusedGraph::InputKind;

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

const ew::Kernel& kernel_for(int dev, uint64_t key, const ElementwiseCall& c, const DType* dt, const IK* kinds,
                             const cuda::KernelConfig& cfg) {
  return ew::KernelCache<0>::get(key ^ (static_cast<uint64_t>(dev) << 56), [&] {
    std::vector<DType> in(dt, dt + c.nin);
    std::vector<IK> k(kinds, kinds + c.nin);
    const FusedGraph g = single_op_graph(c.op, c.loop, in, k, c.out.dtype());
    char hash[24];
    std::snprintf(hash, sizeof(hash), "%014llx", static_cast<unsigned long long>(key));
    const std::string name = std::string("loom_") + op_info(c.op).name + "_" + hash;
    const cuda::Program program(name + ".cu", cuda::elementwise_source(g, cfg, name), {name}, {"--fmad=false"});
    return ew::Kernel{cuda::get_function(dev, program, name), name};
  });
}

bool all_zero(const Strides& s) {
  for (int64_t v : s)
    if (v != 0) return false;
  return true;
}

// A call's operands classified for launch (elementwise_launch.h) and its kernel's key.
struct EagerLaunch {
  DType dt[3];
  IK kinds[3];
  alignas(8) unsigned char scalar_bytes[3][16];
  ew::Operand ops[4];
  ew::LaunchPlan lp;
  uint64_t key = 0;
};

void plan_eager(const ElementwiseCall& c, int dev, EagerLaunch& e) {
  const int nin = c.nin;
  for (int i = 0; i < nin; ++i) {
    if (c.is_scalar[i]) {
      e.dt[i] = input_loop_dtype(c.op, i, c.loop);
      e.kinds[i] = IK::param;
      scalar_to_bytes(c.scalar[i], e.dt[i], e.scalar_bytes[i]);
      e.ops[i] = {e.scalar_bytes[i], nullptr, IK::param};
      continue;
    }
    e.dt[i] = c.in[i].dtype();
    e.kinds[i] = all_zero(c.in[i].strides()) ? IK::uniform : IK::array;
    e.ops[i] = {c.in[i].data(), &c.in[i], e.kinds[i]};
  }
  e.ops[nin] = {c.out.data(), &c.out, IK::array};
  ew::plan_launch(dev, op_info(c.op).name, e.ops, nin, nin + 1, c.out.shape(), c.out.size(), e.lp);
  e.key = pack_key(c, e.dt, e.kinds, e.lp.cfg);
}

}  // namespace

void elementwise(const ElementwiseCall& c) {
  const Array& out = c.out;
  const int dev = out.device().index;
  cuda::activate(dev);
  void* stream = cuda::current_stream(dev);
  for (int i = 0; i < c.nin; ++i)
    if (!c.is_scalar[i]) ew::wait_for(c.in[i], stream);
  ew::wait_for(out, stream);
  if (out.size() == 0) return;
  EagerLaunch e;
  plan_eager(c, dev, e);
  const ew::Kernel& k = kernel_for(dev, e.key, c, e.dt, e.kinds, e.lp.cfg);
  ew::launch(dev, k.fn, k.name.c_str(), e.ops, c.nin, c.nin + 1, out.size(), e.lp, stream);
  out.buffer()->set_last_stream(stream);
}

bool ew::eager_kernel_loaded(const ElementwiseCall& c) {
  if (c.out.size() == 0) return true;
  const int dev = c.out.device().index;
  EagerLaunch e;
  plan_eager(c, dev, e);
  return KernelCache<0>::find(e.key ^ (static_cast<uint64_t>(dev) << 56)) != nullptr;
}

}  // namespace loom::gpu_backend
