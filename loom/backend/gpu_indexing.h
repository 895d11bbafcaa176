// GPU evals of the indexing family, same contracts as backend/cpu/indexing.h. They enqueue
// on the current stream of the arrays' device; index_offsets, nonzero and count_nonzero
// read a small result back (the out-of-bounds flag, the count) and so wait for the GPU.
// Implemented in backend/cuda/indexing.cpp; stubs in backend/no_cuda/indexing_stubs.cpp.
#pragma once
#include "loom/array/array.h"
#include "loom/backend/index_plan.h"

namespace loom::gpu_backend {

Array index_offsets(const IndexArrays& ix, int64_t n, IndexCheck& check);
void gather(const Array& src, const Array& offsets, const IndexLayout& layout, const Array& out);
/// With mode set and repeated offsets, which write wins is unspecified.
void scatter(const Array& dst, const Array& offsets, const IndexLayout& layout, const Array& values,
             ScatterMode mode);
Array nonzero(const Array& a);
int64_t count_nonzero(const Array& a);

}  // namespace loom::gpu_backend
