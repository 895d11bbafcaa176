// Results that remember what they were computed from (runtime/memory.h: BufferOrigin), so
// that a later op can read the source instead: x.conj() remembers x, and matmul runs
// x @ x.conj().T on x alone, as a Hermitian rank-k update (docs/ARCHITECTURE.md §13).
#pragma once
#include <optional>

#include "loom/array/array.h"

namespace loom {

/// Records on `result`, the fresh C-contiguous output that conjugate(src) has just written
/// (same dtype and shape), that it holds src's conjugate. Nothing for abstract arrays (a
/// function being traced) or untracked buffers.
void remember_conjugate(const Array& src, const Array& result);

/// When `v` is a view of a buffer that remember_conjugate marked and neither that buffer nor
/// its source has been written since: the view of the source whose conjugate `v` is, element
/// for element (same shape). Otherwise nothing.
std::optional<Array> conjugate_source(const Array& v);

}  // namespace loom
