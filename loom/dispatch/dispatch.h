// The one way an op reaches a backend (DESIGN.md §2). dispatch() checks that every
// operand is on one device, tells the registered hooks (the profiler, a tracer, tests)
// before and after, and calls the primitive's eval for that device. Nothing else in loom
// chooses a backend by device kind.
#pragma once
#include <functional>
#include <initializer_list>
#include <type_traits>
#include <utility>

#include "loom/array/array.h"
#include "loom/backend/primitive.h"

namespace loom {

using ArrayRefs = std::initializer_list<std::reference_wrapper<const Array>>;

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
bool hooks_active();
void run_before(const OpEvent& e);
void run_after(const OpEvent& e);

}  // namespace dispatch_detail

/// The same on a device given explicitly (an op with no operand arrays).
template <class R, class... A, class... Args>
R dispatch_on(const Primitive<R(A...)>& p, const Device& dev, ArrayRefs inputs, ArrayRefs outputs,
              Args&&... args) {
  auto eval = dev.is_cpu() ? p.cpu : p.gpu;
  if (!dispatch_detail::hooks_active()) return eval(std::forward<Args>(args)...);
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
