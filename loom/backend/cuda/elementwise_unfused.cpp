// A fused group run node by node, for the calls that come before its kernel is compiled
// (runtime/background_compile.h): each node is the eager kernel of its op into a
// temporary of the output's shape and the node's dtype, and each output a cast copy of
// its value. The fused kernel computes each node with the same expression, casts and
// rounding, so both give the same bits. Used only when every eager kernel is loaded
// already: otherwise compiling them would cost more than the one fused kernel.
#include <vector>

#include "loom/backend/cuda/elementwise_launch.h"

namespace loom::gpu_backend {

bool ew::run_unfused(const FusedCall& c) {
  using IK = FusedGraph::InputKind;
  const FusedGraph& g = *c.graph;
  const int nin = static_cast<int>(g.inputs.size());
  const Shape& shape = c.out[0].shape();
  const Device dev = c.out[0].device();
  std::vector<Array> val(g.num_values());
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
  auto set_input = [&](ElementwiseCall& call, int a, int v) {
    if (v < nin && g.inputs[v].kind == IK::param) {
      call.is_scalar[a] = true;
      call.scalar[a] = param[v];
    } else {
      call.in[a] = val[v];
    }
  };
  std::vector<ElementwiseCall> calls;
  for (size_t k = 0; k < g.nodes.size(); ++k) {
    const FusedGraph::Node& n = g.nodes[k];
    const int v = nin + static_cast<int>(k);
    val[v] = Array::allocate(shape, g.value_dtype(v), dev);
    ElementwiseCall call;
    call.op = n.op;
    call.loop = n.loop;
    call.nin = op_info(n.op).arity;
    for (int a = 0; a < call.nin; ++a) set_input(call, a, n.args[a]);
    call.out = val[v];
    calls.push_back(std::move(call));
  }
  // A copy at the destination's dtype: NumPy's cast, as copyto's.
  auto copy = [&](int v, const Array& to) {
    ElementwiseCall call;
    call.op = OpId::copy;
    call.loop = to.dtype();
    call.nin = 1;
    set_input(call, 0, v);
    call.out = to;
    calls.push_back(std::move(call));
  };
  // An output that is an input array itself reads a copy: another output may be that
  // input's memory (in place), and outputs are written one after another.
  for (const FusedGraph::Output& o : g.outputs) {
    const int v = o.value;
    if (v >= nin || g.inputs[v].kind == IK::param) continue;
    const Array held = Array::allocate(shape, g.inputs[v].dtype, dev);
    copy(v, held);
    val[v] = held;
  }
  for (size_t k = 0; k < g.outputs.size(); ++k) copy(g.outputs[k].value, c.out[k]);
  for (const ElementwiseCall& call : calls)
    if (!eager_kernel_loaded(call)) return false;
  for (const ElementwiseCall& call : calls) elementwise(call);
  return true;
}

}  // namespace loom::gpu_backend
