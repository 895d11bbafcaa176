// Dtypes, devices and streams in the terms of DLPack and __cuda_array_interface__
// (interop_terms.h), shared by the exports and imports of interop.cpp.
#include "interop_terms.h"

#include <string>

#include "loom/runtime/gpu_runtime.h"

namespace loom::py {

DLDataType to_dl_dtype(DType dt) {
  const uint8_t bits = static_cast<uint8_t>(itemsize(dt) * 8);
  switch (dtype_kind(dt)) {
    case DTypeKind::boolean: return {kDLBool, 8, 1};
    case DTypeKind::signed_int: return {kDLInt, bits, 1};
    case DTypeKind::unsigned_int: return {kDLUInt, bits, 1};
    case DTypeKind::complex: return {kDLComplex, bits, 1};
    default: return {static_cast<uint8_t>(dt == bfloat16 ? kDLBfloat : kDLFloat), bits, 1};
  }
}

DType from_dl_dtype(DLDataType t) {
  if (t.lanes == 1) {
    switch (t.code) {
      case kDLBool:
        if (t.bits == 8) return bool_;
        break;
      case kDLInt:
        switch (t.bits) { case 8: return int8; case 16: return int16; case 32: return int32; case 64: return int64; }
        break;
      case kDLUInt:
        switch (t.bits) { case 8: return uint8; case 16: return uint16; case 32: return uint32; case 64: return uint64; }
        break;
      case kDLFloat:
        switch (t.bits) { case 16: return float16; case 32: return float32; case 64: return float64; }
        break;
      case kDLBfloat:
        if (t.bits == 16) return bfloat16;
        break;
      case kDLComplex:
        switch (t.bits) { case 64: return complex64; case 128: return complex128; }
        break;
    }
  }
  throw DTypeError("[from_dlpack] unsupported DLPack dtype (code " + std::to_string(t.code) + ", " +
                   std::to_string(t.bits) + " bits, " + std::to_string(t.lanes) + " lanes)");
}

Device gpu_device(int index) {
  const Device d{DeviceType::cuda, index};
  check_device_present(d);  // raises ValueError naming the GPU count
  return d;
}

Device from_dl_device(int32_t type, int32_t id) {
  switch (type) {
    case kDLCPU:
    case kDLCUDAHost:
      return cpu();
    case kDLCUDA:
    case kDLCUDAManaged:
      return gpu_device(id);
    default:
      throw nb::buffer_error(("[from_dlpack] unsupported DLPack device type " + std::to_string(type)).c_str());
  }
}

const char* typestr(DType dt) {
  static const char* const names[kNumDTypes] = {"|b1", "|i1", "<i2", "<i4", "<i8", "|u1", "<u2",
                                                "<u4", "<u8", "<f2", "<V2", "<f4", "<f8", "<c8", "<c16"};
  return names[static_cast<int>(dt)];
}

DType from_typestr(const std::string& s) {
  for (int i = 0; i < kNumDTypes; ++i) {
    const char* t = typestr(static_cast<DType>(i));
    const size_t len = std::char_traits<char>::length(t);
    if (s == t || (s.size() == len && (s[0] == '=' || s[0] == '<' || s[0] == '|') && s.substr(1) == t + 1)) {
      return static_cast<DType>(i);
    }
  }
  throw DTypeError("[asarray] unsupported __cuda_array_interface__ typestr '" + s + "'");
}

// A CUDA stream as the DLPack/CAI integers name it: 1 is the legacy default stream.
intptr_t stream_int(void* s) { return s ? reinterpret_cast<intptr_t>(s) : 1; }

// Makes `consumer` wait for the work queued so far on `producer` (both on GPU `dev`).
void order_streams(int dev, intptr_t producer, intptr_t consumer) {
  if (producer == consumer) return;
  void* ev = gpu_runtime::event_create(dev, false);
  try {
    gpu_runtime::event_record(dev, ev, reinterpret_cast<void*>(producer));
    gpu_runtime::stream_wait_event(dev, reinterpret_cast<void*>(consumer), ev);
  } catch (...) {
    gpu_runtime::event_destroy(dev, ev);
    throw;
  }
  gpu_runtime::event_destroy(dev, ev);
}

}  // namespace loom::py
