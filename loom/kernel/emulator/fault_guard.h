// Faults inside emulated kernel code become errors instead of killing the process (a GPU
// survives a NULL dereference or an integer division by zero; so must the emulator). A
// thread about to enter kernel code sets a jump point (run_guarded); the SIGSEGV, SIGBUS,
// SIGFPE and SIGILL handlers jump back to it when the faulting thread is inside kernel code,
// and otherwise chain to the handler that was there before (faulthandler, SIG_DFL...). The
// same jump ends kernel code that Ctrl-C interrupts (interrupt.h): loom's SIGINT handler
// sends kAbortSignal to every thread running kernel code of an interrupted launch.
#pragma once
#include <setjmp.h>

#include <cstdint>
#include <string>

#include "loom/kernel/emulator/emulator.h"

namespace loom::cpu_emulator {

/// What stopped kernel code: a fault's signal, si_code, address and program counter (and,
/// when asked for, the return addresses of the frames above it, for debug mode's line), or
/// an interrupt (`interrupted`).
struct KernelFault {
  int sig = 0, code = 0;
  void* addr = nullptr;
  void* pc = nullptr;
  void* sp = nullptr;
  bool divisor_known = false;  // SIGFPE on x86-64: the divisor read from the registers
  int64_t divisor = 0;
  static constexpr int kMaxFrames = 24;
  void* frames[kMaxFrames];  // backtrace() from the handler, innermost first
  int nframes = 0;
  bool interrupted = false;
};

/// Where a fault or an interrupt jumps to: set with sigsetjmp(jp.env, 0) in a frame that
/// stays live while kernel code runs below it (run_guarded's, or a fiber's base frame).
struct JumpPoint {
  sigjmp_buf env;
  KernelFault* fault = nullptr;  // filled by the handler
  bool backtrace = false;        // record the frames (debug mode)
};

/// The calling thread's place in the guard's table while it runs a launch (GuardedLaunch),
/// else null; read once per block and passed to the calls below.
struct GuardSlot;
GuardSlot* guard_slot();

/// Runs `fn(args, ctx)` (an entry of a generated library) so that a fault in it, or an
/// interrupt of the launch, returns here: false, with `fault` filled. True when `fn`
/// returned; its C++ exceptions propagate. `backtrace`: record the frames (debug mode).
/// Kernel code abandoned by a fault is not unwound (its frames are plain C++ of the kernel).
/// With a null `slot`, `fn` runs unguarded.
bool run_guarded(GuardSlot* slot, EntryFn fn, void** args, loom_emu::ThreadCtx* ctx, KernelFault* fault,
                 bool backtrace);

/// Installs loom's SIGSEGV, SIGBUS, SIGFPE and SIGILL handlers where they are not loom's
/// (pytest's faulthandler, for one, replaces them), chaining to those found; once per launch.
void install_fault_handlers();

/// One launch on one OS thread: makes sure the thread has an alternate signal stack (a
/// fiber's stack overflow runs the handler there), and registers the thread so that an
/// interrupt can reach it. `epoch` is interrupt_count() when the launch began.
class GuardedLaunch {
 public:
  explicit GuardedLaunch(uint64_t epoch);
  ~GuardedLaunch();
  GuardedLaunch(const GuardedLaunch&) = delete;
  GuardedLaunch& operator=(const GuardedLaunch&) = delete;

 private:
  void* saved_;  // the thread's slot when it was already running a launch
  void* slot_;   // the slot it took
  uint64_t prev_epoch_ = 0;
};

/// Fibers: a fiber arms its jump point (set once in its base frame) when it enters kernel
/// code on its own stack, and disarms it before it switches away (the block's scheduler is
/// loom code: a fault there is a bug and must not be caught). Entering jumps at once when
/// the launch was interrupted while the fiber was away.
void enter_kernel_code(GuardSlot* slot, JumpPoint* jp);
void leave_kernel_code(GuardSlot* slot);

/// After a jump (the fiber path; run_guarded does it itself): the signals the handlers
/// blocked unblocked, C's stdout and stderr unlocked if the fault hit inside printf.
void recover_after_jump(const KernelFault& f);

/// An interrupt of this thread's launch has come (the fiber scheduler checks each round).
bool launch_interrupted(GuardSlot* slot);

/// "integer division by zero (SIGFPE)", "NULL pointer dereference (address 0x8, SIGSEGV)".
std::string describe(const KernelFault& f);

/// Test hook: whether loom's handler for `sig` is installed now.
bool fault_handler_installed(int sig);

}  // namespace loom::cpu_emulator
