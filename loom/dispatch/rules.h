// What the transform rules of the primitives (dispatch/primitive.h: VjpRule, BatchRule)
// work with besides the recorded op (docs/TRANSFORMS.md). The rules themselves sit in each
// primitive's row (ops/<family>_primitives.cpp), written in terms of public ops so that
// they are traced, batched and differentiated again when transforms nest.
#pragma once
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "loom/array/rebind.h"
#include "loom/dispatch/primitive.h"
#include "loom/dispatch/trace.h"

namespace loom {

/// What stands for an abstract buffer under vmap: `size` examples laid out `batch_stride`
/// bytes apart from `offset_delta` in `buffer` (stride 0: one example shared by all).
struct BatchBinding {
  std::shared_ptr<Buffer> buffer;
  int64_t offset_delta = 0;
  int64_t batch_stride = 0;
};

struct BatchMap {
  int64_t size = 0;  // the batch size
  std::unordered_map<const Buffer*, BatchBinding> buffers;

  /// `v` (a view recorded on one example) over all examples: a leading axis of `size`
  /// with the buffer's batch stride. A buffer not in the map (a constant) gets stride 0.
  Array batched(const Array& v) const;
  /// Whether `v`'s buffer differs between examples.
  bool is_batched(const Array& v) const;
  /// The plain map of example `b`, to run a recorded op once per example.
  BufferMap example(int64_t b) const;
};

}  // namespace loom
