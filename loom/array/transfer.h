// Copies of arrays between two devices (Array::copy_to, Array::copy_to_host). This is the
// one place that picks the runtime's upload, download or peer copy (runtime/gpu_runtime.h)
// from the devices' kinds, so that the ops need no device tests. It sits with Array, not
// in runtime/, because the runtime lies below Array and takes no arrays. A copy within
// one device is an op (the convert primitive, backend/creation.h), not a transfer.
#pragma once
#include "loom/array/array.h"

namespace loom {

/// Copies `src` into `dst` (contiguous, same dtype and shape) on another device: host ->
/// GPU uploads `src` in any layout through pinned staging; GPU -> host downloads and
/// returns when the data is there; GPU -> GPU copies peer to peer. A GPU `src` must be
/// contiguous (packing it is an op: the caller's). Throws std::invalid_argument when both
/// are on one device, or for a strided GPU `src`.
void transfer(const Array& src, const Array& dst);

}  // namespace loom
