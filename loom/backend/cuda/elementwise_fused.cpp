// GPU eval of jit's fused groups (primitives::fused): the group's FusedGraph, with each
// array input made `uniform` where its strides are all zero, through the same code
// generator, layout classification, kernel cache and launch as eager elementwise ops
// (elementwise_launch.h). The key is the graph's hash (computed once when compiled) mixed
// with the inputs' kinds and the kernel configuration; a hit does no string work. A
// never-seen kernel compiles on the background worker while the calls before it is ready
// run the group node by node (elementwise_unfused.cpp), when their eager kernels are all
// loaded; otherwise the call compiles it.
#include <atomic>
#include <cstdio>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <string>
#include <vector>

#include "loom/backend/cuda/elementwise_launch.h"
#include "loom/backend/elementwise.h"
#include "loom/core/error.h"
#include "loom/runtime/background_compile.h"
#include "loom/runtime/cuda/context.h"
#include "loom/runtime/cuda/module_cache.h"

namespace loom::gpu_backend {
namespace {

using IK = FusedGraph::InputKind;

uint64_t mix(uint64_t h, uint64_t v) { return (h ^ (v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2))) * 1099511628211ull; }

std::atomic<uint64_t> g_unfused_runs{0};

// Background compiles of fused kernels, by kernel key: set when posted, true when done.
struct Pending {
  std::mutex mu;
  std::unordered_map<uint64_t, std::shared_ptr<const std::atomic<bool>>> by_key;
};
Pending& pending() {
  static auto* p = new Pending;  // never destroyed: the worker may finish during exit
  return *p;
}

// Runs the call unfused while kernel `key` compiles in the background (posted on the
// first such call); false when the call must compile and launch the kernel itself: the
// background is off, its compile has finished (the compile cache has the image), or an
// eager kernel of the group is not loaded.
template <class MakeProgram>
bool run_while_compiling(uint64_t key, int dev, const FusedCall& c, MakeProgram&& make_program) {
  if (!background_compile::enabled()) return false;
  Pending& p = pending();
  bool posted;
  {
    std::lock_guard<std::mutex> lock(p.mu);
    auto it = p.by_key.find(key);
    if (it != p.by_key.end() && it->second->load()) return false;
    posted = it != p.by_key.end();
  }
  if (!ew::run_unfused(c)) return false;
  g_unfused_runs.fetch_add(1);
  if (!posted) {
    auto done = background_compile::post(
        [program = make_program(), arch = cuda::compute_capability(dev)] { cuda::compile_cached(program, arch); });
    std::lock_guard<std::mutex> lock(p.mu);
    p.by_key.emplace(key, std::move(done));
  }
  return true;
}

bool all_zero(const Strides& s) {
  for (int64_t v : s)
    if (v != 0) return false;
  return true;
}

}  // namespace

uint64_t fused_runs_unfused() { return g_unfused_runs.load(); }

void fused(const FusedCall& c) {
  const FusedGraph& g = *c.graph;
  const Array& out = c.out[0];
  const int dev = out.device().index;
  const int nin = static_cast<int>(c.in.size()), nout = static_cast<int>(c.out.size()), nops = nin + nout;
  if (nops > ew::kMaxOperands) throw UnsupportedError("[fused] too many operands for one kernel");
  cuda::activate(dev);
  void* stream = cuda::current_stream(dev);
  for (const Array& a : c.in)
    if (a.valid()) ew::wait_for(a, stream);
  for (const Array& o : c.out) ew::wait_for(o, stream);
  const int64_t n = out.size();
  if (n == 0) return;

  ew::Operand ops[ew::kMaxOperands];
  alignas(8) unsigned char scalar_bytes[ew::kMaxOperands][16];
  uint64_t kinds_key = 0;
  for (int i = 0; i < nin; ++i) {
    if (g.inputs[i].kind == IK::param) {
      scalar_to_bytes(c.scalar[i], g.inputs[i].dtype, scalar_bytes[i]);
      ops[i] = {scalar_bytes[i], nullptr, IK::param};
      continue;
    }
    const IK kind = all_zero(c.in[i].strides()) ? IK::uniform : IK::array;
    ops[i] = {c.in[i].data(), &c.in[i], kind};
    if (kind == IK::uniform) kinds_key = mix(kinds_key, static_cast<uint64_t>(i) + 1);
  }
  for (int k = 0; k < nout; ++k) ops[nin + k] = {c.out[k].data(), &c.out[k], IK::array};
  ew::LaunchPlan lp;
  ew::plan_launch(dev, "fused", ops, nin, nops, out.shape(), n, lp);
  const cuda::KernelConfig& cfg = lp.cfg;
  uint64_t key = mix(c.hash, kinds_key);
  key = mix(key, (cfg.strided ? 1u : 0u) | static_cast<uint64_t>(cfg.vec) << 1 | (cfg.index32 ? 1u : 0u) << 6 |
                     static_cast<uint64_t>(cfg.ndim) << 7);
  key = (key & ((uint64_t{1} << 56) - 1)) ^ (static_cast<uint64_t>(dev) << 56);
  auto make_program = [&] {
    FusedGraph kg = g;
    for (int i = 0; i < nin; ++i) kg.inputs[i].kind = ops[i].kind;
    char hash[24];
    std::snprintf(hash, sizeof(hash), "%014llx", static_cast<unsigned long long>(key & ((uint64_t{1} << 56) - 1)));
    const std::string name = std::string("loom_fused_") + hash;
    return cuda::Program(name + ".cu", cuda::elementwise_source(kg, cfg, name), {name}, {"--fmad=false"});
  };
  const ew::Kernel* found = ew::KernelCache<1>::find(key);
  if (!found && run_while_compiling(key, dev, c, make_program)) return;
  const ew::Kernel& k = found ? *found : ew::KernelCache<1>::get(key, [&] {
    const cuda::Program program = make_program();
    return ew::Kernel{cuda::get_function(dev, program, program.name_expressions()[0]), program.name_expressions()[0]};
  });
  ew::launch(dev, k.fn, k.name.c_str(), ops, nin, nops, n, lp, stream);
  for (const Array& o : c.out) o.buffer()->set_last_stream(stream);
}

}  // namespace loom::gpu_backend
