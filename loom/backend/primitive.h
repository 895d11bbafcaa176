// What an op is to the dispatch point (dispatch/dispatch.h, DESIGN.md §2): a record with
// the op's name, the family whose ops/<family>.cpp owns its shape and dtype rules, whether
// a tracer can record it, and one eval per backend with one signature, written once. Each
// family's contract header (backend/<family>.h) declares the evals and defines the records.
#pragma once

namespace loom {

/// The part of a primitive that hooks see.
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
