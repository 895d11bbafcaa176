// The CPU graph evaluator: the operands' dims are collapsed jointly (as the eager CPU
// engine does), the flat index range is split over the thread pool, and each row is run
// in blocks of kEvalBlock elements: inputs are read in place when contiguous (else
// gathered into the value's block buffer), each node runs its typed block loop over its
// arguments' buffers (cast to the op's loop dtypes where needed), and the outputs are
// cast and stored. Scratch is one buffer per value per task, never per element or node.
#include "loom/graph/cpu_eval.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "loom/core/error.h"
#include "loom/core/strided_rows.h"
#include "loom/graph/cpu_eval_loops.h"
#include "loom/runtime/cpu/thread_pool.h"

namespace loom {
namespace {

using namespace graph_cpu;
constexpr int kMaxDims = 64;
constexpr int kMaxOperands = 64;
constexpr int64_t kGrain = 1 << 15;            // elements per parallel task
constexpr int64_t kSlot = kEvalBlock * 8;      // bytes of one block buffer (8-byte dtypes)

const NodeTable& node_table() {
  static const struct Table {
    NodeTable t{};
    Table() {
      register_nodes_part0(t);
      register_nodes_part1(t);
    }
  } table;
  return table.t;
}

template <class S, class D>
void cast_block(const char* src, char* dst, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const D d = cast<D>(detail::load<S>(src + i * sizeof(S)));
    std::memcpy(dst + i * sizeof(D), &d, sizeof(D));
  }
}

CastFn cast_fn(DType s, DType d) {
  if (s == d) return nullptr;
  return dispatch_dtype(s, [&](auto a) {
    return dispatch_dtype(d, [&](auto b) -> CastFn { return &cast_block<decltype(a), decltype(b)>; });
  });
}

template <size_t N>
void move_n(const char* src, int64_t sstep, char* dst, int64_t dstep, int64_t n) {
  for (int64_t i = 0; i < n; ++i) std::memcpy(dst + i * dstep, src + i * sstep, N);
}
// n elements of `item` bytes from src (step sstep) to dst (step dstep).
void move(const char* src, int64_t sstep, char* dst, int64_t dstep, int64_t n, size_t item) {
  switch (item) {
    case 1: return move_n<1>(src, sstep, dst, dstep, n);
    case 2: return move_n<2>(src, sstep, dst, dstep, n);
    case 4: return move_n<4>(src, sstep, dst, dstep, n);
    default: return move_n<8>(src, sstep, dst, dstep, n);
  }
}

struct Arg {
  int value;
  CastFn cast;  // to the op's loop dtype; null when the value already has it
};
struct NodePlan {
  NodeFn fn;
  int arity;
  Arg args[3];
};
struct OutPlan {
  int value, operand;
  CastFn cast;
  size_t item;
};

// Everything decided once per call. Operands are the array inputs, then the outputs.
struct Plan {
  int nin = 0, nvalues = 0, nops = 0, nd = 0;
  std::vector<int> operand;      // per input: its operand, -1 for a param input
  std::vector<size_t> item;      // per value: itemsize
  std::vector<bool> in_place;    // per input: read straight from the array's rows
  std::vector<NodePlan> nodes;
  std::vector<OutPlan> outs;
  int direct_node = -1;          // the node that writes straight into output 0's rows
  std::vector<std::array<unsigned char, 16>> params;  // per input: the scalar's bytes
  int64_t shape[kMaxDims];
  std::vector<std::array<int64_t, kMaxDims>> strides;  // per operand
  std::vector<char*> base;                             // per operand
};

bool aligned_walk(const char* base, const int64_t* strides, int nd, size_t item) {
  if (reinterpret_cast<uintptr_t>(base) % item != 0) return false;
  for (int d = 0; d < nd; ++d)
    if (strides[d] % static_cast<int64_t>(item) != 0) return false;
  return true;
}

// Drops size-1 dims and merges neighbours that every operand walks as one.
void collapse(Plan& p, const Shape& shape, const std::vector<std::vector<int64_t>>& st) {
  std::vector<const int64_t*> in(p.nops);
  std::vector<int64_t*> out(p.nops);
  for (int o = 0; o < p.nops; ++o) {
    in[o] = st[o].data();
    out[o] = p.strides[o].data();
  }
  p.nd = collapse_operands(shape, p.nops, in.data(), kMaxDims, p.shape, out.data(), "graph");
}

// Strides of `a` broadcast to `shape` (0 along broadcast dims), NumPy's rules.
std::vector<int64_t> broadcast_strides(const Array& a, const Shape& shape, int input) {
  const int n = static_cast<int>(shape.size()), k = a.ndim();
  if (k > n) throw std::invalid_argument("[graph] input " + std::to_string(input) + " has more dims than the output");
  std::vector<int64_t> st(n, 0);
  for (int d = 0; d < k; ++d) {
    const int64_t ext = a.shape()[d], want = shape[n - k + d];
    if (ext != want && ext != 1)
      throw std::invalid_argument("[graph] input " + std::to_string(input) + " of shape " + shape_str(a.shape()) +
                                  " does not broadcast to " + shape_str(shape));
    st[n - k + d] = ext == 1 ? 0 : a.strides()[d];
  }
  return st;
}

Plan make_plan(const FusedGraph& g, const std::vector<GraphArg>& args, const std::vector<Array>& outs) {
  check_graph(g, "graph");
  Plan p;
  p.nin = static_cast<int>(g.inputs.size());
  p.nvalues = g.num_values();
  if (args.size() != g.inputs.size())
    throw std::invalid_argument("[graph] " + std::to_string(args.size()) + " arguments for " + std::to_string(p.nin) +
                                " inputs");
  if (outs.size() != g.outputs.size())
    throw std::invalid_argument("[graph] " + std::to_string(outs.size()) + " output arrays for " +
                                std::to_string(g.outputs.size()) + " outputs");
  const Shape& shape = outs[0].shape();
  for (size_t k = 0; k < outs.size(); ++k) {
    if (!outs[k].valid() || !outs[k].device().is_cpu()) throw std::invalid_argument("[graph] outputs must be cpu arrays");
    if (outs[k].shape() != shape) throw std::invalid_argument("[graph] outputs differ in shape");
    if (outs[k].dtype() != g.outputs[k].dtype) throw_dtype_error("graph", "an output array's dtype is not the graph's");
  }
  for (int v = 0; v < p.nvalues; ++v) p.item.push_back(itemsize(g.value_dtype(v)));
  std::vector<std::vector<int64_t>> st;
  p.operand.assign(p.nin, -1);
  p.params.resize(p.nin);
  for (int i = 0; i < p.nin; ++i) {
    const GraphArg& a = args[i];
    const bool param = g.inputs[i].kind == FusedGraph::InputKind::param;
    if (param != a.is_scalar)
      throw std::invalid_argument("[graph] input " + std::to_string(i) + (param ? " takes a scalar" : " takes an array"));
    if (param) {
      scalar_to_bytes(a.scalar, g.inputs[i].dtype, p.params[i].data());
      continue;
    }
    if (!a.array.valid() || !a.array.device().is_cpu()) throw std::invalid_argument("[graph] inputs must be cpu arrays");
    if (a.array.dtype() != g.inputs[i].dtype) throw_dtype_error("graph", "an input array's dtype is not the graph's");
    p.operand[i] = static_cast<int>(st.size());
    st.push_back(broadcast_strides(a.array, shape, i));
    p.base.push_back(static_cast<char*>(a.array.data()));
  }
  for (const Array& o : outs) {
    st.push_back(std::vector<int64_t>(o.strides().begin(), o.strides().end()));
    p.base.push_back(static_cast<char*>(o.data()));
  }
  p.nops = static_cast<int>(st.size());
  p.strides.resize(p.nops);
  collapse(p, shape, st);
  const int last = p.nd - 1;

  // Inputs are read in place when rows are contiguous and aligned, unless an output
  // stores the input's value itself (an in-place output would overwrite it first).
  p.in_place.assign(p.nin, false);
  for (int i = 0; i < p.nin; ++i) {
    const int o = p.operand[i];
    if (o < 0) continue;
    bool ok = p.strides[o][last] == static_cast<int64_t>(p.item[i]) &&
              aligned_walk(p.base[o], p.strides[o].data(), p.nd, p.item[i]);
    for (const auto& out : g.outputs) ok = ok && out.value != i;
    p.in_place[i] = ok;
  }
  const NodeTable& table = node_table();
  for (const FusedGraph::Node& n : g.nodes) {
    NodePlan np{table[static_cast<int>(n.op)][static_cast<int>(n.loop)], op_info(n.op).arity, {}};
    for (int a = 0; a < np.arity; ++a)
      np.args[a] = {n.args[a], cast_fn(g.value_dtype(n.args[a]), input_loop_dtype(n.op, a, n.loop))};
    p.nodes.push_back(np);
  }
  for (size_t k = 0; k < outs.size(); ++k) {
    const int v = g.outputs[k].value;
    p.outs.push_back({v, p.nops - static_cast<int>(outs.size()) + static_cast<int>(k),
                      cast_fn(g.value_dtype(v), g.outputs[k].dtype), itemsize(g.outputs[k].dtype)});
  }
  // One output computed by the last node, into contiguous aligned rows of its dtype: the
  // node writes there itself (no block buffer, no copy).
  const OutPlan& o0 = p.outs[0];
  if (p.outs.size() == 1 && !p.nodes.empty() && o0.value == p.nvalues - 1 && !o0.cast &&
      p.strides[o0.operand][last] == static_cast<int64_t>(o0.item) &&
      aligned_walk(p.base[o0.operand], p.strides[o0.operand].data(), p.nd, o0.item))
    p.direct_node = static_cast<int>(p.nodes.size()) - 1;
  return p;
}

// One task's block buffers: one per value, then three for cast arguments.
struct Scratch {
  std::unique_ptr<uint64_t[]> mem;
  std::vector<const char*> val;  // per value: where its block is (a buffer or an array row)
  explicit Scratch(const Plan& p) : mem(new uint64_t[(p.nvalues + 3) * kEvalBlock]), val(p.nvalues) {
    for (int i = 0; i < p.nin; ++i)
      if (p.operand[i] < 0) {  // param inputs: the scalar repeated once per task
        char* b = slot(i);
        for (int64_t e = 0; e < kEvalBlock; ++e) std::memcpy(b + e * p.item[i], p.params[i].data(), p.item[i]);
      }
  }
  char* slot(int k) { return reinterpret_cast<char*>(mem.get()) + k * kSlot; }
};

// m (<= kEvalBlock) elements at the operands' pointers `ptr` with inner steps `step`.
void run_block(const Plan& p, Scratch& s, char* const* ptr, const int64_t* step, int64_t m) {
  const char** val = s.val.data();
  for (int i = 0; i < p.nin; ++i) {
    const int o = p.operand[i];
    if (o < 0 || p.in_place[i]) {
      val[i] = o < 0 ? s.slot(i) : ptr[o];
      continue;
    }
    move(ptr[o], step[o], s.slot(i), static_cast<int64_t>(p.item[i]), m, p.item[i]);
    val[i] = s.slot(i);
  }
  for (size_t k = 0; k < p.nodes.size(); ++k) {
    const NodePlan& n = p.nodes[k];
    const int v = p.nin + static_cast<int>(k);
    const char* a[3];
    for (int j = 0; j < n.arity; ++j) {
      a[j] = val[n.args[j].value];
      if (n.args[j].cast) {
        n.args[j].cast(a[j], s.slot(p.nvalues + j), m);
        a[j] = s.slot(p.nvalues + j);
      }
    }
    char* dst = static_cast<int>(k) == p.direct_node ? ptr[p.outs[0].operand] : s.slot(v);
    n.fn(a, dst, m);
    val[v] = dst;
  }
  for (size_t q = 0; q < p.outs.size(); ++q) {
    const OutPlan& o = p.outs[q];
    if (q == 0 && p.direct_node >= 0) continue;
    const char* src = val[o.value];
    if (o.cast) {
      o.cast(src, s.slot(p.nvalues), m);
      src = s.slot(p.nvalues);
    }
    move(src, static_cast<int64_t>(o.item), ptr[o.operand], step[o.operand], m, o.item);
  }
}

// Elements [begin, end) of the collapsed iteration space, in C order, block by block.
void run_range(const Plan& p, int64_t begin, int64_t end) {
  Scratch s(p);
  int64_t step[kMaxOperands];
  for (int o = 0; o < p.nops; ++o) step[o] = p.strides[o][p.nd - 1];
  for_each_row_piece<kMaxOperands, kMaxDims>(
      p.nd, p.shape, p.nops, p.base.data(), p.strides, begin, end, [&](char* const* ptr, int64_t cnt) {
        char* at[kMaxOperands];
        for (int64_t off = 0; off < cnt; off += kEvalBlock) {
          for (int o = 0; o < p.nops; ++o) at[o] = ptr[o] + off * step[o];
          run_block(p, s, at, step, std::min(kEvalBlock, cnt - off));
        }
      });
}

}  // namespace

void eval_graph_cpu(const FusedGraph& g, const std::vector<GraphArg>& args, const std::vector<Array>& outs) {
  if (outs.empty()) throw std::invalid_argument("[graph] no output arrays");
  if (g.inputs.size() + outs.size() > kMaxOperands) throw std::invalid_argument("[graph] too many operands");
  const Plan p = make_plan(g, args, outs);
  int64_t n = 1;
  for (int d = 0; d < p.nd; ++d) n *= p.shape[d];
  if (outs[0].size() == 0 || n == 0) return;
  if (n <= kGrain) return run_range(p, 0, n);
  cpu_runtime::parallel_for(n, kGrain, [&](int64_t b, int64_t e) { run_range(p, b, e); });
}

}  // namespace loom
