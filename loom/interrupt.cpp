#include "loom/interrupt.h"

#include <signal.h>

#include <atomic>
#include <mutex>

#include "loom/error.h"

namespace loom {
namespace {

std::atomic<uint64_t> g_count{0};
constexpr int kMaxHooks = 4;
std::atomic<void (*)()> g_hooks[kMaxHooks];

std::mutex g_mu;           // guards the two below
int g_scopes = 0;          // live scopes that installed the handler
struct sigaction g_saved;  // SIGINT's handler before the first of them

void on_sigint(int) {
  const int saved_errno = errno;
  g_count.fetch_add(1);
  for (auto& h : g_hooks)
    if (auto* f = h.load()) f();
  errno = saved_errno;
}

bool is_ours(const struct sigaction& a) { return !(a.sa_flags & SA_SIGINFO) && a.sa_handler == on_sigint; }

}  // namespace

InterruptScope::InterruptScope() : epoch_(g_count.load()), active_(false) {
  std::lock_guard<std::mutex> lock(g_mu);
  if (g_scopes > 0) {
    ++g_scopes;
    active_ = true;
    return;
  }
  struct sigaction cur;
  if (sigaction(SIGINT, nullptr, &cur) != 0) return;
  // SIG_DFL or SIG_IGN: the program did not ask to handle Ctrl-C; leave it as it is.
  const bool function = (cur.sa_flags & SA_SIGINFO) ? cur.sa_sigaction != nullptr
                                                     : cur.sa_handler != SIG_DFL && cur.sa_handler != SIG_IGN;
  if (!function || is_ours(cur)) return;
  struct sigaction ours {};
  ours.sa_handler = on_sigint;
  sigemptyset(&ours.sa_mask);
  ours.sa_flags = SA_RESTART | SA_ONSTACK;
  if (sigaction(SIGINT, &ours, &g_saved) != 0) return;
  g_scopes = 1;
  active_ = true;
}

InterruptScope::~InterruptScope() {
  if (!active_) return;
  std::lock_guard<std::mutex> lock(g_mu);
  if (--g_scopes > 0) return;
  struct sigaction cur;
  // Put the previous handler back unless someone replaced loom's meanwhile.
  if (sigaction(SIGINT, nullptr, &cur) == 0 && is_ours(cur)) sigaction(SIGINT, &g_saved, nullptr);
}

bool InterruptScope::interrupted() const { return g_count.load() != epoch_; }

uint64_t interrupt_count() { return g_count.load(); }

void add_interrupt_hook(void (*hook)()) {
  for (auto& h : g_hooks) {
    void (*expected)() = nullptr;
    if (h.load() == hook || h.compare_exchange_strong(expected, hook)) return;
  }
}

void throw_interrupted(const char* op, const std::string& detail) {
  throw Interrupted(std::string("[") + op + "] interrupted (Ctrl-C)" + detail);
}

}  // namespace loom
