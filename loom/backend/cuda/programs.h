// The built-in kernel families, each one NVRTC program compiled on first use, and the
// name expressions that pick an instantiation (kernels/*.cuh hold the device code).
#pragma once
#include <cstdint>
#include <initializer_list>
#include <string>

#include "loom/runtime/cuda/module_cache.h"
#include "loom/core/dtype.h"

namespace loom::cuda {

/// The device-code spelling of a dtype's element type ("unsigned char", "loom_f16", ...).
const char* device_type_name(DType dt);

/// fill, arange, linspace, eye (kernels/loom_creation.cuh).
const Program& creation_program();
/// Every cast from dtype `src` (kernels/loom_convert.cuh): to each of the 13 dtypes from a
/// contiguous and from a strided source (32-bit indexing), and the 64-bit gather of its size.
/// One program per source dtype keeps the first cast at ~0.3 s of NVRTC time instead of
/// several seconds for all 169 pairs at once.
const Program& convert_program(DType src);

/// "loom_fill<unsigned short>" for 2-byte elements; likewise loom_eye and loom_gather.
const std::string& fill_name(size_t itemsize);
const std::string& eye_name(size_t itemsize);
const std::string& arange_name(DType dt);
const std::string& linspace_name(DType dt);
const std::string& convert_name(DType src, DType dst);
const std::string& convert_strided_name(DType src, DType dst);
const std::string& gather_name(size_t itemsize);

/// Grid-stride launch of kernel `expr` of `program` over `n` elements on `stream`;
/// `args` point at the kernel's parameters, in order.
void launch_elementwise(int device, const Program& program, const std::string& expr, int64_t n,
                        void* stream, std::initializer_list<void*> args);

}  // namespace loom::cuda
