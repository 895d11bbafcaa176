// The symbol table (.symtab) of a compiled emulator library, read from its bytes: the
// emulator builds with -fvisibility=hidden, so only its entry points are in the dynamic
// table that dlsym reads, and everything else loom needs to know of the library's objects
// (the `__shared__` variables' sizes, the `__device__`/`__constant__` variables' places)
// is found here.
#pragma once
#include <cstdint>
#include <functional>
#include <string_view>

namespace loom::cpu_emulator {

/// One entry of .symtab.
struct ElfSymbol {
  std::string_view name;  // as in the table (mangled for C++ names)
  unsigned char type = 0;     // STT_OBJECT, STT_TLS, STT_FUNC, ...
  unsigned char binding = 0;  // STB_LOCAL, STB_GLOBAL, STB_WEAK
  uint16_t section = 0;       // st_shndx: SHN_UNDEF for a symbol defined elsewhere
  uint64_t value = 0;         // its offset from the library's load address (TLS: within the TLS block)
  uint64_t size = 0;
};

/// Calls `fn` for each symbol of the ELF64 shared library `elf`; does nothing when the bytes
/// are not a readable ELF64 file (a malformed table is never read past its end).
void for_each_elf_symbol(std::string_view elf, const std::function<void(const ElfSymbol&)>& fn);

}  // namespace loom::cpu_emulator
