// numpy.linalg.qr (modes reduced, complete, r, raw) over LAPACK's geqrf and orgqr
// (backend/linalg_decomp.h). Under a trace the factors are one primitive, qr_factors
// (ops/linalg_qr.h), so that grad, vmap and jit see QR as one op with a rule.
#include "loom/ops/linalg_qr.h"

#include <algorithm>
#include <string>
#include <utility>

#include "loom/ops/linalg_decomp_primitives.h"
#include "loom/core/error.h"
#include "loom/dispatch/dispatch.h"
#include "loom/dispatch/trace.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/indexing.h"
#include "loom/ops/linalg.h"
#include "loom/ops/linalg_decomp_common.h"
#include "loom/ops/shape_ops.h"
#include "loom/ops/triangles.h"

namespace loom {
namespace {

using linalg_detail::matrix_stack;
using linalg_detail::with;

Array mT(const Array& a) { return swapaxes(a, -1, -2); }

// geqrf of the (B, m, n) stack x: reflectors and R in LAPACK's layout h (B, n, m), tau (B, k).
std::pair<Array, Array> householder(const Array& x) {
  const int64_t B = x.shape()[0], m = x.shape()[1], n = x.shape()[2], k = std::min(m, n);
  // LAPACK's column-major a is the row-major a.T.
  const Array at = mT(x).contiguous();
  const Array h = empty({B, n, m}, x.dtype(), x.device()), tau = empty({B, k}, x.dtype(), x.device());
  if (at.size() > 0) dispatch(primitives::geqrf, {at}, {h, tau}, at, h, tau);
  return {h, tau};
}

// R's first `rows` rows (B, rows, n) from geqrf's h.
Array r_of(const Array& h, int64_t rows) {
  const Array r_rows = getitem(mT(h), {Index(ellipsis), Index(Slice{0, rows, std::nullopt}), Index(Slice{})});
  return triu(r_rows).contiguous();
}

// Q's first c columns (B, m, c) from geqrf's h and tau.
Array q_of(const Array& h, const Array& tau, int64_t c) {
  const int64_t B = h.shape()[0], n = h.shape()[1], m = h.shape()[2];
  Array hq;
  if (n >= c) {
    hq = getitem(h, {Index(Slice{}), Index(Slice{0, c, std::nullopt}), Index(Slice{})}).contiguous();
  } else {  // complete with m > n: Q's extra columns come from reflectors padded with zeros
    hq = zeros({B, c, m}, h.dtype(), h.device());
    copyto(getitem(hq, {Index(Slice{}), Index(Slice{0, n, std::nullopt}), Index(Slice{})}), h);
  }
  const Array qt = empty(hq.shape(), h.dtype(), h.device());
  if (qt.size() > 0) dispatch(primitives::orgqr, {hq, tau}, {qt}, hq, tau, qt);
  return mT(qt).contiguous();
}

}  // namespace

void qr_factors_eval(const Array& a, const Array& q, const Array& r) {
  const auto [h, tau] = householder(a);
  copyto(r, r_of(h, r.shape()[1]));
  copyto(q, q_of(h, tau, q.shape()[2]));
}

std::pair<Array, Array> qr(const Array& a, const std::string& mode) {
  const char* op = "qr";
  if (mode != "reduced" && mode != "complete" && mode != "r" && mode != "raw")
    throw_value_error(op, "Unrecognized mode '" + mode + "'");
  Shape batch;
  const Array x = matrix_stack(op, a, &batch, false);
  const int64_t B = x.shape()[0], m = x.shape()[1], n = x.shape()[2], k = std::min(m, n);
  const int64_t c = mode == "complete" ? m : k;  // Q's columns, R's rows
  if (mode != "raw" && is_tracing() && x.size() > 0) {
    const Array q = empty({B, m, c}, x.dtype(), x.device()), r = empty({B, c, n}, x.dtype(), x.device());
    dispatch(primitives::qr_factors, {x}, {q, r}, x, q, r);
    return {mode == "r" ? Array() : reshape(q, with(batch, {m, c})), reshape(r, with(batch, {c, n}))};
  }
  const auto [h, tau] = householder(x);
  if (mode == "raw") return {reshape(h, with(batch, {n, m})), reshape(tau, with(batch, {k}))};
  const Array r = reshape(r_of(h, c), with(batch, {c, n}));
  if (mode == "r") return {Array(), r};
  return {reshape(q_of(h, tau, c), with(batch, {m, c})), r};
}

}  // namespace loom
