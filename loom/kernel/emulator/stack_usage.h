// How much stack an emulated GPU thread needs: GCC's call graph with frame sizes
// (-fcallgraph-info=su) gives the deepest chain of frames below each entry point; the
// executor sizes fiber stacks from it (a kernel with `float buf[40000]` needs more than a
// fixed stack) and refuses a kernel that would need an unreasonable one.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace loom::cpu_emulator {

/// The deepest chain of stack frames below one function.
struct StackNeed {
  uint64_t bytes = 0;    // sum of the frames on the deepest chain
  bool known = false;    // false: no call graph (not GCC, or an old one)
  bool bounded = true;   // false: recursion or a variable-sized frame (VLA, alloca) on the way
};

/// The need of `entry` (a symbol name) in a GCC .ci file's text. An indirect call counts
/// as the deepest function of the module (whichever it calls, it is one of them), except
/// loom_cuda_emu.h's call of the executor's barrier (it needs little). Calls to functions outside the
/// module (libc, libm) count 0: fiber_stack_bytes adds headroom for them.
StackNeed stack_need(const std::string& callgraph, const std::string& entry);

constexpr size_t kMinFiberStack = 64 * 1024;
constexpr size_t kMaxFiberStack = size_t{64} << 20;  // more is refused, naming the kernel
/// Room above the deepest chain for what it calls outside the module: printf, libm, the
/// C++ unwinder when the kernel throws (assert, __trap), the executor's barrier.
constexpr size_t kStackHeadroom = 64 * 1024;
/// Added when the chain is unbounded (recursion, VLA); also the size used when unknown.
constexpr size_t kUnboundedStackExtra = size_t{1} << 20;

/// The stack to give a thread with that need: need + headroom, at least kMinFiberStack,
/// rounded up to a power of two (the stack pool's size classes). May exceed kMaxFiberStack:
/// the caller refuses it.
size_t fiber_stack_bytes(const StackNeed& need);

}  // namespace loom::cpu_emulator
