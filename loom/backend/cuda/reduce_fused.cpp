// GPU eval of jit's fused reductions (primitives::fused_reduce, backend/reduce.h): one
// program generated from the kind's built-in spec with the prologue as its element
// function and the epilogue in its post-map (reduce_codegen.h, fused_reduction_spec),
// launched like the unfused reduction (reduce_launch.h). Programs are cached by a key of
// the graphs' hashes, the kind, the dtype and which inputs are one broadcast element; a
// hit builds no source. The params struct carries the inputs' pointers and scalars.
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "loom/backend/cuda/reduce_codegen.h"
#include "loom/backend/cuda/reduce_launch.h"
#include "loom/backend/reduce.h"
#include "loom/core/error.h"
#include "loom/runtime/cuda/context.h"
#include "loom/runtime/gpu_runtime.h"

namespace loom::gpu_backend {
namespace {

uint64_t mix(uint64_t h, uint64_t v) { return (h ^ (v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2))) * 1099511628211ull; }

bool all_zero(const Array& a) {
  for (int64_t v : a.strides())
    if (v != 0) return false;
  return true;
}

struct Programs {
  std::unique_ptr<cuda::Program> main, var_mean;
};

const Programs& programs_for(uint64_t key, const FusedReduceCall& c, const cuda::FusedReductionGraphs& f) {
  static std::mutex mu;
  static std::unordered_map<uint64_t, std::unique_ptr<Programs>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = cache[key];
  if (!slot) {
    auto p = std::make_unique<Programs>();
    char name[40];
    std::snprintf(name, sizeof(name), "loom_fused_reduce_%016llx", static_cast<unsigned long long>(key));
    p->main = std::make_unique<cuda::Program>(cuda::reduction_program(cuda::fused_reduction_spec(c.kind, c.elem, false, f, name)));
    if (c.kind == ReduceKind::var)
      p->var_mean = std::make_unique<cuda::Program>(
          cuda::reduction_program(cuda::fused_reduction_spec(c.kind, c.elem, true, f, std::string(name) + "_mean")));
    slot = std::move(p);
  }
  return *slot;
}

// Appends the pointers and scalars of one graph's inputs, in the generator's order.
void add_operands(const FusedGraph& g, const std::vector<Array>& in, const std::vector<Scalar>& sc, int skip,
                  std::vector<uint64_t>& ptrs, std::vector<uint64_t>& scalars) {
  for (int i = 0; i < static_cast<int>(g.inputs.size()); ++i) {
    if (i == skip) continue;
    if (g.inputs[i].kind == FusedGraph::InputKind::param) {
      unsigned char bytes[16] = {};
      scalar_to_bytes(sc[i], g.inputs[i].dtype, bytes);
      uint64_t w = 0;
      std::memcpy(&w, bytes, 8);
      scalars.push_back(w);
    } else {
      ptrs.push_back(reinterpret_cast<uint64_t>(in[i].data()));
    }
  }
}

}  // namespace

void fused_reduce(const FusedReduceCall& c) {
  const Array& out = c.out;
  if (!out.valid() || !out.device().is_gpu() || !out.is_contiguous())
    throw_value_error("fused_reduce", "the output must be a contiguous array on a GPU");
  const int dev = out.device().index;
  cuda::activate(dev);
  for (const auto* list : {&c.in, &c.post_in})
    for (const Array& a : *list)
      if (a.valid()) gpu_runtime::wait_for_writer(a);
  gpu_runtime::wait_for_writer(out);
  void* stream = cuda::current_stream(dev);
  if (c.geom.outer * c.geom.inner == 0) return;

  cuda::FusedReductionGraphs f;
  uint64_t key = mix(mix(c.pre_hash, c.post_hash), static_cast<uint64_t>(c.kind) << 8 | static_cast<uint64_t>(c.elem));
  key = mix(key, static_cast<uint64_t>(c.post_value + 1));
  if (c.pre) {
    f.pre = c.pre.get();
    for (const Array& a : c.in) f.pre_uniform.push_back(a.valid() && all_zero(a));
  }
  if (c.post) {
    f.post = c.post.get();
    f.post_value = c.post_value;
    for (const Array& a : c.post_in) f.post_uniform.push_back(a.valid() && all_zero(a));
  }
  for (const auto* u : {&f.pre_uniform, &f.post_uniform}) {
    uint64_t bits = 1;
    for (bool b : *u) bits = bits << 1 | (b ? 1 : 0);
    key = mix(key, bits);
  }
  const Programs& progs = programs_for(key, c, f);

  // The params struct: loom_reduce_params, then in[], then s[] (each at least one long).
  std::vector<uint64_t> ptrs, scalars;
  if (c.pre) add_operands(*c.pre, c.in, c.scalar, -1, ptrs, scalars);
  if (c.post) add_operands(*c.post, c.post_in, c.post_scalar, c.post_value, ptrs, scalars);
  if (ptrs.empty()) ptrs.push_back(0);
  if (scalars.empty()) scalars.push_back(0);
  std::vector<uint64_t> blob(sizeof(reduce_launch::Params) / 8 + ptrs.size() + scalars.size());
  reduce_launch::Params head = reduce_launch::params_of(c.kind, c.params);
  std::memcpy(blob.data() + sizeof(head) / 8, ptrs.data(), ptrs.size() * 8);
  std::memcpy(blob.data() + sizeof(head) / 8 + ptrs.size(), scalars.data(), scalars.size() * 8);

  const char* x = c.pre ? nullptr : static_cast<const char*>(c.in[0].data());
  const size_t acc = reduce_launch::acc_size(c.kind, c.elem);
  std::shared_ptr<Buffer> mean;
  if (c.kind == ReduceKind::var) {  // pass 1: the mean of each output, in the accumulator dtype
    mean = gpu_runtime::allocate(dev, static_cast<size_t>(c.geom.outer * c.geom.inner) * acc, stream);
    std::memcpy(blob.data(), &head, sizeof(head));
    reduce_launch::run(dev, stream, *progs.var_mean, acc, x, c.geom, mean->data(), blob.data());
    head.aux = mean->data();
  }
  std::memcpy(blob.data(), &head, sizeof(head));
  reduce_launch::run(dev, stream, *progs.main, acc, x, c.geom, out.data(), blob.data());
  if (mean) mean->set_last_stream(stream);
  out.buffer()->set_last_stream(stream);
}

}  // namespace loom::gpu_backend
