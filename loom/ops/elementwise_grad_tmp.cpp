// TEMPORARY (h13-grad): a few elementwise rules until h13-ewgrad's are merged. Delete.
#include "loom/backend/elementwise.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/transform_rules.h"
#include "loom/dispatch/rules.h"

namespace loom {
namespace {

struct Args {
  Operand x[3];
  int nin = 0;
};
Args operands(const TracedOp& op) {
  const auto& [call] = op.args_as<const ElementwiseCall&>();
  Args a;
  a.nin = call.nin;
  for (int i = 0, k = 0; i < call.nin; ++i)
    a.x[i] = call.is_scalar[i] ? Operand(call.scalar[i]) : Operand(op.inputs[k++]);
  return a;
}
// Sets in_cts for input i of the call (skipping scalars).
void set(const TracedOp& op, std::vector<Array>& in_cts, int i, const Array& v) {
  const auto& [call] = op.args_as<const ElementwiseCall&>();
  if (i >= call.nin || call.is_scalar[i]) return;
  int k = 0;
  for (int j = 0; j < i; ++j) k += !call.is_scalar[j];
  in_cts[k] = v;
}

void add_vjp(const TracedOp& op, const std::vector<Array>& ct, std::vector<Array>& in) {
  set(op, in, 0, ct[0]); set(op, in, 1, ct[0]);
}
void sub_vjp(const TracedOp& op, const std::vector<Array>& ct, std::vector<Array>& in) {
  set(op, in, 0, ct[0]); set(op, in, 1, negative(ct[0]));
}
void mul_vjp(const TracedOp& op, const std::vector<Array>& ct, std::vector<Array>& in) {
  Args a = operands(op);
  set(op, in, 0, multiply(ct[0], a.x[1])); set(op, in, 1, multiply(ct[0], a.x[0]));
}
void div_vjp(const TracedOp& op, const std::vector<Array>& ct, std::vector<Array>& in) {
  Args a = operands(op);
  set(op, in, 0, divide(ct[0], a.x[1]));
  set(op, in, 1, negative(divide(multiply(ct[0], op.outputs[0]), a.x[1])));
}
void neg_vjp(const TracedOp& op, const std::vector<Array>& ct, std::vector<Array>& in) { set(op, in, 0, negative(ct[0])); }
void exp_vjp(const TracedOp& op, const std::vector<Array>& ct, std::vector<Array>& in) {
  set(op, in, 0, multiply(ct[0], op.outputs[0]));
}
void log_vjp(const TracedOp& op, const std::vector<Array>& ct, std::vector<Array>& in) {
  set(op, in, 0, divide(ct[0], operands(op).x[0]));
}
void sin_vjp(const TracedOp& op, const std::vector<Array>& ct, std::vector<Array>& in) {
  set(op, in, 0, multiply(ct[0], cos(operands(op).x[0])));
}
void cos_vjp(const TracedOp& op, const std::vector<Array>& ct, std::vector<Array>& in) {
  set(op, in, 0, negative(multiply(ct[0], sin(operands(op).x[0]))));
}
void tanh_vjp(const TracedOp& op, const std::vector<Array>& ct, std::vector<Array>& in) {
  const Array& y = op.outputs[0];
  set(op, in, 0, multiply(ct[0], subtract(1.0, multiply(y, y))));
}

}  // namespace

void register_elementwise_grad_rules() {
  auto info = [](OpId id) -> const PrimitiveInfo& { return primitives::elementwise[static_cast<int>(id)].info; };
  set_vjp_rule(info(OpId::add), add_vjp);
  set_vjp_rule(info(OpId::subtract), sub_vjp);
  set_vjp_rule(info(OpId::multiply), mul_vjp);
  set_vjp_rule(info(OpId::divide), div_vjp);
  set_vjp_rule(info(OpId::negative), neg_vjp);
  set_vjp_rule(info(OpId::exp), exp_vjp);
  set_vjp_rule(info(OpId::log), log_vjp);
  set_vjp_rule(info(OpId::sin), sin_vjp);
  set_vjp_rule(info(OpId::cos), cos_vjp);
  set_vjp_rule(info(OpId::tanh), tanh_vjp);
  set_vjp_rule(info(OpId::copy), add_vjp);
}

}  // namespace loom
