#include "loom/kernel/emulator/fiber_threads.h"

#include <stdlib.h>

#include <memory>
#include <string>
#include <utility>

#include "loom/kernel/emulator/block_stacks.h"
#include "loom/kernel/emulator/collectives.h"

namespace loom::cpu_emulator {
namespace {

#ifdef LOOM_HAVE_FIBERS
namespace ctx = boost::context;
#endif

// The fiber itself arms its jump point once it runs on its own stack, and disarms it
// before switching away: a fault or an interrupt jumps only from code on that stack (an
// interrupt that came meanwhile is seen when it arms again).
void run_thread_body(FiberThread* t) {
  try {
    enter_kernel_code(t->slot, &t->jump);
    t->fn(t->args, &t->ctx);
    leave_kernel_code(t->slot);
  }
#ifdef LOOM_HAVE_FIBERS
  catch (const ctx::detail::forced_unwind&) {
    throw;  // a boost fiber being destroyed: let boost unwind it
  }
#endif
  catch (...) {
    leave_kernel_code(t->slot);
    t->error = std::current_exception();
  }
  t->done = true;
}

thread_local ucontext_t uc_scheduler;
thread_local FiberThread* uc_starting = nullptr;

// Back to the scheduler from a thread that waits; on its return, the thread runs on.
void suspend(FiberThread* t) {
  leave_kernel_code(t->slot);
  if (t->is_uc) {
    swapcontext(&t->uc, &uc_scheduler);
  } else {
#ifdef LOOM_HAVE_FIBERS
    t->sched = std::move(t->sched).resume();
#endif
  }
  enter_kernel_code(t->slot, &t->jump);
}

// A fault or an interrupt in kernel code jumps back to the fiber's base frame (its jump
// point, set once per fiber): the fiber parks as if its thread had ended, marked faulted.
void park_faulted(FiberThread* t) {
  t->faulted = true;
  t->done = true;
}

// A ucontext fiber's life: run a thread, park, run the next one given to it.
void uc_entry() {
  FiberThread* const t = uc_starting;
  for (;;) {
    if (sigsetjmp(t->jump.env, 0) == 0) {
      for (;;) {
        run_thread_body(t);
        swapcontext(&t->uc, &uc_scheduler);
      }
    }
    // swapcontext saves this fiber's signal mask, which still blocks the fault's signal
    // (the handler ran with it blocked): unblock it here too, or the next fault of this
    // reused fiber would find it blocked and the kernel would end the process.
    recover_after_jump(t->fault);
    park_faulted(t);
    swapcontext(&t->uc, &uc_scheduler);
  }
}

// Out of line: getcontext "returns twice" as far as the compiler knows, which would make it
// warn about (and spill) the caller's loop variables.
__attribute__((noinline)) void make_uc_fiber(FiberThread* t) {
  t->stack = take_stack(t->stack_size);
  getcontext(&t->uc);
  t->uc.uc_stack.ss_sp = t->stack;
  t->uc.uc_stack.ss_size = t->stack_size;
  t->uc.uc_link = nullptr;  // uc_entry never returns
  makecontext(&t->uc, uc_entry, 0);
  t->fresh = true;
}

}  // namespace

void FiberThread::discard() {
#ifdef LOOM_HAVE_FIBERS
  self = ctx::fiber();
#endif
  if (stack) give_stack(std::exchange(stack, nullptr), stack_size);
  stack_size = 0;
}

bool use_ucontext() {
#ifdef LOOM_HAVE_FIBERS
  const char* e = getenv("LOOM_EMULATOR_FIBERS");
  return e && std::string(e) == "ucontext";
#else
  return true;
#endif
}

void ensure_fiber(FiberThread* t, size_t size, bool uc) {
  if (t->stack_size == size && t->is_uc == uc && t->done) return;
  t->discard();
  t->stack_size = size;
  t->is_uc = uc;
  if (uc) {
    make_uc_fiber(t);
    return;
  }
#ifdef LOOM_HAVE_FIBERS
  t->self = ctx::fiber(std::allocator_arg, PooledStack(size), [t](ctx::fiber&& s) {
    t->sched = std::move(s);
    for (;;) {
      if (sigsetjmp(t->jump.env, 0) == 0) {
        for (;;) {
          run_thread_body(t);
          t->sched = std::move(t->sched).resume();  // parked until the next block gives it a thread
        }
      }
      park_faulted(t);
      t->sched = std::move(t->sched).resume();
    }
    return std::move(t->sched);  // not reached: a destroyed fiber leaves by forced unwinding
  });
#endif
}

std::deque<FiberThread>& worker_fibers(size_t n) {
  init_thread_stacks();  // made first, so destroyed after the fibers that use it
  thread_local std::deque<FiberThread> threads;
  while (threads.size() < n) threads.emplace_back();
  return threads;
}

void resume_uc(FiberThread& t) {
  if (t.fresh) uc_starting = &t;
  t.fresh = false;
  swapcontext(&uc_scheduler, &t.uc);
}

void fiber_barrier(loom_emu::ThreadCtx* c, int line) {
  auto* t = static_cast<FiberThread*>(c->executor);
  *t->wait = Wait{Wait::kBlock, line, nullptr};
  suspend(t);
}

void fiber_collective(loom_emu::ThreadCtx* c, loom_emu::Collective* op, int line) {
  auto* t = static_cast<FiberThread*>(c->executor);
  const int k = op->kind;
  *t->wait = Wait{k == loom_emu::Collective::kBlockCount ? Wait::kBlock
                  : k == loom_emu::Collective::kGridSync ? Wait::kGrid
                                                         : Wait::kWarp,
                  line, op};
  suspend(t);
}

}  // namespace loom::cpu_emulator
