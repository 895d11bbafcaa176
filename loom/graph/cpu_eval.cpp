// The CPU graph evaluator: the operands' dims are collapsed jointly (as the eager CPU
// engine does), the flat index range is split over the thread pool, and each row is run
// in blocks of kEvalBlock elements: inputs are read in place when contiguous (else
// gathered into the value's block buffer), each node runs its typed block loop over its
// arguments' buffers (cast to the op's loop dtypes where needed), and the outputs are
// cast and stored. Scratch is one buffer per value per task, never per element or node.
// A `where` whose branch is computed by costly nodes used by nothing else (as in
// where(x > 0, x, log1p(-x) * a)) runs them after its condition, on only the lanes that
// take that branch: gathered, computed compactly and scattered back. The same functors
// see the same values, so the result is bit for bit the one of computing every lane.
#include "loom/graph/cpu_eval.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>

#include "loom/core/error.h"
#include "loom/core/strided_rows.h"
#include "loom/graph/cpu_compiled.h"
#include "loom/graph/cpu_eval_loops.h"
#include "loom/graph/cpu_eval_scratch.h"
#include "loom/runtime/cpu/thread_pool.h"

namespace loom {
namespace {

using namespace graph_cpu;
constexpr int kMaxDims = 64;
constexpr int kMaxOperands = 64;
constexpr int64_t kGrain = 1 << 15;            // elements per parallel task
constexpr int64_t kMaxItem = 16;               // bytes of the widest item (complex128)

const NodeTable& node_table() {
  static const struct Table {
    NodeTable t{};
    Table() {
      register_nodes_part0(t);
      register_nodes_part1(t);
      register_nodes_part2(t);
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
  return dispatch_any_dtype(s, [&](auto a) {
    return dispatch_any_dtype(d, [&](auto b) -> CastFn { return &cast_block<decltype(a), decltype(b)>; });
  });
}

template <size_t N>
void move_n(const char* src, int64_t sstep, char* dst, int64_t dstep, int64_t n) {
  for (int64_t i = 0; i < n; ++i) std::memcpy(dst + i * dstep, src + i * sstep, N);
}
// f(std::integral_constant<size_t, N>{}) for elements of N = item bytes (1 to 16: complex128).
template <class F>
void by_item(size_t item, F&& f) {
  switch (item) {
    case 1: return f(std::integral_constant<size_t, 1>{});
    case 2: return f(std::integral_constant<size_t, 2>{});
    case 4: return f(std::integral_constant<size_t, 4>{});
    case 8: return f(std::integral_constant<size_t, 8>{});
    default: return f(std::integral_constant<size_t, 16>{});
  }
}
// n elements of `item` bytes from src (step sstep) to dst (step dstep).
void move(const char* src, int64_t sstep, char* dst, int64_t dstep, int64_t n, size_t item) {
  by_item(item, [&](auto N) { move_n<N>(src, sstep, dst, dstep, n); });
}

struct Arg {
  int value;
  CastFn cast;  // to the op's loop dtype; null when the value already has it
};
struct NodePlan {
  NodeFn fn;
  int arity;
  Arg args[3];
  int lazy = -1;                       // the lazy branch this node belongs to, or -1
  int first_branch = -1, branches = 0;  // for a where: its lazy branches in Plan::lazy
};
// The nodes (ascending) that compute only argument `arg` of the where node `where`.
struct LazyBranch {
  int where, arg;
  std::vector<int> nodes;
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
  std::vector<LazyBranch> lazy;
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

// Ops that cost several times a load and a store per element (a libm call, the op table's
// traits column): only branches with one of these are worth gathering and scattering.
bool costly(OpId op, DType loop) {
  const uint8_t t = kOpTable[static_cast<int>(op)].traits;
  return (t & op_trait::libm) || ((t & op_trait::libm64) && loop == DType::float64);
}

// Finds the lazy branches: for each where (outermost first), the nodes whose every use is
// the branch argument or another node of the branch, and that are no output.
void find_lazy_branches(const FusedGraph& g, Plan& p) {
  const int nin = p.nin, nn = static_cast<int>(g.nodes.size());
  std::vector<std::vector<std::pair<int, int>>> uses(p.nvalues);  // (node, argument)
  for (int k = 0; k < nn; ++k)
    for (int a = 0; a < op_info(g.nodes[k].op).arity; ++a) uses[g.nodes[k].args[a]].push_back({k, a});
  std::vector<bool> output(p.nvalues, false);
  for (const auto& o : g.outputs) output[o.value] = true;
  for (int w = nn - 1; w >= 0; --w) {
    if (g.nodes[w].op != OpId::where || p.nodes[w].lazy >= 0) continue;
    for (int arg = 1; arg <= 2; ++arg) {
      const int root = g.nodes[w].args[arg] - nin;
      if (root < 0) continue;
      std::vector<bool> in(nn, false);
      bool worth = false;
      for (int k = root; k >= 0; --k) {
        const int v = nin + k;
        if (p.nodes[k].lazy >= 0 || output[v] || uses[v].empty()) continue;
        bool only = true;
        for (const auto& [node, a] : uses[v])
          only = only && (k == root ? node == w && a == arg : in[node]);
        if (!only) continue;
        in[k] = true;
        worth = worth || costly(g.nodes[k].op, g.nodes[k].loop);
      }
      if (!worth) continue;
      LazyBranch b{w, arg, {}};
      for (int k = 0; k <= root; ++k)
        if (in[k]) {
          b.nodes.push_back(k);
          p.nodes[k].lazy = static_cast<int>(p.lazy.size());
        }
      if (p.nodes[w].branches == 0) p.nodes[w].first_branch = static_cast<int>(p.lazy.size());
      ++p.nodes[w].branches;
      p.lazy.push_back(std::move(b));
    }
  }
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
  find_lazy_branches(g, p);
  return p;
}

// One task's block buffers (in the thread's memory, cpu_eval_scratch.h, each the size of a
// block of the task's elements): one per value, three for cast and three for gathered
// arguments, and for a lazy branch its lane indices, result and where's condition as bool.
// Zeroed first, so a branch no lane takes is initialised memory where `where` reads it.
struct Scratch {
  static constexpr int kExtra = 9;
  int64_t slot_bytes;
  ThreadScratch buf;
  std::vector<const char*> val;  // per value: where its block is (a buffer or an array row)
  Scratch(const Plan& p, int64_t elements)
      : slot_bytes((std::min(kEvalBlock, elements) * kMaxItem + 63) / 64 * 64),
        buf(static_cast<size_t>((p.nvalues + kExtra) * slot_bytes)), val(p.nvalues) {
    const int64_t block = std::min(kEvalBlock, elements);
    for (int i = 0; i < p.nin; ++i)
      if (p.operand[i] < 0) {  // param inputs: the scalar repeated once per task
        char* b = slot(i);
        for (int64_t e = 0; e < block; ++e) std::memcpy(b + e * p.item[i], p.params[i].data(), p.item[i]);
      }
  }
  char* slot(int k) { return buf.data() + k * slot_bytes; }
  char* cast_slot(const Plan& p, int j) { return slot(p.nvalues + j); }
  char* gather_slot(const Plan& p, int j) { return slot(p.nvalues + 3 + j); }
  int32_t* lanes(const Plan& p) { return reinterpret_cast<int32_t*>(slot(p.nvalues + 6)); }
  char* compact_slot(const Plan& p) { return slot(p.nvalues + 7); }
  char* cond_slot(const Plan& p) { return slot(p.nvalues + 8); }
};

template <size_t N>
void gather_n(const char* src, const int32_t* idx, int64_t k, char* dst) {
  for (int64_t j = 0; j < k; ++j) std::memcpy(dst + j * N, src + idx[j] * N, N);
}
// dst[j] = src[idx[j]] for j < k, items of `item` bytes.
void gather(const char* src, const int32_t* idx, int64_t k, char* dst, size_t item) {
  by_item(item, [&](auto N) { gather_n<N>(src, idx, k, dst); });
}
template <size_t N>
void scatter_n(const char* __restrict src, const int32_t* __restrict idx, int64_t k, char* __restrict dst) {
  for (int64_t j = 0; j < k; ++j) std::memcpy(dst + idx[j] * N, src + j * N, N);
}
// The inverse of gather: dst[idx[j]] = src[j] for j < k. Out of place: in place, each
// load would wait on the store before it (they may alias).
void scatter(const char* src, const int32_t* idx, int64_t k, char* dst, size_t item) {
  by_item(item, [&](auto N) { scatter_n<N>(src, idx, k, dst); });
}

// Runs node k on m lanes. With `idx` (a lazy branch on k of the block's lanes), arguments
// from outside the branch are gathered at idx first; the branch's own are compact already.
void run_node(const Plan& p, Scratch& s, int k, char* const* ptr, int64_t m, const int32_t* idx = nullptr) {
  const NodePlan& n = p.nodes[k];
  const char** val = s.val.data();
  const int v = p.nin + k;
  const char* a[3];
  for (int j = 0; j < n.arity; ++j) {
    const int arg = n.args[j].value;
    a[j] = val[arg];
    const bool uniform = arg < p.nin && p.operand[arg] < 0;  // a param: every lane alike
    if (idx && !uniform && (arg < p.nin || p.nodes[arg - p.nin].lazy != n.lazy)) {
      gather(a[j], idx, m, s.gather_slot(p, j), p.item[arg]);
      a[j] = s.gather_slot(p, j);
    }
    if (n.args[j].cast) {
      n.args[j].cast(a[j], s.cast_slot(p, j), m);
      a[j] = s.cast_slot(p, j);
    }
  }
  char* dst = k == p.direct_node ? ptr[p.outs[0].operand] : s.slot(v);
  n.fn(a, dst, m);
  val[v] = dst;
}

// For each mask of 8 lanes: the numbers of its set lanes in order, and how many.
struct LaneTable {
  uint8_t lane[256][8] = {};
  uint8_t count[256] = {};
  constexpr LaneTable() {
    for (int mask = 0; mask < 256; ++mask)
      for (int q = 0; q < 8; ++q)
        if (mask >> q & 1) lane[mask][count[mask]++] = static_cast<uint8_t>(q);
  }
};

// idx[0..k) = the lanes i < m where (c[i] != 0) == take; returns k. Eight lanes at a time:
// their bytes folded into an 8-bit mask, whose lane numbers come from a table (no branch
// on random conditions). Writes up to 8 entries past k: idx has room for m + 8.
int64_t select_lanes(const uint8_t* __restrict c, int64_t m, uint8_t take, int32_t* __restrict idx) {
  static constexpr LaneTable table;
  const unsigned flip = take ? 0u : 0xFFu;
  int64_t k = 0, i = 0;
  for (; i + 8 <= m; i += 8) {
    uint64_t t;
    std::memcpy(&t, c + i, 8);
    t |= t >> 4;  // bit 0 of each byte becomes the or of its 8 bits
    t |= t >> 2;
    t |= t >> 1;
    t &= 0x0101010101010101ull;
    const unsigned mask = static_cast<unsigned>((t * 0x0102040810204080ull) >> 56) ^ flip;  // lane q -> bit q
    for (int q = 0; q < 8; ++q) idx[k + q] = static_cast<int32_t>(i + table.lane[mask][q]);
    k += table.count[mask];
  }
  for (; i < m; ++i) {
    idx[k] = static_cast<int32_t>(i);
    k += static_cast<uint8_t>(c[i] != 0) == take;
  }
  return k;
}

// The lazy branches of where node w: each runs on the lanes whose condition selects it.
void run_branches(const Plan& p, Scratch& s, int w, char* const* ptr, int64_t m) {
  const NodePlan& wn = p.nodes[w];
  const char* cond = s.val[wn.args[0].value];
  if (wn.args[0].cast) {  // its own slot: the branches' nodes use the cast slots
    wn.args[0].cast(cond, s.cond_slot(p), m);
    cond = s.cond_slot(p);
  }
  const uint8_t* c = reinterpret_cast<const uint8_t*>(cond);
  int32_t* idx = s.lanes(p);
  for (int b = wn.first_branch; b < wn.first_branch + wn.branches; ++b) {
    const LazyBranch& br = p.lazy[b];
    const uint8_t take = br.arg == 1 ? 1 : 0;  // argument 1 where the condition holds
    const int64_t k = select_lanes(c, m, take, idx);
    const int root = br.nodes.back();
    if (k == m) {  // every lane: no gathering
      for (int node : br.nodes) run_node(p, s, node, ptr, m);
      continue;
    }
    if (k > 0) {
      for (int node : br.nodes) run_node(p, s, node, ptr, k, idx);
      const size_t item = p.item[p.nin + root];
      std::memcpy(s.compact_slot(p), s.slot(p.nin + root), static_cast<size_t>(k) * item);
      scatter(s.compact_slot(p), idx, k, s.slot(p.nin + root), item);
    }
    s.val[p.nin + root] = s.slot(p.nin + root);
  }
}

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
  for (int k = 0; k < static_cast<int>(p.nodes.size()); ++k) {
    const NodePlan& n = p.nodes[k];
    if (n.lazy >= 0) continue;  // run by its where, after the condition
    if (n.branches) run_branches(p, s, k, ptr, m);
    run_node(p, s, k, ptr, m);
  }
  for (size_t q = 0; q < p.outs.size(); ++q) {
    const OutPlan& o = p.outs[q];
    if (q == 0 && p.direct_node >= 0) continue;
    const char* src = val[o.value];
    if (o.cast) {
      o.cast(src, s.cast_slot(p, 0), m);
      src = s.cast_slot(p, 0);
    }
    move(src, static_cast<int64_t>(o.item), ptr[o.operand], step[o.operand], m, o.item);
  }
}

// Elements [begin, end) of the collapsed iteration space, in C order, block by block.
void run_range(const Plan& p, int64_t begin, int64_t end) {
  Scratch s(p, end - begin);
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

// The graph as one loop compiled for this CPU (graph/cpu_compiled.h) when it has one
// collapsed dim and no where with lazy branches (the block loops compute those on only the
// lanes that take them), and the loop takes its operands.
bool run_compiled(const FusedGraph& g, const Plan& p, int64_t n) {
  if (p.nd != 1 || !p.lazy.empty()) return false;
  std::vector<cpu_compiled::Operand> in, out;
  for (int i = 0; i < p.nin; ++i) {
    const int o = p.operand[i];
    if (o < 0) in.push_back({reinterpret_cast<const char*>(p.params[i].data()), 0, p.item[i]});
    else in.push_back({p.base[o], p.strides[o][0], p.item[i]});
  }
  for (const OutPlan& o : p.outs) out.push_back({p.base[o.operand], p.strides[o.operand][0], o.item});
  return cpu_compiled::run(g, in, out, n, kGrain);
}

}  // namespace

void eval_graph_cpu(const FusedGraph& g, const std::vector<GraphArg>& args, const std::vector<Array>& outs) {
  if (outs.empty()) throw std::invalid_argument("[graph] no output arrays");
  if (g.inputs.size() + outs.size() > kMaxOperands) throw std::invalid_argument("[graph] too many operands");
  const Plan p = make_plan(g, args, outs);
  int64_t n = 1;
  for (int d = 0; d < p.nd; ++d) n *= p.shape[d];
  if (outs[0].size() == 0 || n == 0) return;
  if (n >= cpu_compiled::min_elements() && run_compiled(g, p, n)) return;
  if (n <= kGrain) return run_range(p, 0, n);
  cpu_runtime::parallel_for(n, kGrain, [&](int64_t b, int64_t e) { run_range(p, b, e); });
}

}  // namespace loom
