// A fused group run node by node, for the calls that come before its kernel is compiled
// (runtime/background_compile.h): each node is the eager kernel of its op (a cast node,
// the convert kernel eager astype runs) into a temporary of the output's shape and the
// node's dtype, and each output its value, cast. The fused kernel computes each node with
// the same expression, casts and rounding, so both give the same bits. Used only when
// every kernel needed is loaded already: compiling them would cost more than the one
// fused kernel.
#include <functional>
#include <vector>

#include "loom/backend/creation.h"
#include "loom/backend/cuda/elementwise_launch.h"
#include "loom/backend/cuda/programs.h"
#include "loom/runtime/cuda/module_cache.h"

namespace loom::gpu_backend {
namespace {

using IK = FusedGraph::InputKind;

struct Step {
  bool ready;  // its kernel is loaded
  std::function<void()> run;
};

// dst (contiguous) = src cast to dst's dtype, as eager astype and copyto do.
Step convert_step(const Array& src, const Array& dst) {
  const bool ready =
      src.dtype() == dst.dtype() ? src.is_contiguous() || cuda::is_loaded(dst.device().index, cuda::convert_program(src.dtype()))
                                 : cuda::is_loaded(dst.device().index, cuda::convert_program(src.dtype()));
  return {ready, [src, dst] { convert(src, dst); }};
}

Step eager_step(ElementwiseCall call) {
  const bool ready = ew::eager_kernel_loaded(call);
  return {ready, [call = std::move(call)] { elementwise(call); }};
}

}  // namespace

bool ew::run_unfused(const FusedCall& c) {
  const FusedGraph& g = *c.graph;
  const int nin = static_cast<int>(g.inputs.size()), nv = g.num_values();
  const Shape& shape = c.out[0].shape();
  const Device dev = c.out[0].device();
  std::vector<Array> val(nv);
  std::vector<Scalar> param(nin);
  for (int i = 0; i < nin; ++i) {
    if (g.inputs[i].kind != IK::param) {
      val[i] = c.in[i];
      continue;
    }
    // The value the kernel would see: the scalar in the input's dtype.
    unsigned char bytes[16];
    scalar_to_bytes(c.scalar[i], g.inputs[i].dtype, bytes);
    param[i] = scalar_from_bytes(bytes, g.inputs[i].dtype);
  }
  auto is_param = [&](int v) { return v < nin && g.inputs[v].kind == IK::param; };
  auto aliases_an_input = [&](const Array& a) {
    for (int i = 0; i < nin; ++i)
      if (!is_param(i) && c.in[i].buffer() == a.buffer()) return true;
    return false;
  };
  // A node whose one use is output k, into an output that is no input's memory, writes
  // it directly (eager kernels cast to their output's dtype on store).
  std::vector<int> uses(nv, 0), direct(nv, -1);
  for (const FusedGraph::Node& n : g.nodes)
    for (int a = 0; a < op_info(n.op).arity; ++a) ++uses[n.args[a]];
  for (const FusedGraph::Output& o : g.outputs) ++uses[o.value];
  for (size_t k = 0; k < g.outputs.size(); ++k) {
    const int v = g.outputs[k].value;
    if (v >= nin && uses[v] == 1 && !aliases_an_input(c.out[k])) direct[v] = static_cast<int>(k);
  }

  std::vector<Step> steps;
  for (size_t k = 0; k < g.nodes.size(); ++k) {
    const FusedGraph::Node& n = g.nodes[k];
    const int v = nin + static_cast<int>(k);
    val[v] = direct[v] >= 0 ? c.out[direct[v]] : Array::allocate(shape, g.value_dtype(v), dev);
    const int arity = op_info(n.op).arity;
    if (n.op == OpId::copy && !is_param(n.args[0]) && val[v].is_contiguous() && val[v].dtype() == n.loop) {
      steps.push_back(convert_step(val[n.args[0]], val[v]));
      continue;
    }
    ElementwiseCall call;
    call.op = n.op;
    call.loop = n.loop;
    call.nin = arity;
    for (int a = 0; a < arity; ++a) {
      const int u = n.args[a];
      if (is_param(u)) {
        call.is_scalar[a] = true;
        call.scalar[a] = param[u];
      } else {
        call.in[a] = val[u];
      }
    }
    call.out = val[v];
    steps.push_back(eager_step(std::move(call)));
  }
  // The other outputs, once every node has read the inputs (an output may be one's memory).
  // An output that is an input array itself reads a copy: another output may be written
  // into that input first.
  for (const FusedGraph::Output& o : g.outputs)
    if (o.value < nin && !is_param(o.value)) {
      const Array held = Array::allocate(shape, g.inputs[o.value].dtype, dev);
      steps.push_back(convert_step(val[o.value], held));
      val[o.value] = held;
    }
  for (size_t k = 0; k < g.outputs.size(); ++k) {
    const int v = g.outputs[k].value;
    if (v >= nin && direct[v] == static_cast<int>(k)) continue;
    if (!is_param(v) && c.out[k].is_contiguous()) {
      steps.push_back(convert_step(val[v], c.out[k]));
      continue;
    }
    ElementwiseCall call;  // a strided output, or a scalar: the table's copy op
    call.op = OpId::copy;
    call.loop = c.out[k].dtype();
    call.nin = 1;
    if (is_param(v)) {
      call.is_scalar[0] = true;
      call.scalar[0] = param[v];
    } else {
      call.in[0] = val[v];
    }
    call.out = c.out[k];
    steps.push_back(eager_step(std::move(call)));
  }
  for (const Step& s : steps)
    if (!s.ready) return false;
  for (const Step& s : steps) s.run();
  return true;
}

}  // namespace loom::gpu_backend
