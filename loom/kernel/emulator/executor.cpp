// Running an emulated kernel: blocks in parallel over loom's thread pool; inside a block,
// a kernel without barriers runs its threads as a plain loop (the generated block entry), as
// does one whose source gives a whole-block form (loop fission: the Python kernel translator's);
// any other with __syncthreads or warp collectives (shuffles, votes, __syncwarp, __activemask,
// the counting barriers) runs each thread as a fiber (fiber_threads.h) on the worker's OS
// thread, switching at every barrier and collective (collectives.h says when each is
// released). Fibers are persistent per worker and reused from block to block and launch to
// launch. Stacks come from a per-worker pool (guard-paged mmap'ed stacks, reused across
// blocks and launches) in power-of-two sizes; each kernel's size comes from its call graph
// (stack_usage.h).
//
// Debug mode (a DebugLaunch, emulator.h) changes only the order and the starting state:
// threads run in a random order between barriers (barrier-free kernels one thread at a
// time through the thread entry, in a random order), shared memory starts as junk, and a
// failed bounds check (std::out_of_range from the kernel) becomes IndexError with the
// kernel's line. The normal path does none of this: its only extra work is a null check.
// A divergent barrier that some threads skip by returning completes in normal mode (as on
// Volta and later GPUs) and is an error in debug mode (as compute-sanitizer's synccheck).
//
// A cooperative kernel (one that names cooperative groups' this_grid) runs each block on an
// OS thread of its own, all at once, as a GPU's cooperative launch keeps every block resident:
// a block whose live threads all wait at grid.sync() waits at the launch's GridBarrier for
// the other blocks. Its grid is at most max_cooperative_blocks() blocks.
//
// Kernel code runs under the fault guard (fault_guard.h): a fault in it (SIGSEGV, SIGFPE...)
// raises KernelFaultError, and Ctrl-C (interrupt.h) ends a launch with Interrupted.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "loom/kernel/emulator/block_stacks.h"
#include "loom/kernel/emulator/collectives.h"
#include "loom/kernel/emulator/emulator.h"
#include "loom/kernel/emulator/fault_guard.h"
#include "loom/kernel/emulator/fiber_threads.h"
#include "loom/kernel/emulator/thread_errors.h"
#include "loom/runtime/cpu/host_arena.h"
#include "loom/runtime/cpu/thread_pool.h"
#include "loom/core/error.h"
#include "loom/core/interrupt.h"

namespace loom::cpu_emulator {
namespace {

using loom_emu::Idx3;
using loom_emu::ThreadCtx;

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

// A barrier or warp collective in a kernel run as a loop: the kernel reached one although
// the source scan saw none (e.g. through a macro); say so rather than run it wrong.
[[noreturn]] void not_scanned(const char* what, int line) {
  throw std::runtime_error(std::string("reached ") + what + " at line " + std::to_string(line) +
                           " although the kernel was run without barriers (its source does not name "
                           "__syncthreads or a warp intrinsic where loom looks: in the kernel's body, in a "
                           "function it calls, or outside any function)");
}
void loop_barrier(ThreadCtx*, int line) { not_scanned("__syncthreads", line); }

// A kernel's whole-block form (EmuFunction::whole_block) is used unless LOOM_EMULATOR_FISSION
// is 0: the switch that runs such kernels on fibers, as every kernel with barriers ran
// before, to compare the two (python/tests/test_emulator_fission.py). Read per launch.
bool fission_enabled() {
  const char* v = getenv("LOOM_EMULATOR_FISSION");
  return !(v && strcmp(v, "0") == 0);
}
void loop_collective(ThreadCtx*, loom_emu::Collective* op, int line) {
  not_scanned(op->kind == loom_emu::Collective::kBlockCount ? "a counting __syncthreads" : "a warp collective", line);
}

// A launch's error from a block's: `msg` (the kernel named) in an exception of the block's kind
// (KernelFaultError, std::out_of_range, else std::runtime_error); Ctrl-C stays Interrupted.
std::exception_ptr launch_error(const std::exception& e, const std::string& label, const std::string& msg) {
  if (dynamic_cast<const Interrupted*>(&e)) return std::make_exception_ptr(Interrupted(label + " interrupted (Ctrl-C)"));
  if (dynamic_cast<const KernelFaultError*>(&e)) return std::make_exception_ptr(KernelFaultError(msg));
  if (dynamic_cast<const std::out_of_range*>(&e)) return std::make_exception_ptr(std::out_of_range(msg));
  return std::make_exception_ptr(std::runtime_error(msg));
}

// The grid barrier of a cooperative launch: each block arrives when all its live threads
// wait at grid.sync(), and waits until every block still running has arrived. A block that
// returns while others wait at (or later reach) a grid barrier would hang a GPU: here that,
// and a block that failed, end the launch with an error instead.
// What a block waiting at the grid barrier raises when another block failed: the launch
// reports the other block's error, not this one.
struct GridAbandoned : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class GridBarrier {
 public:
  explicit GridBarrier(size_t blocks) : expected_(blocks) {}
  void arrive_and_wait() {
    std::unique_lock<std::mutex> lock(mu_);
    if (failed_) abandoned_locked();
    if (exited_ > 0) fail_locked();
    const uint64_t generation = generation_;
    if (++arrived_ == expected_) {
      arrived_ = 0;
      ++generation_;
      cv_.notify_all();
      return;
    }
    cv_.wait(lock, [&] { return generation_ != generation || failed_; });
    if (generation_ == generation) abandoned_locked();
  }
  void exited() {  // a block returned: the barriers after this one cannot complete
    std::lock_guard<std::mutex> lock(mu_);
    ++exited_;
    if (arrived_ > 0) fail_locked();
  }
  void fail() {
    std::lock_guard<std::mutex> lock(mu_);
    failed_ = true;
    cv_.notify_all();
  }

 private:
  [[noreturn]] void abandoned_locked() {
    throw GridAbandoned("grid.sync(): another block of the cooperative launch failed");
  }
  [[noreturn]] void fail_locked() {
    message_ = "grid.sync(): " + std::to_string(exited_) + " block(s) of the cooperative launch returned while "
               "others wait at a grid barrier; every thread of the grid must reach each grid.sync() (a GPU would "
               "hang)";
    failed_ = true;
    cv_.notify_all();
    throw std::runtime_error(message_);
  }
  std::mutex mu_;
  std::condition_variable cv_;
  size_t expected_, arrived_ = 0, exited_ = 0;
  uint64_t generation_ = 0;
  bool failed_ = false;
  std::string message_;
};

// One block as fibers: round after round, every runnable thread runs to its next wait (a
// barrier or a warp collective) or to its end; then the warp collectives that can complete
// release their lanes (collectives.h), and when none can, the block barrier releases the
// whole block. With `shuffler` (debug mode), each round runs the threads in a fresh random
// order. Results never depend on that order: a collective's results are computed from the
// values its lanes posted, all before any of them runs on.
void run_block_fibers(const EmuFunction& f, const ThreadCtx& proto, void** args, bool uc, Shuffler* shuffler,
                      const DebugLaunch* debug, GridBarrier* grid = nullptr) {
  thread_local std::vector<uint32_t> order;
  thread_local std::vector<Wait> waits;
  const Idx3 d = proto.block_dim;
  const size_t n = size_t{d.x} * d.y * d.z;
  std::deque<FiberThread>& threads = worker_fibers(n);
  waits.assign(n, Wait{});
  Wait* const w = waits.data();  // once: a thread_local costs a call at each use
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
        t->ctx.barrier = fiber_barrier;
        t->ctx.collective = fiber_collective;
        t->wait = &w[i];
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
  if (shuffler) {
    order.resize(n);
    for (size_t j = 0; j < n; ++j) order[j] = static_cast<uint32_t>(j);
  }
  const BlockShape shape{proto.block_idx, d};
  BlockTally tally;   // kept as threads stop: a barrier costs no pass over the block
  bool open = false;  // the block barrier was released: the threads at kBlock run next
  for (;;) {
    if (shuffler) shuffler->shuffle(order);
    if (launch_interrupted(slot)) {  // Ctrl-C came while no kernel code ran here
      abandon();
      throw Interrupted("interrupted (Ctrl-C)");
    }
    for (size_t j = 0; j < n; ++j) {
      const size_t k = shuffler ? order[j] : j;
      if (w[k].kind != Wait::kRunnable && !(open && w[k].kind == Wait::kBlock)) continue;
      FiberThread& t = threads[k];
      resume(t);
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
      if (t.done) w[k].kind = Wait::kDone;
      tally.add(w[k]);
    }
    open = false;
    // Threads that returned are not live (as on Volta and later GPUs, an early `return`
    // before a barrier is fine); the live ones must all wait at the same barrier.
    try {
      if (tally.at_warp > 0) {
        const size_t released = release_warps(w, n, shape, debug != nullptr);
        tally.at_warp -= released;
        if (released > 0) continue;
      }
      if (tally.done == n) return;  // every thread returned: all fibers parked, ready for the next block
      if (tally.at_grid > 0) {  // grid.sync(): when every live thread waits there, the block waits for the grid
        if (tally.at_grid + tally.done != n)
          throw std::runtime_error("divergent grid.sync() at line " + std::to_string(tally.grid_line) + ": in block " +
                                   idx_str(shape.block_idx) + ", " + std::to_string(tally.at_grid) +
                                   " threads wait there and others at a block barrier");
        if (!grid)
          throw std::runtime_error("grid.sync() in a kernel the launch did not run cooperatively (its source must "
                                   "name cooperative_groups::this_grid)");
        grid->arrive_and_wait();
        for (size_t k = 0; k < n; ++k)
          if (w[k].kind == Wait::kGrid) w[k].kind = Wait::kRunnable;
        tally.at_grid = 0;
        continue;
      }
      release_block(w, n, shape, debug != nullptr, tally);
      open = true;
    } catch (...) {
      abandon();
      throw;
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
                     const DebugLaunch& debug, GridBarrier* grid = nullptr) {
  // 0xFF: see fill_static_shared (reads of unwritten shared memory give NaN, -1, ...).
  if (shared_mem) memset(c.dynamic_shared, 0xFF, shared_mem);
  if (f.debug) fill_static_shared(*f.debug);
  const uint64_t linear = (uint64_t{c.block_idx.z} * c.grid_dim.y + c.block_idx.y) * c.grid_dim.x + c.block_idx.x;
  Shuffler shuffler{debug.seed ^ (linear * 0xD1B54A32D192ED03ull)};
  c.fault = loom_emu::Fault{};
  if (f.uses_barrier) run_block_fibers(f, c, args, uc, &shuffler, &debug, grid);
  else run_block_shuffled(f, c, args, shuffler, &debug);
}

// A cooperative launch: every block on a thread of its own, all live at once (see the top).
void run_cooperative(const EmuFunction& f, Dim3 grid, Dim3 block, size_t shared_mem, void** args,
                     const DebugLaunch* debug, const InterruptScope& interrupts, const std::string& label) {
  const size_t nblocks = grid.count();
  const size_t most = max_cooperative_blocks(static_cast<size_t>(block.count()));
  if (nblocks > most)
    throw std::invalid_argument(label + " a cooperative launch (the kernel uses grid.sync()) of " +
                                std::to_string(nblocks) + " blocks of " + std::to_string(block.count()) +
                                " threads: the CPU kernel emulator runs at most " + std::to_string(most) +
                                " such blocks at once (max_cooperative_grid_blocks)");
  GridBarrier barrier(nblocks);
  std::mutex error_mu;
  std::exception_ptr first_error, abandoned;  // a block's own error; a block the grid abandoned
  const bool uc = use_ucontext();
  std::vector<std::thread> threads;
  threads.reserve(nblocks);
  for (size_t b = 0; b < nblocks; ++b) {
    threads.emplace_back([&, b] {
      try {
        GuardedLaunch guarded(interrupts.epoch());
        ThreadCtx c{};
        c.block_dim = Idx3{block.x, block.y, block.z};
        c.grid_dim = Idx3{grid.x, grid.y, grid.z};
        c.dynamic_shared = shared_mem ? shared_arena(shared_mem) : nullptr;
        if (debug) c.arg_ranges = debug->ranges.data();
        c.block_idx = Idx3{static_cast<unsigned>(b % grid.x), static_cast<unsigned>(b / grid.x % grid.y),
                           static_cast<unsigned>(b / (size_t{grid.x} * grid.y))};
        if (debug) run_block_debug(f, c, args, shared_mem, uc, *debug, &barrier);
        else run_block_fibers(f, c, args, uc, nullptr, nullptr, &barrier);
        barrier.exited();
      } catch (const GridAbandoned& e) {
        std::lock_guard<std::mutex> lock(error_mu);
        if (!abandoned) abandoned = std::make_exception_ptr(std::runtime_error(label + " " + e.what()));
      } catch (const std::exception& e) {
        barrier.fail();
        std::lock_guard<std::mutex> lock(error_mu);
        if (!first_error) first_error = launch_error(e, label, label + " " + e.what());
      }
    });
  }
  for (std::thread& t : threads) t.join();
  fflush(stdout);
  if (first_error) std::rethrow_exception(first_error);
  if (abandoned) std::rethrow_exception(abandoned);
}

}  // namespace

size_t max_cooperative_blocks(size_t threads_per_block) {
  // One OS thread per block and one fiber per thread: at most 256 blocks, 16384 threads.
  const size_t by_threads = kMaxCooperativeThreads / std::max<size_t>(1, threads_per_block);
  return std::max<size_t>(1, std::min<size_t>(kMaxCooperativeBlocks, by_threads));
}

void run(const EmuFunction& f, Dim3 grid, Dim3 block, size_t shared_mem, void** args, const DebugLaunch* debug) {
  const std::string label = "[RawKernel " + f.name + "]";
  const int64_t nblocks = static_cast<int64_t>(grid.count());
  if (nblocks == 0) return;
  InterruptScope interrupts;  // Ctrl-C ends the launch (Interrupted)
  install_fault_handlers();
  if (f.cooperative) {
    run_cooperative(f, grid, block, shared_mem, args, debug, interrupts, label);
    return;
  }
  std::atomic<bool> failed{false};
  std::mutex error_mu;
  std::exception_ptr first_error;
  const bool uc = use_ucontext();  // read once per launch, not per block
  const bool fibers = f.uses_barrier && !(f.whole_block && fission_enabled());
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
    c.collective = loop_collective;
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
        if (fibers) {
          run_block_fibers(f, c, args, uc, nullptr, nullptr);
          continue;
        }
        if (f.block_stack) {
          run_on_stack(f.block_stack, uc, [&] { call_kernel(f, slot, f.block, args, &c, nullptr); });
        } else {
          call_kernel(f, slot, f.block, args, &c, nullptr);
        }
      } catch (const std::exception& e) {
        const bool located = debug || fibers;
        std::lock_guard<std::mutex> lock(error_mu);
        if (!first_error) {
          // Errors of one thread already say which; the block loop's context holds the
          // thread it was running.
          std::string msg = label + " " + e.what();
          if (!located) msg += ", in thread " + idx_str(c.thread_idx) + " of block " + idx_str(c.block_idx);
          if (!debug && dynamic_cast<const KernelFaultError*>(&e)) msg += "; launch it with debug=True to see the source line";
          first_error = launch_error(e, label, msg);
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
