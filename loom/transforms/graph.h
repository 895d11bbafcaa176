// A traced function: the ops it dispatched, recorded on abstract arrays (dispatch/trace.h),
// and the way to run them again on real ones. jit caches these per input signature and
// compiles them; vmap and grad read and rewrite them. docs/TRANSFORMS.md has the design.
#pragma once
#include <functional>
#include <memory>
#include <vector>

#include "loom/array/array.h"
#include "loom/dispatch/trace.h"

namespace loom {

/// A function of arrays, as every transform takes it.
using ArrayFn = std::function<std::vector<Array>(const std::vector<Array>&)>;

/// What a traced argument is: its shape, dtype and device (its values are not known).
struct ArraySpec {
  Shape shape;
  DType dtype = float32;
  Device device;
  static ArraySpec of(const Array& a) { return {a.shape(), a.dtype(), a.device()}; }
  bool operator==(const ArraySpec& o) const {
    return shape == o.shape && dtype == o.dtype && device == o.device;
  }
};

struct TracedGraph {
  std::vector<Array> inputs;  // abstract, contiguous, one buffer each
  std::vector<TracedOp> ops;  // in the order the function dispatched them
  /// The function's results: views of the ops' buffers, of inputs, or concrete arrays it
  /// captured or made at trace time (constants).
  std::vector<Array> outputs;
  /// Constants made at trace time that some op writes into: each run starts from a fresh
  /// copy, as the function run eagerly would make a fresh array each time.
  std::vector<Array> written_constants;
};

/// Calls `f` on abstract arrays of `specs` with a tracer installed and returns what it
/// dispatched. Exceptions from `f` (a shape error naming its op, ConcretizationError)
/// pass through.
TracedGraph trace(const ArrayFn& f, const std::vector<ArraySpec>& specs);

/// Runs `g` on `args` (one per input, of its spec; any layout) by dispatching each op
/// again with its arrays rebound: intermediates are allocated fresh, and under an
/// enclosing trace the ops are recorded there (jit inside jit, vmap or grad inlines).
std::vector<Array> replay(const TracedGraph& g, const std::vector<Array>& args);

/// The steps of a run of a graph, shared by replay and the transforms that run a graph
/// their own way (grad keeps the forward values). bind_inputs maps each input's buffer to
/// its argument's and each written constant to a fresh copy; bind_outputs gives the
/// abstract buffers that `op` writes, and that `map` lacks, fresh memory; bind_results
/// gives the function's results under `map` (a constant result is copied: the caller may
/// write to it, and the next run reads it).
/// The binding of an argument: its buffer, shifted so that the input's contiguous views land
/// on the argument's elements (a strided argument is copied contiguous first).
BufferBinding bind_argument(const Array& a);
BufferMap bind_inputs(const TracedGraph& g, const std::vector<Array>& args);
void bind_outputs(const TracedOp& op, BufferMap& map);
std::vector<Array> bind_results(const TracedGraph& g, BufferMap& map);

/// Throws std::invalid_argument naming `who` unless `args` match `g`'s input specs.
void check_args(const char* who, const TracedGraph& g, const std::vector<Array>& args);

}  // namespace loom
