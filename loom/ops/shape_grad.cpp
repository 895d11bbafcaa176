// Derivative rule of repeat's row gather (take_rows): dst[o, j, :] = src[o, idx[j], :], so
// the source's cotangent adds each output row's cotangent into the row it came from.
#include "loom/backend/shape_ops.h"
#include "loom/ops/creation.h"
#include "loom/core/error.h"
#include "loom/ops/grad_rules.h"
#include "loom/ops/grad_util.h"
#include "loom/ops/indexing.h"
#include "loom/ops/shape_ops.h"

namespace loom::grad_rules {
namespace {

void repeat_vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  const auto& args = op.args_as<const Array&, const Array&, const Array&, int64_t, int64_t, int64_t>();
  const int64_t outer = std::get<3>(args), n = std::get<4>(args), inner = std::get<5>(args);
  const Array& src = op.inputs[0];
  const Array& idx = op.inputs[1];
  if (!out_cts[0].valid() || !has_tangent_space(src.dtype())) return;
  const Array ct = reshape(out_cts[0], {outer, idx.size(), inner});
  const Array z = zeros({outer, n, inner}, src.dtype(), src.device());
  const Array d = at_update(z, {Slice{}, idx}, ct, AtOp::add);
  in_cts[0] = reshape(d, src.shape());
}

}  // namespace

void register_shape() { set_complex_vjp_rule(primitives::repeat.info, repeat_vjp); }

}  // namespace loom::grad_rules
