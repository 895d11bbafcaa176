// Elementwise operations: the op table's ops with broadcasting, NumPy 2 promotion, out=
// and where=, and copyto (the assignment every other family uses).
#pragma once
#include "loom/array.h"

namespace loom {

/// NumPy's copyto: writes `src` broadcast to dst's shape and cast to dst's dtype into
/// `dst`, which may be any strided view (slices, transposes). Same device required.
void copyto(const Array& dst, const Array& src);

}  // namespace loom
