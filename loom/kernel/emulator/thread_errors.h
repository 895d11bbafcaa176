// How an error in an emulated thread reaches the user (thread_errors.cpp).
#pragma once
#include <exception>
#include <string>

#include "loom/kernel/emulator/emulator.h"
#include "loom/kernel/emulator/fault_guard.h"

namespace loom::cpu_emulator {

/// "(x, y, z)".
std::string idx_str(loom_emu::Idx3 v);
/// The error a fault in kernel code becomes: KernelFaultError naming it (in debug mode with
/// the source line), or Interrupted.
std::exception_ptr fault_error(const EmuFunction& f, const KernelFault& fault, const DebugLaunch* debug);
/// Calls an entry of the kernel's library under the fault guard: a fault becomes
/// KernelFaultError naming it (and in debug mode the source line), an interrupt Interrupted.
void call_kernel(const EmuFunction& f, GuardSlot* slot, EntryFn fn, void** args, loom_emu::ThreadCtx* c,
                 const DebugLaunch* debug);
/// Rethrows an error of one emulated thread with where it happened: out-of-bounds accesses
/// stay std::out_of_range (IndexError), faults KernelFaultError, interrupts Interrupted;
/// every other error becomes std::runtime_error.
[[noreturn]] void rethrow_from_thread(std::exception_ptr e, const EmuFunction& f, const loom_emu::ThreadCtx& t,
                                      const DebugLaunch* debug);

}  // namespace loom::cpu_emulator
