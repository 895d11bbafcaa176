#include "loom/kernel/emulator/fault_guard.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <climits>
#include <stdexcept>
#include <thread>

#include "loom/core/interrupt.h"

namespace ce = loom::cpu_emulator;

namespace {

volatile int g_zero = 0, g_minus_one = -1;
volatile long long g_ll_min = LLONG_MIN;
volatile int g_sink = 0;

// Deliberate undefined behaviour (the faults under test): UBSan must not stop it first.
__attribute__((no_sanitize("undefined"))) void divide_by_zero(void**, loom_emu::ThreadCtx*) { g_sink = 7 / g_zero; }
__attribute__((no_sanitize("undefined"))) void intmin_by_minus_one(void**, loom_emu::ThreadCtx*) {
  g_sink = static_cast<int>(g_ll_min / g_minus_one);
}
void null_read(void** a, loom_emu::ThreadCtx*) { g_sink = *static_cast<volatile int*>(a[0]); }
void returns(void**, loom_emu::ThreadCtx*) { g_sink = 1; }
void throws(void**, loom_emu::ThreadCtx*) { throw std::runtime_error("kernel error"); }
void spins(void** a, loom_emu::ThreadCtx*) {
  while (!*static_cast<volatile int*>(a[0])) {
  }
}

bool run(ce::EntryFn fn, ce::KernelFault* f, void* arg = nullptr) {
  ce::install_fault_handlers();
  ce::GuardedLaunch launch(loom::interrupt_count());
  void* args[1] = {arg};
  return ce::run_guarded(ce::guard_slot(), fn, args, nullptr, f, true);
}

}  // namespace

TEST(FaultGuard, DivisionByZeroReturnsWithTheFault) {
  ce::KernelFault f;
  EXPECT_FALSE(run(divide_by_zero, &f));
  EXPECT_EQ(f.sig, SIGFPE);
  EXPECT_EQ(ce::describe(f), "integer division or remainder by zero (SIGFPE)");
  EXPECT_GT(f.nframes, 0);
  ce::KernelFault again;  // SIGFPE is not left blocked: a second fault is caught too
  EXPECT_FALSE(run(divide_by_zero, &again));
  EXPECT_EQ(again.sig, SIGFPE);
}

TEST(FaultGuard, OverflowingDivisionIsToldApart) {
  ce::KernelFault f;
  EXPECT_FALSE(run(intmin_by_minus_one, &f));
  EXPECT_EQ(f.sig, SIGFPE);
  EXPECT_NE(ce::describe(f).find("most negative integer divided by -1"), std::string::npos) << ce::describe(f);
}

TEST(FaultGuard, NullPointer) {
  ce::KernelFault f;
  EXPECT_FALSE(run(null_read, &f, reinterpret_cast<void*>(8)));
  EXPECT_EQ(f.sig, SIGSEGV);
  EXPECT_EQ(ce::describe(f), "NULL pointer dereference (address 0x8, SIGSEGV)");
}

TEST(FaultGuard, ReturnsAndExceptionsPassThrough) {
  ce::KernelFault f;
  EXPECT_TRUE(run(returns, &f));
  EXPECT_THROW(run(throws, &f), std::runtime_error);
  EXPECT_FALSE(run(divide_by_zero, &f));  // the guard was left cleanly by the exception
}

namespace {
std::atomic<int> g_previous_calls{0};
void previous_handler(int, siginfo_t*, void*) { ++g_previous_calls; }
std::atomic<int> g_sigints{0};
void count_sigint(int) { ++g_sigints; }
}  // namespace

TEST(FaultGuard, OutsideKernelCodeChainsToThePreviousHandler) {
  struct sigaction mine {}, saved;
  mine.sa_sigaction = previous_handler;
  mine.sa_flags = SA_SIGINFO;
  sigemptyset(&mine.sa_mask);
  sigaction(SIGSEGV, &mine, &saved);  // as faulthandler.enable() does
  ce::install_fault_handlers();        // finds it, installs loom's, chains to it
  EXPECT_TRUE(ce::fault_handler_installed(SIGSEGV));
  raise(SIGSEGV);  // not in kernel code
  EXPECT_EQ(g_previous_calls.load(), 1);
  sigaction(SIGSEGV, &saved, nullptr);
}

TEST(FaultGuard, InterruptEndsKernelCodeOnAnotherThread) {
  struct sigaction handler {}, saved;
  handler.sa_handler = count_sigint;  // a program that handles Ctrl-C (as Python does)
  sigemptyset(&handler.sa_mask);
  sigaction(SIGINT, &handler, &saved);
  {
    loom::InterruptScope scope;
    ce::install_fault_handlers();
    int stop = 0;
    std::atomic<int> state{0};  // 1: interrupted, 2: returned
    std::thread t([&] {
      ce::GuardedLaunch launch(scope.epoch());
      ce::KernelFault f;
      void* args[1] = {&stop};
      state = ce::run_guarded(ce::guard_slot(), spins, args, nullptr, &f, false) ? 2 : f.interrupted ? 1 : 3;
    });
    usleep(100 * 1000);
    kill(getpid(), SIGINT);
    for (int i = 0; i < 500 && state == 0; ++i) usleep(10 * 1000);
    if (state == 0) stop = 1;  // let it end rather than hang the test
    t.join();
    EXPECT_EQ(state.load(), 1);
    EXPECT_TRUE(scope.interrupted());
    EXPECT_EQ(g_sigints.load(), 0);  // loom's while the scope lives
  }
  raise(SIGINT);  // outside any scope: the program's handler gets it
  EXPECT_EQ(g_sigints.load(), 1);
  sigaction(SIGINT, &saved, nullptr);
}

TEST(FaultGuard, AnInterruptBeforeANestedScopeEndsItsLaunch) {
  // A binding's scope spans the kernel's preparation; a Ctrl-C then must end the launch
  // that the emulator's own (inner) scope runs, at the kernel's first instruction.
  struct sigaction handler {}, saved;
  handler.sa_handler = count_sigint;
  sigemptyset(&handler.sa_mask);
  sigaction(SIGINT, &handler, &saved);
  g_sigints = 0;
  {
    loom::InterruptScope outer;
    ce::install_fault_handlers();
    raise(SIGINT);  // while "compiling"
    loom::InterruptScope inner;
    EXPECT_EQ(inner.epoch(), outer.epoch());
    EXPECT_TRUE(inner.interrupted());
    int stop = 0;
    std::atomic<int> state{0};
    std::thread t([&] {  // a launch's worker thread, as the emulator starts them
      ce::GuardedLaunch launch(inner.epoch());
      ce::KernelFault f;
      void* args[1] = {&stop};
      state = ce::run_guarded(ce::guard_slot(), spins, args, nullptr, &f, false) ? 2 : f.interrupted ? 1 : 3;
    });
    for (int i = 0; i < 500 && state == 0; ++i) usleep(10 * 1000);
    if (state == 0) stop = 1;
    t.join();
    EXPECT_EQ(state.load(), 1);
    EXPECT_EQ(g_sigints.load(), 0);
  }
  {
    loom::InterruptScope fresh;  // a new outermost scope starts counting afresh
    EXPECT_FALSE(fresh.interrupted());
  }
  sigaction(SIGINT, &saved, nullptr);
}
