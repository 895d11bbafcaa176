// nonzero and its relatives: the backends count the nonzero elements of a contiguous
// array and write their indices as one (ndim, count) int64 array.
#include <string>

#include "loom/backend/cpu/indexing.h"
#include "loom/backend/gpu_indexing.h"
#include "loom/core/error.h"
#include "loom/ops/indexing.h"

namespace loom {
namespace {

// (ndim, count) int64 indices of the nonzero elements of `a` (ndim >= 1).
Array nonzero_rows(const Array& a) {
  const Array c = a.contiguous();
  return c.device().is_cpu() ? cpu_backend::nonzero(c) : gpu_backend::nonzero(c);
}

Array flat(const Array& a) {
  const Array c = a.contiguous();
  return c.view({c.size()}, {static_cast<int64_t>(c.itemsize())}, c.offset());
}

}  // namespace

std::vector<Array> nonzero(const Array& a) {
  if (a.ndim() == 0) {
    throw_value_error("nonzero", "Calling nonzero on 0d arrays is not allowed. Use "
                                 "atleast_1d(scalar).nonzero() instead.");
  }
  const Array rows = nonzero_rows(a);
  const int64_t count = rows.shape()[1];
  std::vector<Array> out;
  for (int d = 0; d < a.ndim(); ++d) out.push_back(rows.view({count}, {8}, rows.offset() + d * count * 8));
  return out;
}

Array flatnonzero(const Array& a) { return nonzero(flat(a))[0]; }

Array argwhere(const Array& a) {
  if (a.ndim() == 0) {
    // NumPy: the indices of a 0-d array are empty tuples, one per nonzero element.
    return Array::allocate({count_nonzero(a), 0}, int64, a.device());
  }
  return nonzero_rows(a).transpose().contiguous();
}

int64_t count_nonzero(const Array& a) {
  const Array c = a.contiguous();
  return c.device().is_cpu() ? cpu_backend::count_nonzero(c) : gpu_backend::count_nonzero(c);
}

}  // namespace loom
