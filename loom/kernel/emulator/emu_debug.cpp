// The executor's side of the emulator's debug mode (emulator.h, run()): junk in the static
// `__shared__` variables at each block start, and the message of a failed bounds check,
// with the kernel's source line found by addr2line in the debug library's line table; and
// the size of a library's thread-local segment (also Kernel.attributes' shared bound).
#include <dlfcn.h>
#include <link.h>

#include <cstdio>
#include <cstring>
#include <regex>
#include <string>

#include "loom/kernel/emulator/emulator.h"
#include "loom/kernel/emulator/host_compiler.h"

namespace loom::cpu_emulator {
namespace {

// PT_TLS's p_memsz of the loaded object whose TLS module id is `modid`.
size_t tls_block_size(size_t modid) {
  struct Query {
    size_t modid, size = 0;
  } q{modid};
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        auto* q = static_cast<Query*>(data);
        if (info->dlpi_tls_modid != q->modid) return 0;
        for (int i = 0; i < info->dlpi_phnum; ++i)
          if (info->dlpi_phdr[i].p_type == PT_TLS) q->size = info->dlpi_phdr[i].p_memsz;
        return 1;
      },
      &q);
  return q.size;
}

// The kernel source line (of loom_kernel.cu, the name #line gives the user's source) of
// the code at `pc` in `lib`; 0 when it cannot be told. Runs addr2line on a copy of the
// library (the loaded copy was removed after dlopen); -i lists the inlined frames, innermost
// first: the first loom_kernel.cu frame is the access (the check itself is in the header).
int source_line(const DebugLibrary& lib, void* pc, bool exact = false) {
  Dl_info info;
  if (!pc || !lib.bytes || dladdr(pc, &info) == 0 || !info.dli_fbase) return 0;
  // A return address is just past the call: the byte before it belongs to the call.
  const unsigned long long offset =
      static_cast<unsigned long long>(static_cast<char*>(pc) - static_cast<char*>(info.dli_fbase)) - (exact ? 0 : 1);
  try {
    TempDir dir;
    const std::string path = dir.path + "/module.so";
    write_file(path, *lib.bytes);
    char hex[32];
    snprintf(hex, sizeof(hex), "0x%llx", offset);
    std::string out;
    if (run_command("addr2line -i -e " + shell_quote(path) + " " + hex, &out) != 0) return 0;
    static const std::regex re(R"(loom_kernel\.cu:(\d+))");
    std::smatch m;
    if (std::regex_search(out, m, re)) return std::stoi(m[1].str());
  } catch (const std::exception&) {
  }
  return 0;
}

}  // namespace

size_t tls_segment_bytes(void* handle) {
  size_t modid = 0;
  if (dlinfo(handle, RTLD_DI_TLS_MODID, &modid) != 0 || modid == 0) return 0;  // no thread-locals
  return tls_block_size(modid);
}

std::shared_ptr<DebugLibrary> open_debug_library(void* handle, std::shared_ptr<const std::string> bytes) {
  auto lib = std::make_shared<DebugLibrary>();
  lib->handle = handle;
  lib->bytes = std::move(bytes);
  lib->tls_anchor = reinterpret_cast<void* (*)()>(dlsym(handle, "loom_emu_tls_anchor"));
  if (lib->tls_anchor) lib->tls_size = tls_segment_bytes(handle);
  return lib;
}

void fill_static_shared(const DebugLibrary& lib) {
  if (lib.tls_size == 0) return;
  // `__shared__` is `static thread_local` (loom_cuda_emu.h): the library's thread-local
  // block holds every static shared variable of every kernel (and loom_emu_current, which
  // is kept). Touching a thread_local first makes sure this thread's block exists: glibc
  // allocates a dlopen'ed library's block lazily, and RTLD_DI_TLS_DATA reports null until then.
  void** current = static_cast<void**>(lib.tls_anchor());
  void* block = nullptr;
  if (dlinfo(lib.handle, RTLD_DI_TLS_DATA, &block) != 0 || !block) return;
  void* const saved = *current;
  // 0xFF bytes: a float, double or half read from them is a NaN, an int -1, an unsigned
  // its largest value and a pointer a faulting address; a read of shared memory no thread
  // wrote shows up in the results instead of reading a stale, plausible value.
  memset(block, 0xFF, lib.tls_size);
  *current = saved;
}

int fault_source_line(const DebugLibrary& lib, void* pc, void* const* frames, int nframes) {
  // Only addresses inside the library map to its lines: the faulting instruction itself,
  // else (a fault inside libc's vsnprintf under the header's printf, say) the innermost
  // call from the library whose line is in the kernel source (not in loom_cuda_emu.h).
  Dl_info mine, at;
  if (!lib.tls_anchor || dladdr(reinterpret_cast<void*>(lib.tls_anchor), &mine) == 0) return 0;
  auto inside = [&](void* p) { return p && dladdr(p, &at) != 0 && at.dli_fbase == mine.dli_fbase; };
  if (inside(pc))
    if (const int line = source_line(lib, pc, true)) return line;
  int i = 0;
  while (i < nframes && frames[i] != pc) ++i;  // the frames above the handler's own
  for (i = i < nframes ? i + 1 : 0; i < nframes; ++i)
    if (inside(frames[i]))
      if (const int line = source_line(lib, frames[i])) return line;
  return 0;
}

std::string describe_fault(const EmuFunction& f, const loom_emu::ThreadCtx& ctx, const DebugLaunch& d) {
  const loom_emu::Fault& fault = ctx.fault;
  const int line = f.debug ? source_line(*f.debug, fault.pc) : 0;
  std::string msg = "out-of-bounds access";
  msg += line > 0 ? " at line " + std::to_string(line) + " of the kernel source" : " (at a line loom could not tell)";
  const size_t a = static_cast<size_t>(fault.arg);
  if (a >= d.ranges.size()) return msg;
  const long long offset = static_cast<long long>(fault.addr - d.data[a]);
  const long long item = static_cast<long long>(d.itemsize[a]);
  msg += ": ";
  if (fault.size != d.itemsize[a]) msg += "a " + std::to_string(fault.size) + "-byte access at ";
  msg += "byte offset " + std::to_string(offset);
  if (item > 0 && offset % item == 0) msg += " (element " + std::to_string(offset / item) + ")";
  msg += " of " + d.what[a] + " argument " + std::to_string(a);
  if (a < f.pointer_params.size() && !f.pointer_params[a].empty()) msg += " (" + f.pointer_params[a] + ")";
  return msg;
}

}  // namespace loom::cpu_emulator
