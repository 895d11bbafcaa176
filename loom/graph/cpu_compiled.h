// Fused CPU loops compiled for the host's own CPU: what loom.jit runs a large elementwise
// graph on cpu() with. The graph's C++ (graph/cpu_codegen.h) is compiled by the host
// compiler with -march=native into a small library, cached like every compiled artefact
// (cache/compile_cache.h, kind "host"), and loaded once per process. The eager CPU loops
// are built for any x86-64 (SSE2); the compiled loop uses what the CPU has (AVX2, FMA
// units, AVX-512) and keeps every value of an element in registers.
//
// Same bits as eager: the element function is the op table's expressions over the same
// host helpers (common/loom_math.cuh), and the flags change no result: no contraction
// into fused multiply-adds (-ffp-contract=off), and only flags that drop errno and
// floating-point trap semantics nothing observes (-fno-math-errno, -fno-trapping-math:
// the latter lets a `where` on a float compare vectorize).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "loom/graph/cpu_codegen.h"
#include "loom/graph/fused_graph.h"

namespace loom::cpu_compiled {

/// Computes elements [begin, end) of the graph; in/out as in cpu_codegen::kLoopSymbol.
using FusedLoop = void (*)(const char* const* in, char* const* out, long long begin, long long end);

/// The compiled loop of `g` over `layout`, or null when it is not ready: its first use
/// posts the compile to the background worker (runtime/background_compile.h; with that
/// off it compiles now), and it stays null for good when $LOOM_CPU_COMPILE is "0", no
/// host compiler runs ($CXX, default g++), or the compile failed (said once on stderr,
/// not retried). The caller runs the evaluator meanwhile. Thread-safe.
FusedLoop fused_loop(const FusedGraph& g, const cpu_codegen::LoopLayout& layout);

/// One operand of a flat loop: its first element (a param's value) and its step in bytes
/// (0: one value that every element reads).
struct Operand {
  const char* data;
  int64_t stride;
  size_t item;
};

/// Runs elements [0, n) of `g` as its compiled loop, split over the CPU thread pool in
/// chunks of at least `grain`, when every input steps by its item size or by 0, every
/// output by its item size, and a compiled loop can be had; an output may be an input's
/// memory (in place), other overlaps are not allowed. False (nothing run) otherwise.
bool run(const FusedGraph& g, const std::vector<Operand>& inputs, const std::vector<Operand>& outputs, int64_t n,
         int64_t grain);

/// Element count from which the graph evaluator runs a graph as a compiled loop (default
/// 65536): below it the evaluator's block loops cost little more and nothing waits for a
/// compile. set_min_elements returns the previous value (tests lower it).
int64_t min_elements();
int64_t set_min_elements(int64_t n);

/// Counts since the process started (for tests).
struct Stats {
  uint64_t loaded = 0;  // loops compiled or read from the disk cache, then loaded
  uint64_t failed = 0;  // compiles that failed
  uint64_t runs = 0;    // graph evaluations that ran a compiled loop
};
Stats stats();

}  // namespace loom::cpu_compiled
