// CPU evals of the indexing family (ops/indexing.h owns the rules; see backend/index_plan.h).
#pragma once
#include "loom/array/array.h"
#include "loom/backend/index_plan.h"

namespace loom::cpu_backend {

/// int64 offsets[b] = sum_j wrap(idx_j[b]) * byte_strides[j] for b < n (the size of B);
/// the first out-of-bounds index, if any, goes to `check` (offsets are then unspecified).
Array index_offsets(const IndexArrays& ix, int64_t n, IndexCheck& check);
/// out (contiguous, x's dtype) = the elements at src.data() + offsets[b] + walk(layout).
void gather(const Array& src, const Array& offsets, const IndexLayout& layout, const Array& out);
/// The elements of dst (a view) at offsets[b] + walk(layout) combined with `values`
/// (contiguous, dst's dtype, the walk's size). `offsets` may be invalid (all zero).
void scatter(const Array& dst, const Array& offsets, const IndexLayout& layout, const Array& values,
             ScatterMode mode);
/// Contiguous `a` -> (a.ndim(), count) int64 indices of its nonzero elements, C order.
Array nonzero(const Array& a);
int64_t count_nonzero(const Array& a);

}  // namespace loom::cpu_backend
