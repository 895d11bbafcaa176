// The one way an op reaches a backend (DESIGN.md §2). dispatch() checks that every
// operand is on one device, tells the registered hooks (the profiler, a tracer, tests)
// before and after, and calls the primitive's eval for that device. Nothing else in loom
// chooses a backend by device kind.
#pragma once
#include <functional>
#include <initializer_list>
#include <tuple>
#include <vector>
#include <type_traits>
#include <utility>

#include "loom/array/array.h"
#include "loom/dispatch/primitive.h"
#include "loom/dispatch/trace.h"

namespace loom {

/// The operand arrays of one op: a braced list at the call (`{a, b}`), or a vector for a
/// list whose length is known only at run time (a recorded op run again). Borrowed for
/// the duration of the dispatch call.
class ArrayRefs {
 public:
  using Ref = std::reference_wrapper<const Array>;
  // The braced list's array lives until the end of the full expression that calls
  // dispatch(), which outlives this borrow (GCC warns about the general case).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"
#endif
  ArrayRefs(std::initializer_list<Ref> l) : begin_(l.begin()), size_(l.size()) {}  // NOLINT: implicit
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
  ArrayRefs(const std::vector<Ref>& v) : begin_(v.data()), size_(v.size()) {}      // NOLINT: implicit
  const Ref* begin() const { return begin_; }
  const Ref* end() const { return begin_ + size_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const Array& operator[](size_t i) const { return begin_[i]; }

 private:
  const Ref* begin_;
  size_t size_;
};

/// One op call as hooks see it. Outputs are those allocated before the eval; ops whose
/// result size depends on the data (nonzero, unique) return theirs from the eval instead.
struct OpEvent {
  const PrimitiveInfo& op;
  const Device& device;
  ArrayRefs inputs;
  ArrayRefs outputs;
};

/// Observes every dispatched op. before() runs ahead of the eval and after() once it has
/// returned (not when it threw). Hooks run on the calling thread; they must not dispatch.
class DispatchHook {
 public:
  virtual ~DispatchHook() = default;
  virtual void before(const OpEvent&) {}
  virtual void after(const OpEvent&) {}
};

/// Registers `hook` (not owned) for every thread's ops until remove_dispatch_hook.
void add_dispatch_hook(DispatchHook* hook);
void remove_dispatch_hook(DispatchHook* hook);

namespace dispatch_detail {

/// The device of the call: that of the first operand, after checking that all share it
/// (DeviceMismatchError naming the op otherwise). `device` gives it for ops with no
/// operand array (a user kernel launched on a stream, a fill of a fresh output).
const Device& call_device(const PrimitiveInfo& op, ArrayRefs inputs, ArrayRefs outputs);
/// DTypeError naming the op when an operand is complex and the op does not take complex.
void check_real_operands(const PrimitiveInfo& op, ArrayRefs inputs, ArrayRefs outputs);
bool hooks_active();
void run_before(const OpEvent& e);
void run_after(const OpEvent& e);

}  // namespace dispatch_detail

template <class R, class... A, class... Args>
R dispatch_on(const Primitive<R(A...)>& p, const Device& dev, ArrayRefs inputs, ArrayRefs outputs,
              Args&&... args);

namespace trace_detail {

bool any_abstract(ArrayRefs arrays);
/// Gives the abstract buffers among `arrays` real memory (constants of the trace).
void materialize(ArrayRefs arrays);

inline std::vector<ArrayRefs::Ref> refs(const std::vector<Array>& v) { return {v.begin(), v.end()}; }

/// TracedOp::run of a primitive with evals R(A...): the recorded arguments with their arrays
/// rebound through `map`, dispatched again (recorded again under an enclosing trace).
template <class R, class... A>
void rerun(const TracedOp& self, const BufferMap& map) {
  auto args = self.args_as<A...>();
  std::apply([&](auto&... a) { (rebind_arg(a, map), ...); }, args);
  std::vector<Array> in, out;
  in.reserve(self.inputs.size());
  out.reserve(self.outputs.size());
  for (const Array& a : self.inputs) in.push_back(rebind(a, map));
  for (const Array& a : self.outputs) out.push_back(rebind(a, map));
  const auto in_refs = refs(in), out_refs = refs(out);
  const auto& p = *static_cast<const Primitive<R(A...)>*>(self.record);
  std::apply([&](auto&... a) { dispatch_on(p, self.device, in_refs, out_refs, a...); }, args);
}

/// dispatch_on while `t` traces this thread: record the op, or run it now on concrete
/// operands (its outputs become constants), or refuse it (trace.h says which).
template <class R, class... A, class... Args>
R trace_op(Tracer* t, const Primitive<R(A...)>& p, const Device& dev, ArrayRefs inputs, ArrayRefs outputs,
           Args&&... args) {
  if constexpr (std::is_void_v<R> && (kRebindable<std::decay_t<A>> && ...)) {
    if (p.info.traceable) {
      TracedOp op;
      op.op = &p.info;
      op.record = &p;
      op.device = dev;
      op.inputs.assign(inputs.begin(), inputs.end());
      op.outputs.assign(outputs.begin(), outputs.end());
      op.args = std::make_shared<const std::tuple<std::decay_t<A>...>>(std::forward<Args>(args)...);
      op.run = &rerun<R, A...>;
      t->record(std::move(op));
      return;
    }
  }
  if (any_abstract(inputs)) throw_concretization(p.info.name);
  materialize(outputs);
  TraceScope suspended(nullptr);
  if constexpr (std::is_void_v<R>) {
    dispatch_on(p, dev, inputs, outputs, std::forward<Args>(args)...);
  } else {
    return dispatch_on(p, dev, inputs, outputs, std::forward<Args>(args)...);
  }
}

}  // namespace trace_detail

/// The same on a device given explicitly (an op with no operand arrays).
template <class R, class... A, class... Args>
R dispatch_on(const Primitive<R(A...)>& p, const Device& dev, ArrayRefs inputs, ArrayRefs outputs,
              Args&&... args) {
  if (!p.info.complex) dispatch_detail::check_real_operands(p.info, inputs, outputs);
  // Every write of loom's to an existing buffer comes through here (memory.h: writes()).
  for (const Array& o : outputs)
    if (o.valid()) o.buffer()->note_write();
  auto eval = dev.is_cpu() ? p.cpu : p.gpu;
  if (!dispatch_detail::hooks_active()) return eval(std::forward<Args>(args)...);
  if (Tracer* t = current_tracer())
    return trace_detail::trace_op(t, p, dev, inputs, outputs, std::forward<Args>(args)...);
  const OpEvent e{p.info, dev, inputs, outputs};
  dispatch_detail::run_before(e);
  if constexpr (std::is_void_v<R>) {
    eval(std::forward<Args>(args)...);
    dispatch_detail::run_after(e);
  } else {
    R r = eval(std::forward<Args>(args)...);
    dispatch_detail::run_after(e);
    return r;
  }
}


/// Calls `p`'s eval for the device of `inputs` and `outputs` with `args`.
template <class R, class... A, class... Args>
R dispatch(const Primitive<R(A...)>& p, ArrayRefs inputs, ArrayRefs outputs, Args&&... args) {
  const Device& dev = dispatch_detail::call_device(p.info, inputs, outputs);
  return dispatch_on(p, dev, inputs, outputs, std::forward<Args>(args)...);
}

}  // namespace loom
