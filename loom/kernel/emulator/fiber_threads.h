// Emulated threads run as fibers (fiber_threads.cpp), for kernels with barriers or warp
// collectives: boost.context when built with it, else (or with
// LOOM_EMULATOR_FIBERS=ucontext) glibc's ucontext, slower (a system call per switch).
// Fibers are persistent per worker and reused: each loops "run the thread it is given,
// then park", so a block costs no fiber creation, only switches. A fiber left inside a
// kernel (its block failed) is discarded. The executor (executor.cpp) schedules them.
#pragma once
#include <setjmp.h>
#include <ucontext.h>

#include <cstddef>
#include <deque>
#include <exception>
#include <utility>

#include "loom/kernel/emulator/emulator.h"
#include "loom/kernel/emulator/fault_guard.h"

#ifdef LOOM_HAVE_FIBERS
#include <boost/context/fiber.hpp>
#endif

namespace loom::cpu_emulator {

struct Wait;

struct FiberThread {
  loom_emu::ThreadCtx ctx;
#ifdef LOOM_HAVE_FIBERS
  boost::context::fiber self;   // the thread, while suspended
  boost::context::fiber sched;  // the block's scheduler, while the thread runs
#endif
  ucontext_t uc;
  char* stack = nullptr;  // ucontext only
  size_t stack_size = 0;  // of its fiber; 0: it has none
  bool is_uc = false;     // its fiber is a ucontext one
  bool fresh = false;     // ucontext: made, never entered (uc_entry reads uc_starting)
  bool done = false;      // parked at the top of its loop: its thread returned (or threw)
  bool faulted = false;   // parked after a fault or an interrupt (in `fault`)
  Wait* wait = nullptr;   // where it waits (the scheduler's record of this thread)
  std::exception_ptr error;
  JumpPoint jump;  // set once in the fiber's base frame (fault_guard.h)
  KernelFault fault;
  GuardSlot* slot = nullptr;  // the worker's place in the fault guard's table
  EntryFn fn = nullptr;
  void** args = nullptr;

  FiberThread() = default;
  FiberThread(const FiberThread&) = delete;  // a fiber refers to its FiberThread by address
  FiberThread& operator=(const FiberThread&) = delete;
  ~FiberThread() { discard(); }
  // Drops the fiber: a suspended boost fiber is unwound; a ucontext stack is taken back.
  void discard();
};

/// LOOM_EMULATOR_FIBERS=ucontext, or a build without boost.context.
bool use_ucontext();

/// This worker's fibers, at least `n` of them, reused block after block (a deque: a fiber
/// refers to its FiberThread by address, so they never move).
std::deque<FiberThread>& worker_fibers(size_t n);

/// Gives `t` a parked fiber of `size` bytes of stack and the right kind: the one it has
/// when it fits, else a new one.
void ensure_fiber(FiberThread* t, size_t size, bool uc);

/// Runs `t`'s thread until it waits (at a barrier or collective: its Wait says where) or
/// ends (`done`; `faulted` or `error` say how). Inline: it runs at every switch.
void resume_uc(FiberThread& t);
inline void resume(FiberThread& t) {
#ifdef LOOM_HAVE_FIBERS
  if (!t.is_uc) {
    t.self = std::move(t.self).resume();
    return;
  }
#endif
  resume_uc(t);
}

/// The ThreadCtx hooks of a thread run as a fiber: each records where it waits in the
/// thread's Wait, then switches back to the scheduler.
void fiber_barrier(loom_emu::ThreadCtx* c, int line);
void fiber_collective(loom_emu::ThreadCtx* c, loom_emu::Collective* op, int line);

}  // namespace loom::cpu_emulator
