#include "loom/kernel/emulator/elf_symbols.h"

#include <elf.h>

#include <cstring>
#include <vector>

namespace loom::cpu_emulator {

void for_each_elf_symbol(std::string_view elf, const std::function<void(const ElfSymbol&)>& fn) {
  auto fits = [&](uint64_t off, uint64_t size) { return off <= elf.size() && size <= elf.size() - off; };
  if (!fits(0, sizeof(Elf64_Ehdr)) || memcmp(elf.data(), ELFMAG, SELFMAG) != 0 || elf[EI_CLASS] != ELFCLASS64)
    return;
  Elf64_Ehdr eh;
  memcpy(&eh, elf.data(), sizeof eh);
  if (eh.e_shentsize != sizeof(Elf64_Shdr) || !fits(eh.e_shoff, uint64_t{eh.e_shnum} * sizeof(Elf64_Shdr))) return;
  std::vector<Elf64_Shdr> sh(eh.e_shnum);
  memcpy(sh.data(), elf.data() + eh.e_shoff, sh.size() * sizeof(Elf64_Shdr));
  for (const Elf64_Shdr& s : sh) {
    if (s.sh_type != SHT_SYMTAB || s.sh_entsize != sizeof(Elf64_Sym) || s.sh_link >= sh.size()) continue;
    const Elf64_Shdr& strtab = sh[s.sh_link];
    if (!fits(s.sh_offset, s.sh_size) || !fits(strtab.sh_offset, strtab.sh_size)) continue;
    const std::string_view names = elf.substr(strtab.sh_offset, strtab.sh_size);
    for (uint64_t o = 0; o + sizeof(Elf64_Sym) <= s.sh_size; o += sizeof(Elf64_Sym)) {
      Elf64_Sym sym;
      memcpy(&sym, elf.data() + s.sh_offset + o, sizeof sym);
      if (sym.st_name >= names.size()) continue;
      const std::string_view n = names.substr(sym.st_name);
      ElfSymbol e;
      e.name = n.substr(0, n.find('\0'));
      e.type = ELF64_ST_TYPE(sym.st_info);
      e.binding = ELF64_ST_BIND(sym.st_info);
      e.section = sym.st_shndx;
      e.value = sym.st_value;
      e.size = sym.st_size;
      fn(e);
    }
  }
}

}  // namespace loom::cpu_emulator
