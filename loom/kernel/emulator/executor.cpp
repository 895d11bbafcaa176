// Running an emulated kernel: blocks in parallel over loom's thread pool; inside a block,
// a kernel without barriers runs its threads as a plain loop (the generated block entry),
// one with __syncthreads runs each thread as a fiber (boost.context) on the worker's OS
// thread, switching at every barrier (ucontext where boost.context is missing). Fibers are
// persistent per worker and reused from block to block and launch to launch. Stacks
// come from a per-worker pool (guard-paged mmap'ed stacks, reused across blocks and launches)
// in power-of-two sizes; each kernel's size comes from its call graph (stack_usage.h).
//
// Debug mode (a DebugLaunch, emulator.h) changes only the order and the starting state:
// threads run in a random order between barriers (barrier-free kernels one thread at a
// time through the thread entry, in a random order), shared memory starts as junk, and a
// failed bounds check (std::out_of_range from the kernel) becomes IndexError with the
// kernel's line. The normal path does none of this: its only extra work is a null check.
// A divergent barrier that some threads skip by returning completes in normal mode (as on
// Volta and later GPUs) and is an error in debug mode (as compute-sanitizer's synccheck).
//
// Kernel code runs under the fault guard (fault_guard.h): a fault in it (SIGSEGV, SIGFPE...)
// raises KernelFaultError, and Ctrl-C (interrupt.h) ends a launch with Interrupted.
#include <stdlib.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "loom/kernel/emulator/block_stacks.h"
#include "loom/kernel/emulator/emulator.h"
#include "loom/kernel/emulator/fault_guard.h"
#include "loom/kernel/emulator/thread_errors.h"
#include "loom/runtime/cpu/host_arena.h"
#include "loom/runtime/cpu/thread_pool.h"
#include "loom/core/error.h"
#include "loom/core/interrupt.h"

#ifdef LOOM_HAVE_FIBERS
#include <boost/context/fiber.hpp>
#endif

namespace loom::cpu_emulator {
namespace {

using loom_emu::Idx3;
using loom_emu::ThreadCtx;
#ifdef LOOM_HAVE_FIBERS
namespace ctx = boost::context;
#endif

// Debug mode's shuffles: splitmix64, seeded per block from the launch's seed, so a block's
// order does not depend on which worker runs it.
struct Shuffler {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  void shuffle(std::vector<uint32_t>& v) {  // Fisher-Yates
    for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[next() % i]);
  }
};

// A barrier in a kernel run as a loop: the kernel reached __syncthreads although the
// source scan saw none (e.g. through a macro); say so rather than run it wrong.
void loop_barrier(ThreadCtx*, int line) {
  throw std::runtime_error("reached __syncthreads at line " + std::to_string(line) +
                           " although the kernel was run without barriers (its source does not name "
                           "__syncthreads where loom looks: in the kernel's body or outside any kernel)");
}

// One emulated thread run as a fiber: boost.context when built with it, else (or with
// LOOM_EMULATOR_FIBERS=ucontext) glibc's ucontext, slower (a system call per switch).
// Fibers are persistent per worker and reused: each loops "run the thread it is given,
// then park", so a block costs no fiber creation, only switches. A fiber left inside a
// kernel (its block failed) is discarded.
struct FiberThread {
  ThreadCtx ctx;
#ifdef LOOM_HAVE_FIBERS
  ctx::fiber self;   // the thread, while suspended
  ctx::fiber sched;  // the block's scheduler, while the thread runs
#endif
  ucontext_t uc;
  char* stack = nullptr;  // ucontext only
  size_t stack_size = 0;  // of its fiber; 0: it has none
  bool is_uc = false;     // its fiber is a ucontext one
  bool fresh = false;     // ucontext: made, never entered (uc_entry reads uc_starting)
  int line = 0;           // the barrier it waits at
  bool done = false;      // parked at the top of its loop: its thread returned (or threw)
  bool faulted = false;   // parked after a fault or an interrupt (in `fault`)
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

bool use_ucontext() {
#ifdef LOOM_HAVE_FIBERS
  const char* e = getenv("LOOM_EMULATOR_FIBERS");
  return e && std::string(e) == "ucontext";
#else
  return true;
#endif
}

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

#ifdef LOOM_HAVE_FIBERS
void boost_barrier(ThreadCtx* c, int line) {
  auto* t = static_cast<FiberThread*>(c->executor);
  t->line = line;
  leave_kernel_code(t->slot);
  t->sched = std::move(t->sched).resume();
  enter_kernel_code(t->slot, &t->jump);
}
#endif

thread_local ucontext_t uc_scheduler;
thread_local FiberThread* uc_starting = nullptr;
void uc_barrier(ThreadCtx* c, int line) {
  auto* t = static_cast<FiberThread*>(c->executor);
  t->line = line;
  leave_kernel_code(t->slot);
  swapcontext(&t->uc, &uc_scheduler);
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

void FiberThread::discard() {
#ifdef LOOM_HAVE_FIBERS
  self = ctx::fiber();
#endif
  if (stack) give_stack(std::exchange(stack, nullptr), stack_size);
  stack_size = 0;
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

// Gives `t` a parked fiber of `size` bytes of stack and the right kind: the one it has
// when it fits, else a new one.
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

// Every worker's fibers, reused block after block (a deque: a fiber refers to its
// FiberThread by address, so they never move).
std::deque<FiberThread>& worker_fibers(size_t n) {
  init_thread_stacks();  // made first, so destroyed after the fibers that use it
  thread_local std::deque<FiberThread> threads;
  while (threads.size() < n) threads.emplace_back();
  return threads;
}

// One block as fibers: round after round, every unfinished thread runs to its next barrier
// or to its end; a round where all unfinished threads wait releases the barrier.
// With `shuffler` (debug mode), each round runs the live threads in a fresh random order.
void run_block_fibers(const EmuFunction& f, const ThreadCtx& proto, void** args, bool uc, Shuffler* shuffler,
                      const DebugLaunch* debug) {
  thread_local std::vector<uint32_t> order;
  const Idx3 d = proto.block_dim;
  const size_t n = size_t{d.x} * d.y * d.z;
  std::deque<FiberThread>& threads = worker_fibers(n);
  GuardSlot* const slot = guard_slot();
  size_t i = 0;
  for (unsigned z = 0; z < d.z; ++z)
    for (unsigned y = 0; y < d.y; ++y)
      for (unsigned x = 0; x < d.x; ++x, ++i) {
        FiberThread* t = &threads[i];
        ensure_fiber(t, f.thread_stack, uc);
        t->ctx = proto;
        t->ctx.thread_idx = Idx3{x, y, z};
        t->ctx.executor = t;
#ifdef LOOM_HAVE_FIBERS
        t->ctx.barrier = uc ? uc_barrier : boost_barrier;
#else
        t->ctx.barrier = uc_barrier;
#endif
        t->done = false;
        t->faulted = false;
        t->error = nullptr;
        t->jump.fault = &t->fault;
        t->jump.backtrace = debug != nullptr;
        t->slot = slot;
        t->fn = f.thread;
        t->args = args;
      }
  // A failed block: the fibers still inside the kernel are dropped (boost unwinds them;
  // a ucontext stack holds nothing to release); the parked ones stay for the next block.
  auto abandon = [&] {
    for (size_t j = 0; j < n; ++j)
      if (!threads[j].done) threads[j].discard();
  };
  // Rounds: every live thread runs until it waits at a barrier or returns. Threads that
  // returned are not live (as on Volta and later GPUs, an early `return` before a barrier
  // is fine); the live ones must all wait at the same __syncthreads, else it diverges.
  if (shuffler) {
    order.resize(n);
    for (size_t j = 0; j < n; ++j) order[j] = static_cast<uint32_t>(j);
  }
  for (;;) {
    size_t waiting = 0, other = 0;
    int line = 0, other_line = 0;
    if (shuffler) shuffler->shuffle(order);
    if (launch_interrupted(slot)) {  // Ctrl-C came while no kernel code ran here
      abandon();
      throw Interrupted("interrupted (Ctrl-C)");
    }
    for (size_t j = 0; j < n; ++j) {
      FiberThread& t = threads[shuffler ? order[j] : j];
      if (t.done) continue;
      if (uc) {
        if (t.fresh) uc_starting = &t;
        t.fresh = false;
        swapcontext(&uc_scheduler, &t.uc);
      } else {
#ifdef LOOM_HAVE_FIBERS
        t.self = std::move(t.self).resume();
#endif
      }
      if (t.faulted) {  // parked at its base frame: reusable; the others are dropped
        recover_after_jump(t.fault);
        t.faulted = false;
        t.error = fault_error(f, t.fault, debug);
        t.fault = KernelFault{};
      }
      if (t.error) {
        std::exception_ptr e = std::exchange(t.error, nullptr);
        const ThreadCtx where = t.ctx;
        abandon();
        rethrow_from_thread(e, f, where, debug);
      }
      if (t.done) continue;
      if (waiting++ == 0) {
        line = t.line;
      } else if (t.line != line) {
        if (other++ == 0) other_line = t.line;
      }
    }
    if (waiting == 0) return;  // every thread returned: all fibers parked, ready for the next block
    if (debug && other == 0) {
      // Debug mode: threads that returned never reach the barrier the others wait at, which
      // a GPU leaves undefined (Volta and later release it; compute-sanitizer's synccheck
      // reports it).
      size_t returned = 0;
      for (size_t j = 0; j < n; ++j) returned += threads[j].done;
      if (returned > 0) {
        abandon();
        throw std::runtime_error("divergent __syncthreads at line " + std::to_string(line) +
                                 " of the kernel source: in block " + idx_str(proto.block_idx) + ", " +
                                 std::to_string(waiting) + " threads wait there and " + std::to_string(returned) +
                                 " returned without reaching it (reported in debug mode, as compute-sanitizer "
                                 "--tool synccheck does; normal mode lets the others pass, as Volta and later GPUs do)");
      }
    }
    if (other > 0) {
      abandon();
      throw std::runtime_error("divergent __syncthreads: in block " + idx_str(proto.block_idx) + ", " +
                               std::to_string(waiting - other) + " threads wait at line " + std::to_string(line) +
                               " and " + std::to_string(other) + " at another barrier (line " +
                               std::to_string(other_line) + "); every live thread must reach the same one");
    }
  }
}

// Debug mode, a kernel without barriers: its threads one at a time, in a random order,
// each through the thread entry (no fibers: nothing waits).
void run_block_shuffled(const EmuFunction& f, ThreadCtx& c, void** args, Shuffler& shuffler, const DebugLaunch* debug) {
  thread_local std::vector<uint32_t> order;
  const Idx3 d = c.block_dim;
  const size_t n = size_t{d.x} * d.y * d.z;
  order.resize(n);
  for (size_t j = 0; j < n; ++j) order[j] = static_cast<uint32_t>(j);
  shuffler.shuffle(order);
  GuardSlot* const slot = guard_slot();
  for (const uint32_t k : order) {
    c.thread_idx = Idx3{k % d.x, k / d.x % d.y, k / (d.x * d.y)};
    try {
      call_kernel(f, slot, f.thread, args, &c, debug);
    } catch (...) {
      rethrow_from_thread(std::current_exception(), f, c, debug);
    }
  }
}

// Debug mode: one block, from junk shared memory, its threads in random orders.
void run_block_debug(const EmuFunction& f, ThreadCtx& c, void** args, size_t shared_mem, bool uc,
                     const DebugLaunch& debug) {
  // 0xFF: see fill_static_shared (reads of unwritten shared memory give NaN, -1, ...).
  if (shared_mem) memset(c.dynamic_shared, 0xFF, shared_mem);
  if (f.debug) fill_static_shared(*f.debug);
  const uint64_t linear = (uint64_t{c.block_idx.z} * c.grid_dim.y + c.block_idx.y) * c.grid_dim.x + c.block_idx.x;
  Shuffler shuffler{debug.seed ^ (linear * 0xD1B54A32D192ED03ull)};
  c.fault = loom_emu::Fault{};
  if (f.uses_barrier) run_block_fibers(f, c, args, uc, &shuffler, &debug);
  else run_block_shuffled(f, c, args, shuffler, &debug);
}

}  // namespace

void run(const EmuFunction& f, Dim3 grid, Dim3 block, size_t shared_mem, void** args, const DebugLaunch* debug) {
  const std::string label = "[RawKernel " + f.name + "]";
  const int64_t nblocks = static_cast<int64_t>(grid.count());
  if (nblocks == 0) return;
  InterruptScope interrupts;  // Ctrl-C ends the launch (Interrupted)
  install_fault_handlers();
  std::atomic<bool> failed{false};
  std::mutex error_mu;
  std::exception_ptr first_error;
  const bool uc = use_ucontext();  // read once per launch, not per block
  const int64_t workers = cpu_runtime::num_threads();
  // Small grains balance uneven blocks; a few blocks per chunk keep scheduling cheap.
  const int64_t grain = std::max<int64_t>(1, std::min<int64_t>(16, nblocks / (workers * 8)));
  cpu_runtime::parallel_for(nblocks, grain, [&](int64_t begin, int64_t end) {
    GuardedLaunch guarded(interrupts.epoch());
    GuardSlot* const slot = guard_slot();
    ThreadCtx c{};
    c.block_dim = Idx3{block.x, block.y, block.z};
    c.grid_dim = Idx3{grid.x, grid.y, grid.z};
    c.barrier = loop_barrier;
    c.dynamic_shared = shared_mem ? shared_arena(shared_mem) : nullptr;
    if (debug) c.arg_ranges = debug->ranges.data();
    for (int64_t b = begin; b < end && !failed.load(std::memory_order_relaxed); ++b) {
      const uint64_t ub = static_cast<uint64_t>(b);
      c.block_idx = Idx3{static_cast<unsigned>(ub % grid.x), static_cast<unsigned>(ub / grid.x % grid.y),
                         static_cast<unsigned>(ub / (uint64_t{grid.x} * grid.y))};
      try {
        if (debug) {
          run_block_debug(f, c, args, shared_mem, uc, *debug);
          continue;
        }
        if (f.uses_barrier) {
          run_block_fibers(f, c, args, uc, nullptr, nullptr);
          continue;
        }
        if (f.block_stack) {
          run_on_stack(f.block_stack, uc, [&] { call_kernel(f, slot, f.block, args, &c, nullptr); });
        } else {
          call_kernel(f, slot, f.block, args, &c, nullptr);
        }
      } catch (const std::exception& e) {
        const bool located = debug || f.uses_barrier;
        std::lock_guard<std::mutex> lock(error_mu);
        if (!first_error) {
          // Errors of one thread already say which; the block loop's context holds the
          // thread it was running.
          std::string msg = label + " " + e.what();
          if (dynamic_cast<const Interrupted*>(&e)) {
            first_error = std::make_exception_ptr(Interrupted(label + " interrupted (Ctrl-C)"));
          } else {
            if (!located) msg += ", in thread " + idx_str(c.thread_idx) + " of block " + idx_str(c.block_idx);
            if (dynamic_cast<const KernelFaultError*>(&e)) {
              if (!debug) msg += "; launch it with debug=True to see the source line";
              first_error = std::make_exception_ptr(KernelFaultError(msg));
            } else if (dynamic_cast<const std::out_of_range*>(&e)) {
              first_error = std::make_exception_ptr(std::out_of_range(msg));
            } else {
              first_error = std::make_exception_ptr(std::runtime_error(msg));
            }
          }
        }
        failed = true;
        return;
      }
    }
  });
  // A kernel's printf goes to C's stdout, fully buffered when it is a file or a pipe: flush
  // it now, as a GPU's printf output appears at the synchronisation after the kernel.
  fflush(stdout);
  if (first_error) std::rethrow_exception(first_error);
}

}  // namespace loom::cpu_emulator
