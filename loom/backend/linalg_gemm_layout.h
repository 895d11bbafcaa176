// How a BLAS sees one operand of a batched matrix product. Both backends and the op
// layer use this so that an operand is copied only when no BLAS layout describes it.
#pragma once
#include <algorithm>
#include <climits>
#include <cstdint>

#include "loom/array/array.h"

namespace loom {

/// One operand of a batched GEMM: a 3-d array (batch, rows, cols), in elements.
struct GemmOperand {
  bool ok = false;          // false: no BLAS layout fits, the caller must copy
  bool transposed = false;  // column-major matrices (a contiguous x.T): BLAS op 'T'
  int64_t ld = 1;           // leading dimension (row stride, or column stride when transposed)
  int64_t batch_stride = 0; // 0 broadcasts one matrix over the batch
};

/// The BLAS layout of a 3-d array, or ok == false when its strides need a copy. Strides
/// of size-1 dimensions do not matter and are chosen freely, as NumPy and BLAS allow.
inline GemmOperand gemm_operand(const Array& x) {
  GemmOperand g;
  if (x.ndim() != 3) return g;
  const int64_t item = static_cast<int64_t>(x.itemsize());
  if (reinterpret_cast<uintptr_t>(x.data()) % item != 0) return g;
  for (int d = 0; d < 3; ++d)
    if (x.shape()[d] > 1 && x.strides()[d] % item != 0) return g;
  const int64_t nb = x.shape()[0], r = x.shape()[1], c = x.shape()[2];
  int64_t sb = x.strides()[0] / item, sr = x.strides()[1] / item, sc = x.strides()[2] / item;
  if (nb == 1) sb = 0;
  if (sb < 0) return g;
  g.batch_stride = sb;
  // Row-major: unit column stride, rows at least a row apart.
  const int64_t rsc = c == 1 ? 1 : sc, rsr = r == 1 ? std::max<int64_t>(c, 1) : sr;
  if (rsc == 1 && rsr >= std::max<int64_t>(c, 1) && rsr <= INT_MAX) {
    g.ok = true;
    g.ld = rsr;
    return g;
  }
  // Column-major: unit row stride, columns at least a column apart.
  const int64_t csr = r == 1 ? 1 : sr, csc = c == 1 ? std::max<int64_t>(r, 1) : sc;
  if (csr == 1 && csc >= std::max<int64_t>(r, 1) && csc <= INT_MAX) {
    g.ok = true;
    g.transposed = true;
    g.ld = csc;
  }
  return g;
}

/// Whether b (B, k, m) is a (B, m, k) transposed over the same memory, element for element,
/// so that a @ b is symmetric (x @ x.T, x.T @ x): one operand row-major, the other the same
/// memory read column-major.
inline bool is_transpose_pair(const Array& a, const Array& b) {
  if (a.data() != b.data() || a.shape()[1] != b.shape()[2] || a.shape()[2] != b.shape()[1]) return false;
  const GemmOperand ga = gemm_operand(a), gb = gemm_operand(b);
  return ga.ok && gb.ok && ga.transposed != gb.transposed && ga.ld == gb.ld && ga.batch_stride == gb.batch_stride;
}

}  // namespace loom
