// Tracing at the dispatch point (docs/TRANSFORMS.md). While a Tracer is installed on a
// thread, dispatch() does not run an op's eval: it records the op (its primitive record,
// device, operand views and the eval's arguments) and returns. Arrays allocated meanwhile
// are abstract (memory.h: a size and a device, no memory), so the function being traced
// touches no data and every op of loom is traced by being written the usual way. A record
// is run again later by TracedOp::run with its arrays rebound to real buffers
// (array/rebind.h); the transforms (transforms/) build jit, vmap and grad on that.
//
// What cannot be recorded:
// - an op whose eval reads device data back mid-op (PrimitiveInfo::traceable false), or
//   returns a value, or takes an argument that cannot be rebound (a user kernel's raw
//   pointers, host memory): with every operand concrete it runs at trace time and its
//   outputs become constants of the trace; with an abstract operand it raises
//   ConcretizationError naming the op;
// - a host read of an abstract array (Array::copy_to_host, a transfer, Python's bool()):
//   ConcretizationError.
#pragma once
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "loom/array/array.h"
#include "loom/array/rebind.h"
#include "loom/dispatch/primitive.h"
#include "loom/core/error.h"

namespace loom {

/// One recorded op.
struct TracedOp {
  const PrimitiveInfo* op = nullptr;
  const void* record = nullptr;  // its Primitive<Signature> (rules know the signature)
  Device device;
  std::vector<Array> inputs;   // as dispatch hooks see them
  std::vector<Array> outputs;  // written by the op (views of abstract or concrete buffers)
  std::shared_ptr<const void> args;  // std::tuple<std::decay_t<A>...> of the eval's arguments
  /// Dispatches the op again with every array rebound through `map`.
  void (*run)(const TracedOp& self, const BufferMap& map) = nullptr;
  /// Set by reverse mode on the record it hands a derivative rule: bit i when no cotangent
  /// of input i is wanted (an integer input, or one that depends on no differentiated
  /// argument), so that a costly rule (a matrix product, a convolution) may skip it.
  uint64_t unwanted_cotangents = 0;
  bool wants_cotangent(size_t i) const { return i >= 64 || !((unwanted_cotangents >> i) & 1); }

  /// The eval's arguments as recorded, for a rule that knows the primitive's signature.
  template <class... A>
  const std::tuple<std::decay_t<A>...>& args_as() const {
    return *static_cast<const std::tuple<std::decay_t<A>...>*>(args.get());
  }
};

/// Receives the ops of a traced function.
class Tracer {
 public:
  virtual ~Tracer() = default;
  virtual void record(TracedOp op) = 0;
};

/// Installs `tracer` on this thread (abstract allocation on) until destroyed; nullptr
/// suspends an enclosing trace (ops run, allocation is real).
class TraceScope {
 public:
  explicit TraceScope(Tracer* tracer);
  ~TraceScope();
  TraceScope(const TraceScope&) = delete;
  TraceScope& operator=(const TraceScope&) = delete;

 private:
  Tracer* saved_;
  memory::AllocationScope alloc_;
};

/// The tracer installed on this thread, or nullptr.
Tracer* current_tracer();
inline bool is_tracing() { return current_tracer() != nullptr; }
inline bool is_abstract(const Array& a) { return a.valid() && a.buffer()->is_abstract(); }

/// Throws ConcretizationError for `op` reading the values of a traced array.
[[noreturn]] void throw_concretization(const char* op, const std::string& what = {});

}  // namespace loom
