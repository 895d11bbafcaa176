// The op table's derivatives (internal to ops/elementwise_grad*.cpp, the elementwise rows
// and their test). Elementwise partial derivatives are diagonal, so one function per op
// applies d out / d operand_i to `v` elementwise: the cotangent of the output in reverse
// mode, and would serve a tangent of operand i in forward mode as well (J^T = J).
#pragma once
#include <cstdint>
#include <vector>

#include "loom/array/array.h"
#include "loom/backend/elementwise.h"
#include "loom/dispatch/trace.h"

namespace loom::ew_grad {

/// The values a derivative reads, made on first use: the operands cast to their loop dtype
/// (a weak scalar becomes a 0-d array of it), and the output in the result dtype.
class Ctx {
 public:
  Ctx(const TracedOp& op, const ElementwiseCall& call);
  const ElementwiseCall& call() const { return call_; }
  DType loop() const { return call_.loop; }
  /// Operand i (0..nin-1, as the op's C expression numbers them).
  const Array& x(int i);
  /// The op's output (recomputed when out= stored it in another dtype).
  const Array& y();
  /// Index of operand i in op.inputs, or -1 for a weak scalar.
  int input_index(int i) const { return input_of_[i]; }

 private:
  const TracedOp& op_;
  const ElementwiseCall& call_;
  int input_of_[3] = {-1, -1, -1};
  Array x_[3];
  Array y_;
};

/// d out / d operand_i applied to v (result broadcastable to the output's shape, in the loop
/// dtype), or an invalid Array where that derivative is zero everywhere it is defined.
using ApplyFn = Array (*)(Ctx& ctx, int i, const Array& v);

struct Derivative {
  ApplyFn apply = nullptr;  // null: no derivative (comparisons, logical and bitwise ops)
  uint8_t operands = 0;     // bit i: operand i gets a cotangent (where's condition does not)
  bool known = false;       // the op is classified (the test checks that every op is)
};

/// The VjpRule of every op-table record (dispatch/primitive.h).
void vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts);

/// The derivative of `op` (known == false only for an op missing from the files below).
const Derivative& derivative(OpId op);

// Each kind's file fills in the ops it owns; true when it owned `op`.
bool arith_derivative(OpId op, Derivative* d);          // elementwise_grad_arith.cpp
bool transcendental_derivative(OpId op, Derivative* d);  // elementwise_grad_transcendental.cpp
bool select_derivative(OpId op, Derivative* d);          // elementwise_grad_select.cpp
bool special_derivative(OpId op, Derivative* d);         // elementwise_grad_special.cpp

/// Shorthands for the kinds' tables.
inline Derivative unary(ApplyFn f) { return {f, 1, true}; }
inline Derivative binary(ApplyFn f) { return {f, 3, true}; }
inline Derivative none() { return {nullptr, 0, true}; }

}  // namespace loom::ew_grad
