#include "loom/kernel/emulator/shared_usage.h"

#include <cxxabi.h>
#include <elf.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "loom/kernel/emulator/elf_symbols.h"
#include "loom/kernel/emulator/emu_source.h"
#include "loom/core/error.h"

namespace loom::cpu_emulator {
namespace {

std::string demangle(const std::string& symbol) {
  if (symbol.rfind("_Z", 0) != 0) return symbol;  // a C name: itself
  int status = 0;
  char* d = abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status);
  if (!d) return symbol;
  std::string r = d;
  free(d);
  return r;
}

// The position of the last "::" of `s` outside <>, () and {} (so not one inside a
// template argument, parameter list or lambda's name); npos when none.
size_t last_scope(const std::string& s) {
  int depth = 0;
  for (size_t i = s.size(); i-- > 1;) {
    const char c = s[i];
    if (c == '>' || c == ')' || c == '}') ++depth;
    if (c == '<' || c == '(' || c == '{') --depth;
    if (depth == 0 && c == ':' && s[i - 1] == ':') return i - 1;
  }
  return std::string::npos;
}

// A demangled function's own name: "void ns::k<float>(float*) const" gives "k".
std::string function_name(std::string f) {
  const size_t close = f.rfind(')');
  if (close != std::string::npos) {  // drop the parameter list (and what follows it)
    int depth = 0;
    size_t i = close + 1;
    while (i-- > 0) {
      depth += f[i] == ')' ? 1 : f[i] == '(' ? -1 : 0;
      if (depth == 0) break;
    }
    f.resize(i == std::string::npos ? 0 : i);
  }
  while (!f.empty() && f.back() == '>') {  // and template arguments
    int depth = 0;
    size_t i = f.size();
    while (i-- > 0) {
      depth += f[i] == '>' ? 1 : f[i] == '<' ? -1 : 0;
      if (depth == 0) break;
    }
    f.resize(i == std::string::npos ? 0 : i);
  }
  size_t b = f.size();
  while (b > 0 && (isalnum(static_cast<unsigned char>(f[b - 1])) || f[b - 1] == '_')) --b;
  return f.substr(b);
}

// The emulator's, the C++ library's, and libsupc++'s exception globals ("(anonymous
// namespace)::get_global()::global", 16 bytes), which a toolchain that links libstdc++
// statically puts into the library (g++ 13 on the GPU machine did, in debug builds).
bool ours(const std::string& demangled) {
  for (const char* p : {"loom_emu", "std::", "__gnu_cxx::", "__cxxabiv1::", "guard variable", "TLS ",
                        "(anonymous namespace)::get_global()::global"})
    if (demangled.rfind(p, 0) == 0) return true;
  return false;
}

}  // namespace

std::string owning_function(const std::string& demangled, std::string* name) {
  size_t s = last_scope(demangled);
  *name = s == std::string::npos ? demangled : demangled.substr(s + 2);
  if (s == std::string::npos) return "";
  std::string owner = demangled.substr(0, s);
  // Inside a lambda or local class, the variable belongs to the enclosing function.
  for (size_t l = owner.find("::{lambda"); l != std::string::npos; l = owner.find("::{lambda"))
    owner.resize(l);
  // A function has a parameter list, unless it is extern "C" ("k::tile"), which a
  // namespace ("ns::tile") cannot be told from: both are taken as its function name.
  return function_name(owner);
}

std::vector<SharedObject> shared_objects(std::string_view elf) {
  std::vector<SharedObject> out;
  for_each_elf_symbol(elf, [&](const ElfSymbol& sym) {
    if (sym.type != STT_TLS || sym.size == 0) return;
    const std::string symbol(sym.name);
    const std::string d = demangle(symbol);
    if (symbol.rfind("_ZGV", 0) == 0 || ours(d)) return;
    SharedObject obj;
    // Only local names (_ZZ) belong to a function; others are at namespace scope.
    if (symbol.rfind("_ZZ", 0) == 0) {
      obj.function = owning_function(d, &obj.name);
    } else {
      const size_t sc = last_scope(d);
      obj.name = sc == std::string::npos ? d : d.substr(sc + 2);
    }
    obj.size = sym.size;
    out.push_back(obj);
  });
  return out;
}

namespace {
bool charged(const SharedObject& o, const PlannedKernel& k, const Plan& p) {
  return o.function.empty() ? k.reaches.count(o.name) > 0
                            : k.reaches.count(o.function) > 0 || !p.functions.count(o.function);
}
}  // namespace

uint64_t static_shared_bytes(const std::vector<SharedObject>& objects, const PlannedKernel& k, const Plan& p) {
  uint64_t total = 0;
  for (const SharedObject& o : objects)
    if (charged(o, k, p)) total += o.size;
  return total;
}

std::vector<size_t> static_shared_per_kernel(std::string_view elf, const Plan& p, const std::string& label) {
  const std::vector<SharedObject> objects = shared_objects(elf);
  std::vector<size_t> bytes;
  for (const PlannedKernel& k : p.kernels) {
    bytes.push_back(static_cast<size_t>(static_shared_bytes(objects, k, p)));
    if (bytes.back() <= kMaxStaticShared) continue;
    char line[512];
    snprintf(line, sizeof line, "ptxas error   : Entry function '%s' uses too much shared data (0x%zx bytes, 0x%zx max)",
             k.name.c_str(), bytes.back(), kMaxStaticShared);
    // Which variables were counted, so a surprising total can be traced to its parts.
    std::string parts;
    for (const SharedObject& o : objects)
      if (charged(o, k, p))
        parts += (parts.empty() ? "" : ", ") + (o.function.empty() ? "" : o.function + "::") + o.name + " (" +
                 std::to_string(o.size) + " bytes)";
    throw CompileError(label + " the kernel source does not compile for a GPU, where NVRTC reports:\n" + line +
                           "\n(the CPU kernel emulator checks a GPU's limits: at most 48 KiB of static __shared__ "
                           "variables per kernel; more must be dynamic, extern __shared__ with shared_mem=; counted: " +
                           parts + ")",
                       line);
  }
  return bytes;
}

}  // namespace loom::cpu_emulator
