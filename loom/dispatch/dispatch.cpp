// The dispatch point's hook registry and device check.
#include "loom/dispatch/dispatch.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "loom/core/error.h"

namespace loom {
namespace {

// Readers take a snapshot without locking: every op reads it, hooks change rarely.
std::mutex g_mutex;
std::shared_ptr<const std::vector<DispatchHook*>> g_hooks = std::make_shared<std::vector<DispatchHook*>>();
std::atomic<int> g_count{0};

std::shared_ptr<const std::vector<DispatchHook*>> snapshot() { return std::atomic_load(&g_hooks); }

}  // namespace

void add_dispatch_hook(DispatchHook* hook) {
  if (!hook) throw_value_error("add_dispatch_hook", "the hook is null");
  std::lock_guard<std::mutex> lock(g_mutex);
  auto next = std::make_shared<std::vector<DispatchHook*>>(*g_hooks);
  next->push_back(hook);
  std::atomic_store(&g_hooks, std::shared_ptr<const std::vector<DispatchHook*>>(std::move(next)));
  g_count.fetch_add(1);
}

void remove_dispatch_hook(DispatchHook* hook) {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto next = std::make_shared<std::vector<DispatchHook*>>(*g_hooks);
  auto it = std::find(next->begin(), next->end(), hook);
  if (it == next->end()) return;
  next->erase(it);
  std::atomic_store(&g_hooks, std::shared_ptr<const std::vector<DispatchHook*>>(std::move(next)));
  g_count.fetch_sub(1);
}

namespace dispatch_detail {

// An abstract array (no memory) outside the trace that made it: it was stored somewhere
// (an attribute, a global) while a function was transformed, and outlived the trace.
[[noreturn]] static void throw_escaped_tracer(const char* op) {
  throw ConcretizationError(std::string("[") + op +
                            "] an operand is a traced array that escaped the function being transformed (it was "
                            "stored in an attribute, a global or a closure while loom.jit, vmap or grad traced "
                            "the function, and has no values): return it from the function instead (a module's "
                            "updated buffers come back through nn.value_and_grad)");
}

const Device& call_device(const PrimitiveInfo& op, ArrayRefs inputs, ArrayRefs outputs) {
  const Array* first = nullptr;
  for (ArrayRefs list : {inputs, outputs}) {
    for (const Array& a : list) {
      if (!first) first = &a;
      else check_same_device(op.name, first->device(), a.device());
      if (a.buffer()->is_abstract() && !current_tracer()) throw_escaped_tracer(op.name);
    }
  }
  if (!first) throw_value_error(op.name, "dispatched with no operand to take the device from");
  return first->device();
}

void check_real_operands(const PrimitiveInfo& op, ArrayRefs inputs, ArrayRefs outputs) {
  for (ArrayRefs list : {inputs, outputs})
    for (const Array& a : list)
      if (is_complex(a.dtype()))
        throw_dtype_error(op.name, std::string("does not support ") + dtype_name(a.dtype()) + " arrays yet");
}

bool hooks_active() { return g_count.load(std::memory_order_relaxed) != 0; }

void run_before(const OpEvent& e) {
  for (DispatchHook* h : *snapshot()) h->before(e);
}

void run_after(const OpEvent& e) {
  for (DispatchHook* h : *snapshot()) h->after(e);
}

}  // namespace dispatch_detail

// ---- tracing (trace.h) ---------------------------------------------------------------------

namespace {
thread_local Tracer* t_tracer = nullptr;
}  // namespace

// A scope counts as a hook so that dispatch() leaves its fast path while any thread traces.
TraceScope::TraceScope(Tracer* tracer) : saved_(t_tracer), alloc_(tracer != nullptr) {
  t_tracer = tracer;
  g_count.fetch_add(1);
}

TraceScope::~TraceScope() {
  t_tracer = saved_;
  g_count.fetch_sub(1);
}

Tracer* current_tracer() { return t_tracer; }

void throw_concretization(const char* op, const std::string& what) {
  std::string msg = std::string("[") + op + "] ";
  if (what.empty())
    msg += "needs the values of an array that is being traced (inside loom.jit, vmap or grad they are not "
           "known until the function runs); compute with array ops instead (loom.where for an `if` on "
           "values), or make a value that decides shapes or control flow a static argument (static_argnums)";
  else
    msg += what + " (inside loom.jit, vmap or grad the values are not known until the function runs)";
  throw ConcretizationError(msg);
}

namespace trace_detail {

bool any_abstract(ArrayRefs arrays) {
  for (const Array& a : arrays)
    if (is_abstract(a)) return true;
  return false;
}

void materialize(ArrayRefs arrays) {
  for (const Array& a : arrays) {
    if (!is_abstract(a)) continue;
    const std::shared_ptr<Buffer>& b = a.buffer();
    b->materialize(memory::allocate_concrete(b->nbytes(), b->device()));
  }
}

}  // namespace trace_detail
}  // namespace loom
