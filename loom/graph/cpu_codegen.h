// C++ source of a fused CPU loop: a graph (graph/fused_graph.h) compiled by the host
// compiler for the host's own CPU (graph/cpu_compiled.h). The element function is the one
// the CUDA generator writes (graph_function_source), so the loop computes each element
// with the same expressions of the op table as the GPU kernels, and through the same host
// helpers (common/loom_math.cuh) as the eager CPU loops. Pure string work.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "loom/graph/fused_graph.h"

namespace loom::cpu_codegen {

/// How the loop reads an input: element i of a contiguous array, or one value that every
/// element reads (a `param` input's scalar, a `uniform` input, an array broadcast with
/// stride 0).
enum class Access : uint8_t { contiguous, scalar };

/// The loop's symbol: extern "C" void loom_fused_loop(const char* const* in,
/// char* const* out, long long begin, long long end) computes elements [begin, end):
/// in[i] points at input i's first element (or its one value), out[k] at output k's
/// first element (contiguous).
constexpr const char* kLoopSymbol = "loom_fused_loop";

/// Where the loop's operands lie, as far as it changes the code.
struct LoopLayout {
  std::vector<Access> inputs;  // per input
  std::vector<int> in_place;    // per output: the contiguous input whose memory it is, or -1
};

/// The source of the loop of `g` over `layout`. Pointers are declared non-aliasing
/// (`__restrict__`) except an input that is an output's memory, which the output then
/// writes through the input's own pointer (so the compiler still vectorizes in place).
/// Throws std::invalid_argument for a malformed graph or layout.
std::string fused_loop_source(const FusedGraph& g, const LoopLayout& layout);

}  // namespace loom::cpu_codegen
