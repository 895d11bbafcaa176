// The fault guard (fault_guard.h). Signal handlers only read this thread's guard and jump;
// the message is built afterwards, outside the handler.
#undef _FORTIFY_SOURCE  // its longjmp check refuses jumps from a fiber's stack to another
#include "loom/kernel/emulator/fault_guard.h"

#include <errno.h>
#include <execinfo.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <ucontext.h>

#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <cstring>
#include <mutex>

#include "loom/core/interrupt.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#endif

namespace loom::cpu_emulator {
namespace {

using Guard = JumpPoint;

// Each thread running a launch holds a slot: the handlers find theirs by pthread_self(),
// not through thread-locals (a dlopen'ed library's thread-local storage may be allocated
// lazily, with malloc, which a signal handler must not call; initial-exec storage does not
// fit loom's thread-locals).
}  // namespace
// Written by its thread and read by that thread's handlers: relaxed accesses and signal
// fences order them (no locked instructions on the way into kernel code).
struct GuardSlot {
  std::atomic<uintptr_t> thread{0};    // its pthread_t; 0: free
  std::atomic<Guard*> guard{nullptr};  // set while the thread runs kernel code
  uint64_t epoch = ~uint64_t{0};       // interrupt_count() when the running launch began
};
namespace {
using Slot = GuardSlot;
constexpr uint64_t kNoLaunchEpoch = ~uint64_t{0};
constexpr int kSlots = 1024;
Slot g_slots[kSlots];
thread_local Slot* t_slot = nullptr;   // this thread's, outside the handlers
std::atomic<uintptr_t> g_chaining{0};  // the thread inside a previous handler loom chained to

Guard* guard_of(Slot* s) { return s->guard.load(std::memory_order_relaxed); }
void set_guard(Slot* s, Guard* g) {
  std::atomic_signal_fence(std::memory_order_seq_cst);
  s->guard.store(g, std::memory_order_relaxed);
  std::atomic_signal_fence(std::memory_order_seq_cst);
}

Slot* find_slot() {
  const auto self = static_cast<uintptr_t>(pthread_self());
  for (Slot& s : g_slots)
    if (s.thread.load(std::memory_order_relaxed) == self) return &s;
  return nullptr;
}

constexpr int kFaultSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
std::mutex g_install_mu;
struct sigaction g_prev[NSIG];  // each signal's handler before loom's
int g_abort_signal = 0;         // a real-time signal: ends kernel code on an interrupt

bool interrupted_now(const Slot* s) { return s->epoch != kNoLaunchEpoch && interrupt_count() != s->epoch; }

// Not ours to handle: what the previous handler would have done. SIG_DFL (or SIG_IGN, which
// the kernel does not honour for a fault) is reset; returning repeats the faulting
// instruction, which then kills as before. A signal sent with kill() is raised again.
void chain(int sig, siginfo_t* info, void* uctx) {
  const struct sigaction prev = g_prev[sig];
  const bool sent = info->si_code <= 0;
  const auto self = static_cast<uintptr_t>(pthread_self());
  uintptr_t none = 0;
  if (g_chaining.load() == self) {  // a previous handler raised it again into loom's: a cycle
    signal(sig, SIG_DFL);
    if (sent) raise(sig);
    return;
  }
  const bool marked = g_chaining.compare_exchange_strong(none, self);
  if (prev.sa_flags & SA_SIGINFO) {
    if (prev.sa_sigaction) prev.sa_sigaction(sig, info, uctx);
  } else if (prev.sa_handler == SIG_IGN && sent) {
  } else if (prev.sa_handler == SIG_DFL || prev.sa_handler == SIG_IGN) {
    signal(sig, SIG_DFL);
    if (sent) raise(sig);
  } else {
    prev.sa_handler(sig);
  }
  if (marked) g_chaining.store(0);
}

#if defined(__x86_64__)
// SIGFPE from DIV or IDIV: x86 raises the same #DE for a zero divisor and for an overflowing
// quotient (INT_MIN / -1); the divisor (a register, or memory the instruction just read)
// tells them apart.
void decode_divisor(const ucontext_t* uc, KernelFault* f) {
  static const int kReg[16] = {REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP, REG_RSI, REG_RDI,
                               REG_R8,  REG_R9,  REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15};
  const auto* p = static_cast<const uint8_t*>(f->pc);
  bool op16 = false;
  int rex = 0;
  for (int i = 0; i < 4; ++i, ++p) {
    if (*p == 0x66) op16 = true;
    else if ((*p & 0xF0) == 0x40) rex = *p;
    else break;
  }
  if (p[0] != 0xF7 && p[0] != 0xF6) return;
  const int modrm = p[1], kind = (modrm >> 3) & 7;
  if (kind != 6 && kind != 7) return;  // not DIV/IDIV
  const int mod = modrm >> 6, rm = (modrm & 7) | ((rex & 1) << 3);
  const int bits = p[0] == 0xF6 ? 8 : (rex & 8) ? 64 : op16 ? 16 : 32;
  auto reg = [&](int r) { return static_cast<uint64_t>(uc->uc_mcontext.gregs[kReg[r]]); };
  uint64_t raw = 0;
  if (mod == 3) {
    if (p[0] == 0xF6 && !rex && rm >= 4) return;  // AH..BH
    raw = reg(rm);
  } else {
    const uint8_t* q = p + 2;  // past the ModRM byte
    uint64_t addr = 0;
    if ((rm & 7) == 4) {  // a SIB byte
      const int sib = *q++, index = ((sib >> 3) & 7) | ((rex & 2) << 2), base = (sib & 7) | ((rex & 1) << 3);
      if (index != 4) addr += reg(index) << (sib >> 6);
      if ((base & 7) == 5 && mod == 0) {
        int32_t d;
        memcpy(&d, q, 4);
        q += 4;
        addr += static_cast<uint64_t>(static_cast<int64_t>(d));
      } else {
        addr += reg(base);
      }
    } else if ((rm & 7) == 5 && mod == 0) {  // RIP-relative: from the next instruction
      int32_t d;
      memcpy(&d, q, 4);
      addr = reinterpret_cast<uint64_t>(q + 4) + static_cast<uint64_t>(static_cast<int64_t>(d));
    } else {
      addr = reg(rm);
    }
    if (mod == 1) addr += static_cast<uint64_t>(static_cast<int64_t>(static_cast<int8_t>(*q)));
    if (mod == 2) {
      int32_t d;
      memcpy(&d, q, 4);
      addr += static_cast<uint64_t>(static_cast<int64_t>(d));
    }
    memcpy(&raw, reinterpret_cast<const void*>(addr), bits / 8);  // x86 is little-endian
  }
  const int shift = 64 - bits;
  f->divisor = kind == 7 ? static_cast<int64_t>(raw << shift) >> shift : static_cast<int64_t>((raw << shift) >> shift);
  f->divisor_known = true;
}
#endif

void on_fault(int sig, siginfo_t* info, void* uctx) {
  Slot* s = find_slot();
  Guard* g = s ? guard_of(s) : nullptr;
  if (!g) return chain(sig, info, uctx);
  set_guard(s, nullptr);
  KernelFault* f = g->fault;
  f->sig = sig;
  f->code = info->si_code;
  f->addr = info->si_addr;
#if defined(__x86_64__)
  const auto* uc = static_cast<const ucontext_t*>(uctx);
  f->pc = reinterpret_cast<void*>(uc->uc_mcontext.gregs[REG_RIP]);
  f->sp = reinterpret_cast<void*>(uc->uc_mcontext.gregs[REG_RSP]);
  if (sig == SIGFPE) decode_divisor(uc, f);
#endif
  if (g->backtrace) f->nframes = backtrace(f->frames, KernelFault::kMaxFrames);
  siglongjmp(g->env, 1);
}

void on_abort(int, siginfo_t*, [[maybe_unused]] void* uctx) {
  Slot* s = find_slot();
  Guard* g = s ? guard_of(s) : nullptr;
  if (!g || !interrupted_now(s)) return;  // not in kernel code: its next entry sees the interrupt
  set_guard(s, nullptr);
  g->fault->interrupted = true;
#if defined(__x86_64__)
  g->fault->sp = reinterpret_cast<void*>(static_cast<const ucontext_t*>(uctx)->uc_mcontext.gregs[REG_RSP]);
#endif
  siglongjmp(g->env, 1);
}

// The SIGINT hook: every registered thread (running a launch) gets the abort signal, this
// one last (its handler may jump out of this one).
void on_interrupt() {
  const uintptr_t self = static_cast<uintptr_t>(pthread_self());
  bool me = false;
  for (Slot& s : g_slots) {
    const uintptr_t t = s.thread.load();
    if (t == self) me = true;
    else if (t) pthread_kill(static_cast<pthread_t>(t), g_abort_signal);
  }
  if (me) pthread_kill(pthread_self(), g_abort_signal);
}

void install(int sig, void (*handler)(int, siginfo_t*, void*)) {
  struct sigaction cur;
  if (sigaction(sig, nullptr, &cur) != 0) return;
  if ((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == handler) return;
  struct sigaction ours {};
  ours.sa_sigaction = handler;
  sigemptyset(&ours.sa_mask);
  ours.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
  g_prev[sig] = cur;
  sigaction(sig, &ours, nullptr);
}

// The alternate signal stack of this thread (a stack overflow leaves no room for the
// handler on the overflowing stack), unless it has a big enough one (faulthandler's).
struct AltStack {
  void* mem = nullptr;
  static constexpr size_t kSize = 64 * 1024;
  ~AltStack() {
    if (!mem) return;
    stack_t cur;
    if (sigaltstack(nullptr, &cur) == 0 && cur.ss_sp == mem) {
      stack_t off{};
      off.ss_flags = SS_DISABLE;
      sigaltstack(&off, nullptr);
    }
    munmap(mem, kSize);
  }
};
void ensure_altstack() {
  thread_local AltStack alt;
  thread_local bool checked = false;
  if (checked) return;
  checked = true;
  stack_t cur;
  if (sigaltstack(nullptr, &cur) == 0 && !(cur.ss_flags & SS_DISABLE) && cur.ss_size >= 32 * 1024) return;
  void* p = mmap(nullptr, AltStack::kSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return;
  stack_t s{};
  s.ss_sp = p;
  s.ss_size = AltStack::kSize;
  if (sigaltstack(&s, nullptr) != 0) {
    munmap(p, AltStack::kSize);
    return;
  }
  alt.mem = p;
}

// After a jump out of kernel code: the signals the handlers block unblocked again (the
// fault's; on an interrupt the abort signal, and SIGINT when the jump left loom's SIGINT
// handler on this thread: it was unblocked, or that handler would not have run here), and
// C's stdout and stderr unlocked if the fault hit inside printf (glibc's recursive FILE
// lock would stay held by this thread, and the next printf of another would wait forever).
//
// Under ASan (make asan-test): the frames the jump abandoned never ran their epilogues, which
// clear a frame's redzones in ASan's shadow, and its siglongjmp interceptor clears only a
// stack ASan knows (not a fiber's, nor the one it jumps to from the alternate signal stack).
// The code after the jump, this function first, would put its variables over those stale
// redzones: false stack-buffer-underflow reports. So the stretch from the deepest point the
// jump left (KernelFault::sp) up to this frame is cleared first.
__attribute__((noinline)) void recover(const KernelFault& f) {
#if defined(__SANITIZE_ADDRESS__)
  char here = 0;
  char* const deepest = std::min(f.sp ? static_cast<char*>(f.sp) : &here, &here) - 4096;
  char* const top = static_cast<char*>(__builtin_frame_address(0));
  if (top > deepest && top - deepest < (64 << 20))
    __asan_unpoison_memory_region(deepest, static_cast<size_t>(top - deepest));
#endif
  sigset_t set;
  sigemptyset(&set);
  if (f.interrupted) {
    sigaddset(&set, g_abort_signal);
    sigaddset(&set, SIGINT);
  } else {
    sigaddset(&set, f.sig);
  }
  pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
#if defined(__GLIBC__)
  struct IoLock {  // glibc's _IO_lock_t
    int lock, cnt;
    void* owner;
  };
  const auto self = reinterpret_cast<void*>(pthread_self());
  for (FILE* f : {stdout, stderr}) {
    auto* l = static_cast<IoLock*>(f->_lock);
    while (l && l->owner == self && l->cnt > 0) funlockfile(f);
  }
#endif
}

std::string hex(const void* p) {
  char b[32];
  snprintf(b, sizeof(b), "0x%" PRIxPTR, reinterpret_cast<uintptr_t>(p));
  return b;
}

}  // namespace

GuardSlot* guard_slot() { return t_slot; }

bool run_guarded(GuardSlot* s, EntryFn fn, void** args, loom_emu::ThreadCtx* ctx, KernelFault* fault,
                 bool backtrace) {
  if (!s) {  // no slot (over kSlots threads in launches): unguarded, as before
    fn(args, ctx);
    return true;
  }
  Guard g;
  g.fault = fault;
  g.backtrace = backtrace;
  Guard* const prev = guard_of(s);
  if (sigsetjmp(g.env, 0) != 0) {  // no mask saved: a system call per entry would cost too much
    set_guard(s, prev);
    recover(*fault);
    return false;
  }
  set_guard(s, &g);
  if (interrupted_now(s)) {  // an interrupt that came while this thread ran loom's code
    set_guard(s, prev);
    fault->interrupted = true;
    return false;
  }
  try {
    fn(args, ctx);
  } catch (...) {
    set_guard(s, prev);
    throw;
  }
  set_guard(s, prev);
  return true;
}

void enter_kernel_code(GuardSlot* s, JumpPoint* jp) {
  if (!s) return;
  set_guard(s, jp);
  if (interrupted_now(s)) {
    set_guard(s, nullptr);
    jp->fault->interrupted = true;
    jp->fault->sp = __builtin_frame_address(0);  // the deepest frame the jump leaves (recover)
    siglongjmp(jp->env, 1);
  }
}

void leave_kernel_code(GuardSlot* s) {
  if (s) set_guard(s, nullptr);
}

void recover_after_jump(const KernelFault& f) { recover(f); }

bool launch_interrupted(GuardSlot* s) { return s && interrupted_now(s); }

void install_fault_handlers() {
  // One read per launch: whoever replaces loom's handlers (faulthandler.enable()) replaces
  // SIGSEGV's with the others.
  struct sigaction cur;
  if (sigaction(SIGSEGV, nullptr, &cur) == 0 && (cur.sa_flags & SA_SIGINFO) &&
      cur.sa_sigaction == on_fault)
    return;
  std::lock_guard<std::mutex> lock(g_install_mu);
  static const bool once = [] {
    void* warm[1];
    backtrace(warm, 1);  // loads libgcc_s now: the first backtrace() allocates
    g_abort_signal = SIGRTMAX - 3;
    add_interrupt_hook(on_interrupt);
    return true;
  }();
  (void)once;
  for (int sig : kFaultSignals) install(sig, on_fault);
  install(g_abort_signal, on_abort);
}

bool fault_handler_installed(int sig) {
  struct sigaction cur;
  return sigaction(sig, nullptr, &cur) == 0 && (cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == on_fault;
}

GuardedLaunch::GuardedLaunch(uint64_t epoch) : saved_(t_slot), slot_(nullptr) {
  ensure_altstack();
  const auto self = static_cast<uintptr_t>(pthread_self());
  if (saved_) {  // a launch inside a launch on this thread: it keeps the slot
    prev_epoch_ = static_cast<Slot*>(saved_)->epoch;
    static_cast<Slot*>(saved_)->epoch = epoch;
    return;
  }
  for (Slot& s : g_slots) {
    uintptr_t empty = 0;
    if (s.thread.load(std::memory_order_relaxed) == 0 && s.thread.compare_exchange_strong(empty, self)) {
      s.epoch = epoch;  // read only by this thread's own handlers
      set_guard(&s, nullptr);
      slot_ = &s;
      t_slot = &s;
      return;
    }
  }
}

GuardedLaunch::~GuardedLaunch() {
  if (saved_) {
    static_cast<Slot*>(saved_)->epoch = prev_epoch_;
    return;
  }
  if (!slot_) return;
  t_slot = nullptr;
  static_cast<Slot*>(slot_)->thread.store(0);
}

std::string describe(const KernelFault& f) {
  const std::string at = hex(f.addr);
  // SI_KERNEL: a general-protection (SIGSEGV) or stack-segment (SIGBUS) fault, which tell no
  // address: a non-canonical one, such as an index far past an array in the top of memory.
  if ((f.sig == SIGSEGV || f.sig == SIGBUS) && f.code == SI_KERNEL)
    return std::string("invalid memory access outside the address space (") +
           (f.sig == SIGSEGV ? "SIGSEGV" : "SIGBUS") + ": a wild pointer or an index far outside an array)";
  switch (f.sig) {
    case SIGFPE:
      if (f.code != FPE_INTDIV && f.code != FPE_INTOVF) return "floating-point exception (SIGFPE)";
      if (f.divisor_known && f.divisor != 0)
        return "integer overflow: the most negative integer divided by " + std::to_string(f.divisor) + " (SIGFPE)";
      if (f.divisor_known || f.code == FPE_INTDIV) return "integer division or remainder by zero (SIGFPE)";
      return "integer overflow in a division (SIGFPE)";
    case SIGSEGV: {
      const auto a = reinterpret_cast<uintptr_t>(f.addr), sp = reinterpret_cast<uintptr_t>(f.sp);
      if (sp && a + 65536 >= sp && a < sp + 262144)
        return "stack overflow at address " + at + " (SIGSEGV: the thread's local variables or recursion need "
               "more stack than the emulator gives)";
      if (a < 65536) return "NULL pointer dereference (address " + at + ", SIGSEGV)";
      if (f.code == SEGV_ACCERR) return "access to protected memory at address " + at + " (SIGSEGV)";
      return "invalid memory access at address " + at +
             " (SIGSEGV: nothing is mapped there; a wild pointer or an index far outside an array)";
    }
    case SIGBUS:
      return "bus error at address " + at + " (SIGBUS: a misaligned access or memory past the end of a mapped file)";
    case SIGILL:
      return "illegal instruction (SIGILL: the host compiler traps undefined behaviour it can prove, such as "
             "falling off the end of a function that returns a value)";
  }
  return "signal " + std::to_string(f.sig);
}

}  // namespace loom::cpu_emulator
