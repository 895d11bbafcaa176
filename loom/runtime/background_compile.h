// Compiling ahead on a worker thread. The first call of a jitted function that needs a
// never-seen fused kernel (a GPU kernel through NVRTC, a CPU loop through the host
// compiler) does not wait for it: the compile is posted here and that call runs the
// group unfused (GPU: the eager kernels already loaded, one per node; CPU: the graph
// evaluator's block loops), which gives the same bits; a later call finds the kernel
// ready. One worker runs the jobs in order. $LOOM_BACKGROUND_COMPILE=0 (or
// set_enabled(false)) makes every compile happen in the call that needs it.
#pragma once
#include <atomic>
#include <functional>
#include <memory>

namespace loom::background_compile {

/// Whether compiles may be posted (default true; $LOOM_BACKGROUND_COMPILE=0 turns it off).
bool enabled();
/// Sets enabled() for this process; returns the previous value (tests).
bool set_enabled(bool on);

/// Runs `job` on the worker thread after the jobs posted before it. The flag turns true
/// when the job has returned or thrown (an exception is dropped: the call that needs the
/// result compiles again in the foreground and reports it).
std::shared_ptr<const std::atomic<bool>> post(std::function<void()> job);

/// Blocks until every job posted so far has finished (tests and benchmarks).
void wait_idle();

}  // namespace loom::background_compile
