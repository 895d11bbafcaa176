// How an error in an emulated thread reaches the user: kernel entries run under the fault
// guard, and an error is rethrown naming the thread and block it came from.
#include "loom/kernel/emulator/thread_errors.h"

#include <stdexcept>
#include <string>

#include "loom/core/error.h"
#include "loom/core/interrupt.h"

namespace loom::cpu_emulator {

using loom_emu::Idx3;
using loom_emu::ThreadCtx;

std::string idx_str(Idx3 v) {
  return "(" + std::to_string(v.x) + ", " + std::to_string(v.y) + ", " + std::to_string(v.z) + ")";
}

// Calls an entry of the kernel's library under the fault guard: a fault becomes
// KernelFaultError naming it (and in debug mode the source line), an interrupt Interrupted.
std::exception_ptr fault_error(const EmuFunction& f, const KernelFault& fault, const DebugLaunch* debug) {
  if (fault.interrupted) return std::make_exception_ptr(Interrupted("interrupted (Ctrl-C)"));
  std::string msg = describe(fault);
  if (debug && f.debug) {
    const int line = fault_source_line(*f.debug, fault.pc, fault.frames, fault.nframes);
    msg += line > 0 ? " at line " + std::to_string(line) + " of the kernel source" : " (at a line loom could not tell)";
  }
  return std::make_exception_ptr(KernelFaultError(msg));
}
void call_kernel(const EmuFunction& f, GuardSlot* slot, EntryFn fn, void** args, ThreadCtx* c,
                 const DebugLaunch* debug) {
  KernelFault fault;
  if (!run_guarded(slot, fn, args, c, &fault, debug != nullptr)) std::rethrow_exception(fault_error(f, fault, debug));
}

// An error thrown by one emulated thread, rethrown with where it happened: out-of-bounds
// accesses stay std::out_of_range (IndexError), with their message built from the fault the
// check recorded in the thread's context; faults stay KernelFaultError, interrupts
// Interrupted; every other error becomes std::runtime_error.
[[noreturn]] void rethrow_from_thread(std::exception_ptr e, const EmuFunction& f, const ThreadCtx& t,
                                      const DebugLaunch* debug) {
  const std::string where = ", in thread " + idx_str(t.thread_idx) + " of block " + idx_str(t.block_idx);
  try {
    std::rethrow_exception(e);
  } catch (const Interrupted&) {
    throw;
  } catch (const KernelFaultError& ex) {
    throw KernelFaultError(ex.what() + where);
  } catch (const std::out_of_range& ex) {
    if (debug && t.fault.pc) throw std::out_of_range(describe_fault(f, t, *debug) + where);
    throw std::out_of_range(ex.what() + where);
  } catch (const std::exception& ex) {
    throw std::runtime_error(ex.what() + where);
  }
}

}  // namespace loom::cpu_emulator
