// The stacks and shared memory of emulated blocks (block_stacks.cpp): guard-paged fiber
// stacks from a per-worker pool, the dynamic shared-memory arena, and running a block loop
// on a stack of its own when its locals may not fit the worker's.
#pragma once
#include <cstddef>
#include <functional>

#ifdef LOOM_HAVE_FIBERS
#include <boost/context/fiber.hpp>
#endif

namespace loom::cpu_emulator {

size_t page_size();
/// This worker's dynamic shared memory for a block of `bytes`: 64-byte aligned, ending at a
/// guard page (an overrun faults: KernelFaultError).
char* shared_arena(size_t bytes);
/// A stack of `size` bytes (a power of two, at least a page) above a guard page, from this
/// worker's pool; give it back with give_stack.
char* take_stack(size_t size);
void give_stack(char* lowest, size_t size);
/// Makes this thread's stack pool now, so that thread_locals made after it (fibers using its
/// stacks) are destroyed before it.
void init_thread_stacks();
/// Runs `body` on a stack of `size` bytes (ucontext when `uc`, else boost.context); its
/// exception, if any, is raised here.
void run_on_stack(size_t size, bool uc, const std::function<void()>& body);

#ifdef LOOM_HAVE_FIBERS
class PooledStack {
 public:
  explicit PooledStack(size_t size) : size_(size) {}
  boost::context::stack_context allocate() {
    boost::context::stack_context sc;
    sc.size = size_;
    sc.sp = take_stack(size_) + size_;
    return sc;
  }
  void deallocate(boost::context::stack_context& sc) noexcept { give_stack(static_cast<char*>(sc.sp) - sc.size, sc.size); }

 private:
  size_t size_;
};
#endif

}  // namespace loom::cpu_emulator
