#include "loom/core/interrupt.h"

#include <signal.h>

#include <atomic>
#include <mutex>

#include "loom/core/error.h"

namespace loom {
namespace {

std::atomic<uint64_t> g_count{0};
constexpr int kMaxHooks = 4;
std::atomic<void (*)()> g_hooks[kMaxHooks];

// loom's handler, once installed, stays: outside any scope it passes SIGINT on to the
// handler it replaced (Python's), so a launch costs one sigaction() read, not four calls.
std::mutex g_mu;               // guards installing
std::atomic<int> g_scopes{0};  // live scopes
struct sigaction g_saved;      // SIGINT's handler before loom's

// Scopes on one thread nest: an inner one counts from the outermost one's start, so a
// Ctrl-C that came while the outer scope prepared the work (a kernel's compile and load
// before the emulator's own scope) still ends the work the inner one waits for.
thread_local int t_depth = 0;
thread_local uint64_t t_outer_epoch = 0;

void on_sigint(int sig, siginfo_t* info, void* uctx) {
  if (g_scopes.load() == 0) {
    if (g_saved.sa_flags & SA_SIGINFO) g_saved.sa_sigaction(sig, info, uctx);
    else g_saved.sa_handler(sig);
    return;
  }
  const int saved_errno = errno;
  g_count.fetch_add(1);
  for (auto& h : g_hooks)
    if (auto* f = h.load()) f();
  errno = saved_errno;
}

bool is_ours(const struct sigaction& a) { return (a.sa_flags & SA_SIGINFO) && a.sa_sigaction == on_sigint; }

// A handler function (not SIG_DFL or SIG_IGN: a program that did not ask to handle Ctrl-C
// keeps the default, being ended).
bool is_function(const struct sigaction& a) {
  return (a.sa_flags & SA_SIGINFO) ? a.sa_sigaction != nullptr : a.sa_handler != SIG_DFL && a.sa_handler != SIG_IGN;
}

}  // namespace

InterruptScope::InterruptScope() : epoch_(t_depth++ ? t_outer_epoch : (t_outer_epoch = g_count.load())), active_(false) {
  struct sigaction cur;
  if (sigaction(SIGINT, nullptr, &cur) != 0 || !is_function(cur)) return;
  if (!is_ours(cur)) {
    std::lock_guard<std::mutex> lock(g_mu);
    struct sigaction ours {};
    ours.sa_sigaction = on_sigint;
    sigemptyset(&ours.sa_mask);
    ours.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
    if (sigaction(SIGINT, nullptr, &cur) != 0 || !is_function(cur)) return;
    if (!is_ours(cur)) {
      g_saved = cur;  // read by the handler only once it is installed
      if (sigaction(SIGINT, &ours, nullptr) != 0) return;
    }
  }
  g_scopes.fetch_add(1);
  active_ = true;
}

InterruptScope::~InterruptScope() {
  --t_depth;
  if (active_) g_scopes.fetch_sub(1);
}

bool InterruptScope::interrupted() const { return g_count.load() != epoch_; }

uint64_t interrupt_count() { return g_count.load(); }

void add_interrupt_hook(void (*hook)()) {
  for (auto& h : g_hooks) {
    void (*expected)() = nullptr;
    if (h.load() == hook || h.compare_exchange_strong(expected, hook)) return;
  }
}

namespace {
std::atomic<bool> g_wait_failed{false};
std::mutex g_wait_failure_mu;
std::string g_wait_failure;
}  // namespace

void post_wait_failure(const std::string& message) {
  std::lock_guard<std::mutex> lock(g_wait_failure_mu);
  if (!g_wait_failed.load()) g_wait_failure = message;
  g_wait_failed.store(true);
}

void clear_wait_failure() {
  std::lock_guard<std::mutex> lock(g_wait_failure_mu);
  g_wait_failed.store(false);
  g_wait_failure.clear();
}

void throw_if_wait_failed() {
  if (!g_wait_failed.load(std::memory_order_relaxed)) return;
  std::lock_guard<std::mutex> lock(g_wait_failure_mu);
  if (g_wait_failed.load()) throw DistributedError(g_wait_failure);
}

void throw_interrupted(const char* op, const std::string& detail) {
  throw Interrupted(std::string("[") + op + "] interrupted (Ctrl-C)" + detail);
}

}  // namespace loom
