// How much static shared memory each kernel of an emulated module uses, as ptxas counts
// it for a GPU: `__shared__` is `static thread_local` in the emulator (loom_cuda_emu.h), so
// each such variable is a thread-local (STT_TLS) object in the compiled library's symbol
// table, with its size and a name that tells the function it is local to. A kernel uses
// the variables of its own body, of the functions it reaches and the file-scope ones it
// names (PlannedKernel::reaches: by name, from the source, since g++ inlines helpers away).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace loom::cpu_emulator {

struct Plan;
struct PlannedKernel;

/// GPUs allow at most 48 KiB of static shared memory per kernel (more only dynamically).
constexpr size_t kMaxStaticShared = 48 * 1024;

/// One `__shared__` variable of a library.
struct SharedObject {
  std::string function;  // the name of the function it is local to ("k", "helper"); "" at file scope
  std::string name;      // its own name, unqualified
  uint64_t size = 0;
};

/// The thread-local objects of an ELF shared library (its .symtab), less the emulator's own
/// (loom_emu) and the C++ library's; empty when the bytes are not a readable ELF64 file.
std::vector<SharedObject> shared_objects(std::string_view elf);

/// The function a demangled local name's object belongs to: "ns::k(float*)::tile" and
/// "void k<float>(float*)::{lambda(int)#1}::operator()(int) const::t" give "k"; "" for a
/// name at namespace scope ("ns::tile"). Sets *name to the object's own name.
std::string owning_function(const std::string& demangled, std::string* name);

/// The static shared bytes of kernel `k`: its own variables, those of the functions it
/// reaches or that the source does not define (a macro made them: counted to be safe),
/// and the file-scope ones it names.
uint64_t static_shared_bytes(const std::vector<SharedObject>& objects, const PlannedKernel& k, const Plan& p);

/// The static shared bytes of each kernel of `p` (in its order) from the compiled library
/// `elf`; raises CompileError worded as ptxas words it ("Entry function 'k' uses too much
/// shared data") when a kernel uses more than kMaxStaticShared, as NVRTC does for a GPU.
std::vector<size_t> static_shared_per_kernel(std::string_view elf, const Plan& p, const std::string& label);

}  // namespace loom::cpu_emulator
