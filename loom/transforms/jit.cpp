#include "loom/transforms/jit.h"

#include <deque>
#include <mutex>
#include <unordered_map>

#include "loom/core/error.h"
#include "loom/transforms/compile.h"

namespace loom {
namespace {

// The signature of one call: the static key, then per argument its dtype, device and shape.
using Key = std::vector<int64_t>;

struct KeyHash {
  size_t operator()(const Key& k) const {
    uint64_t h = 1469598103934665603ull;  // FNV-1a over the words
    for (int64_t w : k) h = (h ^ static_cast<uint64_t>(w)) * 1099511628211ull;
    return static_cast<size_t>(h);
  }
};

void signature(Key& k, const std::vector<Array>& args, uint64_t static_key) {
  k.clear();
  k.push_back(static_cast<int64_t>(static_key));
  k.push_back(static_cast<int64_t>(args.size()));
  for (const Array& a : args) {
    if (!a.valid()) throw_value_error("jit", "an argument is an empty Array handle");
    k.push_back(static_cast<int64_t>(a.dtype()) | (static_cast<int64_t>(a.device().type) << 8) |
                (static_cast<int64_t>(a.device().index) << 16));
    k.push_back(a.ndim());
    k.insert(k.end(), a.shape().begin(), a.shape().end());
  }
}

}  // namespace

struct Jitted::State {
  ArrayFn f;
  std::mutex mu;
  std::unordered_map<Key, size_t, KeyHash> index;
  struct Entry {
    TracedGraph graph;
    std::unique_ptr<CompiledPlan> plan;  // points into graph
  };
  std::deque<Entry> plans;  // a deque: references stay valid as plans are added
};

Jitted::Jitted(ArrayFn f) : state_(std::make_shared<State>()) {
  if (!f) throw_value_error("jit", "the function is empty");
  state_->f = std::move(f);
}

std::vector<Array> Jitted::operator()(const std::vector<Array>& args, uint64_t static_key, size_t* plan) const {
  State& s = *state_;
  // The key is built in a per-thread buffer (no allocation per call once warm); a trace
  // may call other jitted functions on this thread, so a miss copies it first.
  thread_local Key t_key;
  signature(t_key, args, static_key);
  const Key& key = t_key;
  const State::Entry* g = nullptr;
  size_t i = 0;
  {
    std::lock_guard<std::mutex> lock(s.mu);
    auto it = s.index.find(key);
    if (it != s.index.end()) i = it->second, g = &s.plans[i];
  }
  if (!g) {
    // Traced without the lock: the function may call other jitted functions (or this one
    // on other shapes). Two threads tracing one signature at once keep the first plan.
    const Key owned = key;
    std::vector<ArraySpec> specs;
    specs.reserve(args.size());
    for (const Array& a : args) specs.push_back(ArraySpec::of(a));
    State::Entry traced{trace(s.f, specs), nullptr};
    std::lock_guard<std::mutex> lock(s.mu);
    auto it = s.index.find(owned);
    if (it == s.index.end()) {
      s.plans.push_back(std::move(traced));
      try {
        s.plans.back().plan = std::make_unique<CompiledPlan>(s.plans.back().graph);
      } catch (...) {
        s.plans.pop_back();
        throw;
      }
      it = s.index.emplace(owned, s.plans.size() - 1).first;
    }
    i = it->second, g = &s.plans[i];
  }
  if (plan) *plan = i;
  // Under an enclosing trace the raw ops are recorded there (vmap and grad see primitives
  // with rules, never a fused group); otherwise the compiled plan runs.
  if (is_tracing()) return replay(g->graph, args);
  return g->plan->run(args);
}

size_t Jitted::num_traces() const {
  std::lock_guard<std::mutex> lock(state_->mu);
  return state_->plans.size();
}

const TracedGraph& Jitted::graph(size_t i) const {
  std::lock_guard<std::mutex> lock(state_->mu);
  if (i >= state_->plans.size()) throw std::out_of_range("[jit] no plan " + std::to_string(i));
  return state_->plans[i].graph;
}

const CompiledPlan& Jitted::plan(size_t i) const {
  std::lock_guard<std::mutex> lock(state_->mu);
  if (i >= state_->plans.size()) throw std::out_of_range("[jit] no plan " + std::to_string(i));
  return *state_->plans[i].plan;
}

Jitted jit(ArrayFn f) { return Jitted(std::move(f)); }

}  // namespace loom
