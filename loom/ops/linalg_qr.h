// numpy.linalg.qr's factors as one primitive for the transforms (ops/linalg_qr.cpp). Eagerly
// qr runs LAPACK's two steps, geqrf then orgqr (backend/linalg_decomp.h); a derivative rule
// on the Householder reflectors they pass between them would be impractical, so while a
// tracer is installed qr records this primitive instead, whose rule (ops/linalg_decomp_grad.cpp)
// works on Q and R, and whose eval runs those same two steps: the same result bits. Its
// record is primitives::qr_factors (ops/linalg_decomp_primitives.h).
#pragma once
#include "loom/array/array.h"

namespace loom {

/// a (B, m, n) -> q (B, m, c), r (B, c, n) with c = min(m, n) (reduced) or m (complete, as
/// q's shape says): a = q @ r, q's columns orthonormal, r upper triangular.
using QrFn = void(const Array& a, const Array& q, const Array& r);
/// The eval of both backends: geqrf and orgqr dispatched on a's device.
void qr_factors_eval(const Array& a, const Array& q, const Array& r);

}  // namespace loom
