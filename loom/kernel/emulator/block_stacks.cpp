// The stacks and shared memory of emulated blocks, outside the C heap: fiber stacks above
// guard pages from a per-worker pool, the dynamic shared-memory arena ending at a guard
// page, and a block loop run on a stack of its own (executor.cpp uses them).
#include "loom/kernel/emulator/block_stacks.h"

#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <exception>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "loom/core/error.h"
#include "loom/runtime/cpu/host_arena.h"

namespace loom::cpu_emulator {

size_t page_size() {
  static const size_t p = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return p;
}

namespace {

// Stacks above a PROT_NONE guard page (an overflow faults instead of silently corrupting
// a neighbour), kept per worker thread and reused, by size (a power of two, at least a
// page). Stacks up to kKeptStackClass stay for the life of the worker; of larger ones only
// the size last asked for is kept (a kernel with big locals holds its memory until a
// kernel needing another large size runs on that worker).
constexpr size_t kKeptStackClass = 256 * 1024;
struct StackPool {
  std::map<size_t, std::vector<char*>> free_stacks;  // size -> lowest usable byte of each
  size_t large = 0;                                  // the large size kept now
  ~StackPool() {
    for (auto& [size, v] : free_stacks)
      for (char* b : v) unmap(b, size);
  }
  static void unmap(char* b, size_t size) { munmap(b - page_size(), size + page_size()); }
  char* take(size_t size) {
    if (size > kKeptStackClass && size != large) {
      for (auto it = free_stacks.upper_bound(kKeptStackClass); it != free_stacks.end(); it = free_stacks.erase(it))
        for (char* b : it->second) unmap(b, it->first);
      large = size;
    }
    std::vector<char*>& v = free_stacks[size];
    if (!v.empty()) {
      char* b = v.back();
      v.pop_back();
      return b;
    }
    void* p = mmap(nullptr, size + page_size(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (p == MAP_FAILED) throw OutOfMemoryError("[RawKernel] cannot map a " + std::to_string(size) + "-byte fiber stack");
    mprotect(p, page_size(), PROT_NONE);
    return static_cast<char*>(p) + page_size();
  }
  void give(char* b, size_t size) { free_stacks[size].push_back(b); }
};
StackPool& stack_pool() {
  thread_local StackPool pool;
  return pool;
}

}  // namespace

char* take_stack(size_t size) { return stack_pool().take(size); }
void give_stack(char* b, size_t size) { stack_pool().give(b, size); }
void init_thread_stacks() { (void)stack_pool(); }

// The block's dynamic shared memory: one arena per worker, grown as needed, outside the C
// heap with guard pages around it (host_arena.h); the block's bytes end where the guard
// begins, so an overrun faults (KernelFaultError) instead of corrupting malloc's heap.
char* shared_arena(size_t bytes) {
  struct Arena {
    char* p = nullptr;
    size_t n = 0;
    ~Arena() {
      if (p) cpu_runtime::host_arena::unmap_guarded(p, n);
    }
  };
  thread_local Arena a;
  if (bytes > a.n) {
    if (a.p) cpu_runtime::host_arena::unmap_guarded(std::exchange(a.p, nullptr), std::exchange(a.n, 0));
    static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    const size_t n = (bytes + page - 1) / page * page;
    a.p = static_cast<char*>(cpu_runtime::host_arena::map_guarded(n, page));
    if (!a.p) throw OutOfMemoryError("[RawKernel] cannot allocate " + std::to_string(bytes) + " bytes of shared memory");
    a.n = n;
  }
  return a.p + a.n - (bytes + 63) / 64 * 64;  // 64-byte aligned, ending at the guard
}

namespace {

thread_local void (*uc_body)(void*) = nullptr;
thread_local void* uc_body_arg = nullptr;
thread_local std::exception_ptr uc_body_error;
void uc_body_entry() {
  try {
    uc_body(uc_body_arg);
  } catch (...) {
    uc_body_error = std::current_exception();
  }
}

}  // namespace

void run_on_stack(size_t size, bool uc, const std::function<void()>& body) {
  std::exception_ptr error;
  if (uc) {
    char* stack = take_stack(size);
    ucontext_t back, uc;
    getcontext(&uc);
    uc.uc_stack.ss_sp = stack;
    uc.uc_stack.ss_size = size;
    uc.uc_link = &back;
    uc_body = [](void* b) { (*static_cast<const std::function<void()>*>(b))(); };
    uc_body_arg = const_cast<std::function<void()>*>(&body);
    uc_body_error = nullptr;
    makecontext(&uc, uc_body_entry, 0);
    swapcontext(&back, &uc);
    give_stack(stack, size);
    error = std::exchange(uc_body_error, nullptr);
  } else {
#ifdef LOOM_HAVE_FIBERS
    boost::context::fiber f(std::allocator_arg, PooledStack(size), [&](boost::context::fiber&& back) {
      try {
        body();
      } catch (...) {
        error = std::current_exception();
      }
      return std::move(back);
    });
    std::move(f).resume();  // runs to the end
#endif
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace loom::cpu_emulator
