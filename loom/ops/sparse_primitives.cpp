// The sparse family's primitive (ops/sparse_primitives.h), with its rules.
//
// csr_matmul's derivative (real values; complex ones are not differentiated yet): out = A x
// is linear in x and in A's stored values. x's cotangent is A^T ct; the stored value at
// (r, c) gets ct[r] . x[c] (its row's cotangent against the row of x its column picks; with
// transpose the roles swap). The row of each stored value comes from indptr by
// searchsorted, on the device.
#include "loom/ops/sparse_primitives.h"

#include "loom/dispatch/dispatch.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/indexing.h"
#include "loom/ops/reduce.h"
#include "loom/ops/shape_ops.h"
#include "loom/ops/sorting.h"
#include "loom/ops/take.h"

namespace loom::grad_rules {
namespace {

void csr_matmul_vjp(const TracedOp& op, const std::vector<Array>& out_cts, std::vector<Array>& in_cts) {
  // The arrays as the record's inputs hold them (bound to this run's values; its args are the
  // trace's stand-ins), the flag from its args.
  const bool transpose = std::get<4>(op.args_as<Array, Array, Array, Array, bool, Array>());
  const Array &data = op.inputs[0], &indices = op.inputs[1], &indptr = op.inputs[2], &x = op.inputs[3];
  if (!out_cts[0].valid()) return;
  const Array& ct = out_cts[0];
  // x's cotangent: the other product with the same matrix.
  const Array xt = Array::allocate(x.shape(), x.dtype(), x.device());
  dispatch(primitives::csr_matmul, {data, indices, indptr, ct}, {xt}, data, indices, indptr, ct, !transpose, xt);
  in_cts[3] = xt;
  // The stored values' cotangents: row r of each value (searchsorted of its position in
  // indptr's interior starts), then ct[r] . x[c] (transpose: ct[c] . x[r]).
  const int64_t nnz = data.size();
  const Array pos = arange(Scalar(int64_t{0}), Scalar(nnz), Scalar(int64_t{1}), indptr.dtype(), data.device());
  const Array starts = getitem(indptr, {Index(Slice{1, std::nullopt, std::nullopt})});
  const Array rows = searchsorted(starts, pos, "right");
  const Array ct_rows = take(ct, transpose ? indices : rows, 0, "clip");
  const Array x_rows = take(x, transpose ? rows : indices, 0, "clip");
  in_cts[0] = sum(multiply(ct_rows, x_rows), std::vector<int64_t>{1});
}

}  // namespace
}  // namespace loom::grad_rules

namespace loom {

const Primitive<CsrMatmulFn> primitives::csr_matmul{
    PrimitiveInfo{"csr_matmul", "sparse"}
        .takes_complex()
        .real_vjp(grad_rules::csr_matmul_vjp)
        .no_batch_because("a batch of sparse matrices has no layout here yet: vmap runs it once per example"),
    cpu_backend::csr_matmul, gpu_backend::csr_matmul};

}  // namespace loom
