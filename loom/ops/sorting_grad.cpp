// Derivative rule of sort: out[..., j] = src[..., perm[..., j]] with perm = argsort(src)
// (the same stable order), so the source's cotangent adds out's cotangent back through
// the permutation. argsort, searchsorted and unique have integer results: no rule.
#include "loom/backend/sorting.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/core/error.h"
#include "loom/ops/grad_rules.h"
#include "loom/ops/grad_util.h"
#include "loom/ops/indexing.h"
#include "loom/ops/shape_ops.h"
#include "loom/ops/sorting.h"

namespace loom::grad_rules {
namespace {

void sort_vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  const Array& src = op.inputs[0];
  if (!out_cts[0].valid() || !has_tangent_space(src.dtype()) || src.size() == 0) return;
  const int64_t len = src.ndim() == 0 ? 1 : src.shape().back();
  const int64_t rows = src.size() / len;
  // Flat positions of the sorted elements in src (C order): row * len + perm.
  const Array perm = reshape(argsort(src, -1), {rows, len});
  const Array base = reshape(arange(0, rows * len, len, int64, src.device()), {rows, 1});
  const Array pos = ravel(add(perm, base));
  const Array z = zeros({src.size()}, src.dtype(), src.device());
  const Array d = at_update(z, {pos}, ravel(out_cts[0]), AtOp::add);
  in_cts[0] = reshape(d, src.shape());
}

}  // namespace

void register_sorting() { set_complex_vjp_rule(primitives::sort.info, sort_vjp); }

}  // namespace loom::grad_rules
