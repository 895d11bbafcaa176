// What an op is to the dispatch point (dispatch/dispatch.h, DESIGN.md §2): one record per
// primitive with everything about it, as the op table is for elementwise ops — its name,
// its family, whether a tracer can record it, one eval per backend with one signature
// (backend/<family>.h declares them), and the transform rules that jit, vmap and grad
// read from it. Each family's records are rows in ops/<family>_primitives.cpp, next to
// their rules, declared by ops/<family>_primitives.h; all_primitives() lists them all.
#pragma once
#include <cstdint>
#include <vector>

namespace loom {

class Array;
struct TracedOp;
struct BatchMap;

/// Reverse mode. `op` is the recorded op with its arrays rebound to the forward pass's
/// values (inputs and outputs readable). `out_cts[i]` is the cotangent of op.outputs[i]
/// (shape and dtype of that view), or an invalid Array where it is zero. The rule sets
/// `in_cts[i]` (pre-sized to op.inputs.size(), all invalid) to the cotangent of
/// op.inputs[i] with that view's shape, or leaves it invalid for none (integers, indices).
/// The engine accumulates them into the inputs' buffers, summing over broadcast axes.
using VjpRule = void (*)(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts);

/// Batching: runs `op` (recorded on one example) for all examples of `m` at once, writing
/// the batched views of its outputs (dispatch/rules.h: BatchMap).
using BatchRule = void (*)(const TracedOp& op, const BatchMap& m);

/// Which fused kernel of jit's compiler may absorb the primitive (transforms/compile_*.cpp).
enum class Fusion : uint8_t {
  none,
  elementwise,  // an op-table op: a node of a fused elementwise group
  reduction,    // a reduction that takes a fused prologue and epilogue
};

/// The part of a primitive that hooks, tracers and the transforms see. Rows build it with
/// the setters below, e.g. PrimitiveInfo{"sort", "sorting"}.complex_vjp(sort_vjp).batch(sort_rule).
struct PrimitiveInfo {
  const char* name;    // the public name: "add", "sort", "kernel_launch"
  const char* family;  // ops/<family>.cpp holds its rules; backend/<family>.h its evals
  /// False for ops that read device data back on the host mid-op (the size of unique's or
  /// nonzero's result, a bounds flag), which a tracer cannot record as one graph node.
  bool traceable = true;
  /// True when the evals take complex64/complex128 operands. dispatch() raises a TypeError
  /// naming the op for a complex operand of any other op, so an eval never meets a dtype
  /// its loops do not have.
  bool complex = false;
  Fusion fusion = Fusion::none;
  VjpRule vjp = nullptr;
  /// The vjp rule is written for complex values too (docs/TRANSFORMS.md §6, the adjoint
  /// convention); reverse mode refuses a record whose rule is not when a complex value
  /// that carries a cotangent flows through it.
  bool vjp_complex = false;
  /// Why there is no vjp rule, for a traceable primitive without one (grad then raises
  /// UnsupportedError naming the primitive and this reason).
  const char* no_vjp = nullptr;
  BatchRule batch = nullptr;
  /// Why there is no batch rule, for a traceable primitive without one (vmap then runs it
  /// once per example).
  const char* no_batch = nullptr;

  constexpr PrimitiveInfo not_traceable() const {
    PrimitiveInfo p = *this;
    p.traceable = false;
    return p;
  }
  constexpr PrimitiveInfo takes_complex() const {
    PrimitiveInfo p = *this;
    p.complex = true;
    return p;
  }
  constexpr PrimitiveInfo fuses(Fusion f) const {
    PrimitiveInfo p = *this;
    p.fusion = f;
    return p;
  }
  /// A vjp rule for real values only.
  constexpr PrimitiveInfo real_vjp(VjpRule r) const {
    PrimitiveInfo p = *this;
    p.vjp = r;
    return p;
  }
  /// A vjp rule written for complex values as well as real ones.
  constexpr PrimitiveInfo complex_vjp(VjpRule r) const {
    PrimitiveInfo p = real_vjp(r);
    p.vjp_complex = true;
    return p;
  }
  constexpr PrimitiveInfo no_vjp_because(const char* why) const {
    PrimitiveInfo p = *this;
    p.no_vjp = why;
    return p;
  }
  constexpr PrimitiveInfo batched(BatchRule r) const {
    PrimitiveInfo p = *this;
    p.batch = r;
    return p;
  }
  constexpr PrimitiveInfo no_batch_because(const char* why) const {
    PrimitiveInfo p = *this;
    p.no_batch = why;
    return p;
  }
};

template <class Signature>
struct Primitive;

/// A primitive whose evals have the signature R(A...): `cpu` from backend/cpu, `gpu` from
/// backend/cuda (backend/no_cuda's stub, which throws UnsupportedError, without CUDA).
template <class R, class... A>
struct Primitive<R(A...)> {
  PrimitiveInfo info;
  R (*cpu)(A...);
  R (*gpu)(A...);
};

}  // namespace loom
