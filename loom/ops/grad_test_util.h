// Test helper for derivative rules without the autodiff engine: a one-op function traced on
// cpu(), its record run on concrete arrays and made concrete (arrays and eval arguments
// rebound), so that its VjpRule can be called as the engine would call them.
#pragma once
#include <gtest/gtest.h>

#include <memory>
#include <tuple>
#include <vector>

#include "loom/backend/elementwise.h"
#include "loom/dispatch/rules.h"
#include "loom/transforms/graph.h"

namespace loom::grad_test {

/// Elementwise record `op` with its arrays and its ElementwiseCall rebound through `map`.
inline TracedOp rebound(const TracedOp& op, const BufferMap& map) {
  TracedOp c = op;
  for (Array& a : c.inputs) a = rebind(a, map);
  for (Array& a : c.outputs) a = rebind(a, map);
  ElementwiseCall call = std::get<0>(op.args_as<ElementwiseCall>());
  rebind_arg(call, map);
  c.args = std::make_shared<const std::tuple<ElementwiseCall>>(call);
  return c;
}

/// The record of the one op `f` dispatches, run on `args` and rebound to concrete arrays.
/// ElementwiseCall is the only eval argument type rebound here (the elementwise family).
inline TracedOp concrete_op(const ArrayFn& f, const std::vector<Array>& args) {
  std::vector<ArraySpec> specs;
  for (const Array& a : args) specs.push_back(ArraySpec::of(a));
  const TracedGraph g = trace(f, specs);
  EXPECT_EQ(g.ops.size(), 1u) << "not a one-op function";
  const TracedOp& op = g.ops.back();
  BufferMap map;
  for (size_t i = 0; i < args.size(); ++i) {
    const Array a = args[i].contiguous();
    map[g.inputs[i].buffer().get()] = {a.buffer(), a.offset()};
  }
  for (const Array& out : op.outputs) {
    if (map.count(out.buffer().get())) continue;
    const Array fresh = Array::allocate({static_cast<int64_t>(out.buffer()->nbytes())}, uint8, cpu());
    map[out.buffer().get()] = {fresh.buffer(), 0};
  }
  op.run(op, map);
  return rebound(op, map);
}

/// The rule's input cotangents for output cotangent `ct`.
inline std::vector<Array> vjp(const TracedOp& op, const Array& ct) {
  const VjpRule rule = op.op->vjp;
  EXPECT_NE(rule, nullptr) << op.op->name;
  std::vector<Array> in_cts(op.inputs.size());
  if (rule) rule(op, {ct}, in_cts);
  return in_cts;
}

}  // namespace loom::grad_test
