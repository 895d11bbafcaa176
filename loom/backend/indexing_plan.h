// The plan that ops/indexing.cpp hands to the backends for gathers and scatters.
//
// An advanced index selects, for each position b of the broadcast index shape B, the byte
// offset offsets[b] = sum_j idx_j[b] * stride_j from the indexed (basic) view's element 0.
// The result walks `shape` in C order: B collapsed to one dimension of size |B|
// (b_stride 1, src_stride 0) among the view's remaining dimensions (b_stride 0).
#pragma once
#include <cstdint>
#include <vector>

#include "loom/array/array.h"
#include "loom/array/rebind.h"

namespace loom {

/// Result layout of a gather (or the index layout of a scatter), dims collapsed.
struct IndexLayout {
  Shape shape;                    // the walk, C order; its product is the result's size
  Strides src_strides;            // bytes in the indexed view; 0 on the B dimension
  std::vector<int64_t> b_strides;  // 1 on the B dimension, 0 elsewhere
};

/// The index arrays of an advanced index, each contiguous int64 of the broadcast shape B.
struct IndexArrays {
  std::vector<Array> indices;
  std::vector<int64_t> dim_sizes;     // size of the indexed axis of each index array
  std::vector<int64_t> byte_strides;  // stride of that axis in the indexed view
};

template <>
struct PlainTraceArg<IndexLayout> : std::true_type {};
inline void rebind_arg(IndexArrays& ix, const BufferMap& map) { rebind_arg(ix.indices, map); }

/// How a scatter combines the value with what is there.
enum class ScatterMode : uint8_t { set, add, multiply, min, max };

}  // namespace loom
