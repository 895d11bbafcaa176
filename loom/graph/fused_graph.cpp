#include "loom/graph/fused_graph.h"

#include <stdexcept>
#include <string>

#include "loom/core/error.h"

namespace loom {

DType FusedGraph::value_dtype(int v) const {
  if (v < static_cast<int>(inputs.size())) return inputs[v].dtype;
  const Node& n = nodes[v - inputs.size()];
  return result_dtype(op_info(n.op).rule, n.loop);
}

int FusedGraph::add_input(DType dtype, InputKind kind) {
  if (!nodes.empty()) throw std::invalid_argument("[graph] inputs come before nodes");
  inputs.push_back({dtype, kind});
  return static_cast<int>(inputs.size()) - 1;
}

int FusedGraph::add_node(OpId op, DType loop, std::initializer_list<int> args) {
  const OpInfo& info = op_info(op);
  if (static_cast<int>(args.size()) != info.arity)
    throw std::invalid_argument(std::string("[graph] ") + info.name + " takes " + std::to_string(info.arity) +
                                " arguments");
  Node n{op, loop, {0, 0, 0}};
  int a = 0;
  for (int v : args) {
    if (v < 0 || v >= num_values()) throw std::invalid_argument("[graph] a node reads a value not yet computed");
    n.args[a++] = v;
  }
  if (!loop_exists(op, loop))
    throw_dtype_error(info.name, std::string("no loop for dtype ") + dtype_name(loop));
  nodes.push_back(n);
  return num_values() - 1;
}

int FusedGraph::add_op(OpId op, std::initializer_list<int> args) {
  const OpInfo& info = op_info(op);
  // NumPy's loop choice (ops/elementwise_rules.cpp, without weak scalars): where's
  // condition is not promoted; float-only ops take the smallest float each input fits.
  const int first = op == OpId::where ? 1 : 0;
  int a = 0;
  bool have = false;
  DType p = bool_;
  for (int v : args) {
    if (a++ < first) continue;
    if (v < 0 || v >= num_values()) throw std::invalid_argument("[graph] a node reads a value not yet computed");
    DType d = value_dtype(v);
    if (per_input_loop(info.rule)) d = loop_dtype(info.rule, d);
    p = have ? promote_types(p, d) : d;
    have = true;
  }
  if (!dtype_allowed(op, p)) throw_dtype_error(info.name, std::string("not supported for dtype ") + dtype_name(p));
  return add_node(op, loop_dtype(info.rule, p), args);
}

void FusedGraph::add_output(int value, DType dtype) {
  if (value < 0 || value >= num_values()) throw std::invalid_argument("[graph] an output names no value");
  outputs.push_back({value, dtype});
}

void check_graph(const FusedGraph& g, const char* who) {
  const int nin = static_cast<int>(g.inputs.size());
  for (size_t k = 0; k < g.nodes.size(); ++k) {
    const FusedGraph::Node& n = g.nodes[k];
    if (static_cast<int>(n.op) >= kNumOps || !loop_exists(n.op, n.loop))
      throw std::invalid_argument(std::string("[") + who + "] a node has no loop for its dtype");
    for (int a = 0; a < op_info(n.op).arity; ++a)
      if (n.args[a] < 0 || n.args[a] >= nin + static_cast<int>(k))
        throw std::invalid_argument(std::string("[") + who + "] a node reads a value that is not computed before it");
  }
  if (g.outputs.empty()) throw std::invalid_argument(std::string("[") + who + "] the graph has no output");
  for (const FusedGraph::Output& o : g.outputs)
    if (o.value < 0 || o.value >= g.num_values())
      throw std::invalid_argument(std::string("[") + who + "] an output names no value");
}

FusedGraph single_op_graph(OpId op, DType loop, const std::vector<DType>& in_dtypes,
                           const std::vector<FusedGraph::InputKind>& kinds, DType out_dtype) {
  FusedGraph g;
  FusedGraph::Node node{op, loop, {0, 0, 0}};
  for (size_t i = 0; i < in_dtypes.size(); ++i) {
    g.inputs.push_back({in_dtypes[i], kinds[i]});
    node.args[i] = static_cast<int>(i);
  }
  g.nodes.push_back(node);
  g.outputs.push_back({static_cast<int>(in_dtypes.size()), out_dtype});
  return g;
}

uint64_t graph_hash(const FusedGraph& g) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a over the structure's small integers
  auto mix = [&h](uint64_t v) {
    for (int b = 0; b < 8; ++b) {
      h ^= (v >> (8 * b)) & 0xff;
      h *= 1099511628211ull;
    }
  };
  mix(g.inputs.size());
  for (const auto& in : g.inputs) mix(static_cast<uint64_t>(in.dtype) | static_cast<uint64_t>(in.kind) << 8);
  mix(g.nodes.size());
  for (const auto& n : g.nodes) {
    mix(static_cast<uint64_t>(n.op) | static_cast<uint64_t>(n.loop) << 8);
    for (int a = 0; a < op_info(n.op).arity; ++a) mix(static_cast<uint64_t>(n.args[a]));
  }
  mix(g.outputs.size());
  for (const auto& o : g.outputs) mix(static_cast<uint64_t>(o.value) | static_cast<uint64_t>(o.dtype) << 32);
  return h;
}

bool operator==(const FusedGraph& a, const FusedGraph& b) {
  if (a.inputs.size() != b.inputs.size() || a.nodes.size() != b.nodes.size() || a.outputs.size() != b.outputs.size())
    return false;
  for (size_t i = 0; i < a.inputs.size(); ++i)
    if (a.inputs[i].dtype != b.inputs[i].dtype || a.inputs[i].kind != b.inputs[i].kind) return false;
  for (size_t k = 0; k < a.nodes.size(); ++k) {
    const auto &x = a.nodes[k], &y = b.nodes[k];
    if (x.op != y.op || x.loop != y.loop) return false;
    for (int i = 0; i < op_info(x.op).arity; ++i)
      if (x.args[i] != y.args[i]) return false;
  }
  for (size_t o = 0; o < a.outputs.size(); ++o)
    if (a.outputs[o].value != b.outputs[o].value || a.outputs[o].dtype != b.outputs[o].dtype) return false;
  return true;
}

}  // namespace loom
