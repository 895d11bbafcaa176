// Dtypes, devices and streams in the terms of DLPack and __cuda_array_interface__
// (interop_terms.cpp).
#pragma once
#include <cstdint>
#include <string>

#include "bindings.h"
#include "dlpack.h"

namespace loom::py {

DLDataType to_dl_dtype(DType dt);
/// Raises DTypeError for dtypes loom does not have.
DType from_dl_dtype(DLDataType t);
/// gpu(index) after checking that it exists (ValueError naming the GPU count).
Device gpu_device(int index);
/// Raises BufferError for device types loom does not have.
Device from_dl_device(int32_t type, int32_t id);
/// The __cuda_array_interface__ typestr of a dtype ("<f4").
const char* typestr(DType dt);
DType from_typestr(const std::string& s);
/// A CUDA stream as the DLPack/CAI integers name it: 1 is the legacy default stream.
intptr_t stream_int(void* s);
/// Makes `consumer` wait for the work queued so far on `producer` (both on GPU `dev`).
void order_streams(int dev, intptr_t producer, intptr_t consumer);

}  // namespace loom::py
