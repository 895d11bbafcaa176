// Ctrl-C during a long wait in loom: a CPU kernel launch (the emulator) or a GPU
// synchronize. While an InterruptScope lives, SIGINT goes to loom's handler, which counts it
// and calls the registered hooks (the emulator stops the threads running kernel code);
// the waiting code then throws loom::Interrupted, which Python raises as KeyboardInterrupt.
// Outside any scope SIGINT reaches whatever handler was there (Python's).
#pragma once
#include <cstdint>
#include <string>

namespace loom {

/// While alive, SIGINT interrupts loom instead of reaching the previous handler. Scopes
/// nest and may live on several threads at once; a scope inside another on the same thread
/// counts SIGINTs from the outermost one's start (a binding's scope around a launch's
/// preparation hands a Ctrl-C that came then to the launch). loom's handler, installed by the first
/// scope, passes SIGINT on to the handler it replaced while no scope lives. Where SIGINT's
/// handler is SIG_DFL or SIG_IGN (a C++ program that did not ask for Ctrl-C handling),
/// nothing changes.
class InterruptScope {
 public:
  InterruptScope();
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;

  /// A SIGINT arrived since this scope began.
  bool interrupted() const;
  uint64_t epoch() const { return epoch_; }

 private:
  uint64_t epoch_;
  bool active_;
};

/// The number of SIGINTs loom's handler has seen.
uint64_t interrupt_count();

/// Registers a function the SIGINT handler calls (it must be async-signal-safe); at most 4.
void add_interrupt_hook(void (*hook)());

/// A failure posted by a watchdog thread (loom.distributed's, when a NCCL communicator is
/// aborted after a rank hung): every interruptible wait that is in progress or starts later
/// throws it as DistributedError, until cleared, so that a host blocked on a GPU that will
/// never finish the work raises instead of hanging or reading wrong results.
void post_wait_failure(const std::string& message);
void clear_wait_failure();
/// Throws DistributedError with the posted message, if any (one atomic load otherwise).
void throw_if_wait_failed();

/// Throws Interrupted("[op] interrupted (Ctrl-C)" + detail).
[[noreturn]] void throw_interrupted(const char* op, const std::string& detail = {});

}  // namespace loom
