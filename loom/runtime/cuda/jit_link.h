// Relocatable device code for users' programs: a program compiled with NVRTC's -rdc=true (a
// kernel that launches kernels, PyCUDA's DynamicSourceModule) is an object that must be linked
// with the device runtime (libcudadevrt.a) before the driver can load it. nvJitLink does the
// link; it is loaded at run time (dlopen), like the driver, so loom runs where it is missing
// until a program asks for it.
#pragma once
#include <string>
#include <vector>

namespace loom::cuda {

/// Whether NVRTC `options` ask for relocatable device code (-rdc=true, -dc, ...).
bool wants_relocatable_code(const std::vector<std::string>& options);

/// `object` (a relocatable CUBIN from NVRTC for sm_`arch`) linked with the device runtime into
/// a loadable CUBIN. Needs no GPU. Throws CompileError naming `program` with nvJitLink's log,
/// or when nvJitLink or libcudadevrt.a cannot be found.
std::string link_with_device_runtime(const std::string& object, int arch, const std::string& program);

}  // namespace loom::cuda
