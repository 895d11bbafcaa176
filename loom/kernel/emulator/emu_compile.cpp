// Compiling a RawModule for the CPU kernel emulator: the translation unit emu_source.h
// plans, built by $CXX into a shared library cached by the one compile cache (kind
// "host"), and loaded (loaded_library.h) once per process for all the modules that compile
// to it: the library is unloaded when the last of them goes. Debug mode (emulator.h, run())
// loads a second build of the same source, on its first debug-mode launch.
#include <dirent.h>
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <regex>
#include <set>
#include <stdexcept>
#include <unordered_map>

#include "loom/runtime/compile_log.h"
#include "loom/kernel/emulator/elf_symbols.h"
#include "loom/kernel/emulator/emu_source.h"
#include "loom/kernel/emulator/emulator.h"
#include "loom/kernel/emulator/host_compiler.h"
#include "loom/runtime/cpu/loaded_library.h"
#include "loom/kernel/emulator/pch.h"
#include "loom/kernel/emulator/shared_usage.h"
#include "loom/kernel/emulator/stack_usage.h"
#include "loom/cache/compile_cache.h"
#include "loom/core/error.h"
#include "loom/kernel/module_state.h"
#include "loom_embedded_kernels.h"
#include "loom_emulator_header.h"

namespace loom::cpu_emulator {
namespace {

// -ffp-contract=fast: NVRTC contracts a * b + c into an FMA by default (--fmad=true), so
// the emulator lets g++ do the same where the target has FMA; no fast-math, like NVRTC.
// No -march: results must not depend on the machine that compiled them.
// -fvisibility=hidden: only the entry points are exported, so the kernels (extern "C",
// otherwise interposable in a shared library) can be inlined into the block loop.
constexpr const char* kCodeFlags = "-std=c++17 -O2 -fPIC -fno-fast-math -ffp-contract=fast -fvisibility=hidden -w";
constexpr const char* kFlags = "-std=c++17 -O2 -fPIC -fno-fast-math -ffp-contract=fast -fvisibility=hidden -w -shared";
// Debug mode's build (emulator.h, run()): -g so a failed bounds check's address maps to
// the kernel's source line; -Og because -O2 merges the identical calls to the failure
// handler of different accesses (cross-jumping), and the line would be the wrong one.
// LOOM_EMU_DEBUG lets a kernel tell (#ifdef) that it runs in debug mode.
constexpr const char* kDebugFlags =
    "-std=c++17 -Og -g -fPIC -fno-fast-math -ffp-contract=fast -fvisibility=hidden -w -shared -DLOOM_EMU_DEBUG";
// g++ only: a `__shared__` variable that no code writes would be folded to the zero of its
// static initialisation; debug mode fills it with junk at each block start, and a read of it
// must see that junk (as a GPU's reads of unwritten shared memory see garbage).
constexpr const char* kDebugGccFlags = " -fno-ipa-reference-addressable";

bool is_gcc(const std::string& identity) {
  return identity.find("GCC") != std::string::npos || identity.find("g++") != std::string::npos;
}

// GCC 11 and later write the call graph with frame sizes (into the -dumpdir folder): fiber
// stacks are sized from it (stack_usage.h). Other compilers: a default size. The
// precompiled header must be built with the same flag (GCC 12 crashes otherwise).
std::string stack_flags(const std::string& identity) {
  static const std::regex version(R"((\d+)\.\d+\.\d+\s*$)");
  std::smatch m;
  if (!is_gcc(identity)) return "";
  if (!std::regex_search(identity, m, version) || std::stoi(m[1].str()) < 11) return "";
  return " -fcallgraph-info=su";
}

// The cache payload: a tag, the call graph text ("" when none) and the library.
constexpr std::string_view kPayloadTag = "loom-emu-1";
struct Payload {
  std::string callgraph, library;
};
bool decode(std::string_view s, Payload* p) {
  PayloadReader r(s);
  std::string tag;
  return r.bytes(&tag) && tag == kPayloadTag && r.bytes(&p->callgraph) && r.bytes(&p->library) && r.at_end() &&
         p->library.size() > 4 && p->library.compare(0, 4, "\x7f" "ELF") == 0;
}

// The first file in `dir` whose name ends with `suffix`, "" when none.
std::string read_first_with_suffix(const std::string& dir, const std::string& suffix) {
  DIR* d = opendir(dir.c_str());
  if (!d) return "";
  std::string found;
  while (dirent* e = readdir(d)) {
    const std::string n = e->d_name;
    if (n.size() > suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0) {
      found = dir + "/" + n;
      break;
    }
  }
  closedir(d);
  if (found.empty()) return "";
  std::ifstream f(found, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

// Includes a kernel may name: the CUDA ones the header stands in for, and the ones it
// cannot (they fail with the feature's name).
constexpr const char* kAssertShim =
    "#undef assert\n#ifdef NDEBUG\n#define assert(e) ((void)0)\n#else\n#define assert(e) (static_cast<bool>(e) ? void(0) : loom_emu::assert_fail(#e, __LINE__))\n#endif\n";

const std::pair<const char*, const char*> kStubHeaders[] = {
    {"cuda_runtime.h", ""}, {"cuda_runtime_api.h", ""}, {"cuda.h", ""}, {"cuda_fp16.h", ""},
    {"cuda_bf16.h", ""}, {"device_launch_parameters.h", ""}, {"math_constants.h", ""},
    {"cooperative_groups.h", ""},  // loom_cuda_emu_cg.h: this_grid, this_thread_block
    {"mma.h", "#error \"loom CPU emulator: wmma (tensor cores) is not supported\"\n"},
    {"cuda/barrier", "#error \"loom CPU emulator: cuda::barrier is not supported\"\n"},
    {"cub/cub.cuh", "#error \"loom CPU emulator: CUB is not supported\"\n"},
    // assert is loom_cuda_emu.h's (it raises on the host): a kernel's own include of
    // <assert.h> must not bring back glibc's, which aborts the process. Like C's, each
    // include honours NDEBUG as defined at that point.
    {"assert.h", kAssertShim},
    {"cassert", kAssertShim},
};

// The most stack a block loop may use on a worker's own stack: pool threads and the
// main thread have megabytes (8 MiB by default on Linux), part of it already in use.
constexpr uint64_t kLoopOnWorkerStack = 256 * 1024;

// One build of a module (the normal one, or debug mode's), shared by every module that
// compiles to it (the same cache key and planned kernels).
struct CpuLibrary {
  Hash128 id;                              // its name in loaded_libraries()
  std::unique_ptr<cpu_runtime::LoadedLibrary> library;  // first: unloaded after the functions that point into it go
  std::map<std::string, std::unique_ptr<EmuFunction>> functions;
  std::set<std::string> unexported;  // kernels defined but not findable by name (for messages)
  // Its variables at namespace scope by unmangled name (__device__ and __constant__ ones, which
  // the emulator makes plain globals): where they are once loaded, and their bytes.
  std::map<std::string, ModuleGlobal, std::less<>> globals;
  ~CpuLibrary();
};

struct CpuModule {
  std::mutex mu;
  // debug: compiled and loaded on the first debug-mode launch
  std::shared_ptr<const CpuLibrary> normal, debug;
};

// The libraries loaded now, by id: weak, so that the last module using one unloads it. A
// new RawKernel of a source already loaded costs no compile, no load and no memory.
struct LoadedLibraries {
  std::mutex mu;
  std::unordered_map<Hash128, std::weak_ptr<const CpuLibrary>, Hash128Hash> by_id;
};
LoadedLibraries& loaded_libraries() {
  static auto* l = new LoadedLibraries;  // never destroyed: modules may die at exit
  return *l;
}

CpuLibrary::~CpuLibrary() {
  LoadedLibraries& l = loaded_libraries();
  std::lock_guard<std::mutex> lock(l.mu);
  auto it = l.by_id.find(id);
  if (it != l.by_id.end() && it->second.expired()) l.by_id.erase(it);  // not a newer load of it
}

std::shared_ptr<const CpuLibrary> find_loaded(const Hash128& id) {
  LoadedLibraries& l = loaded_libraries();
  std::lock_guard<std::mutex> lock(l.mu);
  auto it = l.by_id.find(id);
  return it == l.by_id.end() ? nullptr : it->second.lock();
}

// Publishes `lib`, or returns the one another thread loaded meanwhile (`lib` is then
// unloaded as it goes, outside the lock).
std::shared_ptr<const CpuLibrary> share_loaded(std::shared_ptr<const CpuLibrary> lib) {
  LoadedLibraries& l = loaded_libraries();
  std::lock_guard<std::mutex> lock(l.mu);
  auto& slot = l.by_id[lib->id];
  if (auto existing = slot.lock()) return existing;
  slot = lib;
  return lib;
}

// What a library is shared by: its cache key, the module's own options (the key has only
// those the host compiler sees) and the kernels planned from it (names and what the
// executor is told about each), which the key covers only through the generated source.
// A per-module check in load() must come before find_loaded(), or its input belong here.
Hash128 library_id(const Hash128& key, const ModuleState& m, const Plan& p) {
  KeyBuilder k;
  k.add(key);
  for (const std::string& o : m.options) k.add(std::string_view(o));
  k.add(int64_t{-1});
  for (const PlannedKernel& pk : p.kernels) {
    k.add(std::string_view(pk.name)).add(int64_t{pk.uses_barrier}).add(int64_t{pk.whole_block}).add(static_cast<int64_t>(pk.pointer_params.size()));
    for (const std::string& n : pk.pointer_params) k.add(std::string_view(n));
  }
  for (const std::string& n : p.unexported) k.add(std::string_view(n));
  return k.finish();
}

// The library's data objects at namespace scope with unmangled names (C linkage, or C++ at
// global scope), at their loaded addresses: PyCUDA's get_global. Thread-locals (the
// `__shared__` variables) and the emulator's own objects are left out.
std::map<std::string, ModuleGlobal, std::less<>> library_globals(std::string_view elf, void* handle) {
  std::map<std::string, ModuleGlobal, std::less<>> out;
  link_map* lm = nullptr;
  if (dlinfo(handle, RTLD_DI_LINKMAP, &lm) != 0 || !lm) return out;
  for_each_elf_symbol(elf, [&](const ElfSymbol& sym) {
    if (sym.type != STT_OBJECT || sym.section == SHN_UNDEF || sym.name.empty() || sym.name.rfind("_Z", 0) == 0 ||
        sym.name.rfind("loom_emu", 0) == 0 || sym.name.find('.') != std::string_view::npos)
      return;
    out.emplace(std::string(sym.name), ModuleGlobal{reinterpret_cast<char*>(lm->l_addr) + sym.value, sym.size});
  });
  return out;
}

// Compiles (through the compile cache) and loads the library of module `m`, or finds it
// loaded already.
std::shared_ptr<const CpuLibrary> load(const ModuleState& m, const std::string& label, bool debug) {
  const Plan p = plan(m, debug);
  std::string flags = debug ? kDebugFlags : kFlags;
  const std::string cxx = compiler();
  const std::string opts = host_options(m.options, label);
  const std::string identity = compiler_identity(cxx);
  if (identity.empty())
    throw UnsupportedError(label + " the CPU kernel emulator needs a C++ compiler: '" + cxx +
                           " --version' failed (install g++ or set $CXX)");
  // g++ -O2 turns a division by a zero it can prove, or a NULL dereference, into ud2 (SIGILL);
  // this keeps the real instruction, so the fault guard names them as it names the others.
  const std::string sflags = stack_flags(identity) + (is_gcc(identity) ? " -fno-isolate-erroneous-paths-dereference" : "");
  if (debug && is_gcc(identity)) flags += kDebugGccFlags;
  static const Hash128 header_hash = [] {
    KeyBuilder k;
    k.add(std::string_view(embedded::kEmulatorHeader));
    for (const auto& h : embedded::kKernelHeaders) k.add(std::string_view(h.name)).add(std::string_view(h.source));
    return k.finish();
  }();
  const Hash128 key = KeyBuilder()
                          .add(std::string_view("loom-cpu-emulator"))
                          .add(std::string_view(p.source))
                          .add(std::string_view(opts))
                          .add(header_hash)
                          .add(std::string_view(identity))
                          .add(std::string_view(flags))
                          .add(std::string_view(sflags))
                          .add(kPayloadTag)
                          .add(std::string_view(LOOM_VERSION))
                          .finish();
  const Hash128 id = library_id(key, m, p);
  if (auto loaded = find_loaded(id)) return loaded;
  auto payload = CompileCache::global().get_or_compile(
      "host", key,
      [&]() -> std::string {
        TempDir dir;
        write_file(dir.path + "/loom_cuda_emu.h", embedded::kEmulatorHeader);
        mkdir((dir.path + "/cuda").c_str(), 0700);
        mkdir((dir.path + "/cub").c_str(), 0700);
        for (const auto& [name, text] : kStubHeaders) write_file(dir.path + "/" + name, text);
        // loom's own device headers (ElementwiseKernel and ReductionKernel sources include them).
        for (const auto& h : embedded::kKernelHeaders) write_file(dir.path + "/" + h.name, h.source);
        write_file(dir.path + "/module.cpp", p.source);
        std::string log;
        const std::string dump = sflags.empty() ? "" : " -dumpdir " + shell_quote(dir.path + "/");
        const std::string gch = dir.path + "/loom_cuda_emu.h.gch";
        auto compile = [&](const std::string& pch) {
          unlink(gch.c_str());
          if (!pch.empty() && symlink(pch.c_str(), gch.c_str()) != 0) {
            // no PCH then: the plain header compiles the same code
          }
          log.clear();
          return run_command(cxx + " " + flags + sflags + dump + " -I" + shell_quote(dir.path) + opts + " -o " +
                                 shell_quote(dir.path + "/module.so") + " " + shell_quote(dir.path + "/module.cpp"),
                             &log);
        };
        // The PCH is built with kCodeFlags; g++ would ignore it with debug mode's flags anyway.
        const std::string pch =
            debug ? std::string() : precompiled_header(cxx, identity, std::string(kCodeFlags) + sflags, !sflags.empty());
        int rc = compile(pch);
        if (rc != 0 && !pch.empty() && log_blames_pch(log)) {
          // A PCH g++ cannot read although its checksum matched: removed, and once more without it.
          discard_precompiled_header(pch);
          rc = compile("");
        }
        if (rc != 0) raise_compile_error(label, cxx, m.code, log, debug);
        std::ifstream f(dir.path + "/module.so", std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
        if (bytes.size() < 4) throw CompileError(label + " the host compiler wrote no library", log);
        // module.ci, from -dumpdir.
        const std::string callgraph = sflags.empty() ? "" : read_first_with_suffix(dir.path, ".ci");
        return PayloadWriter().bytes(kPayloadTag).bytes(callgraph).bytes(bytes).take();
      },
      [](std::string_view s) {
        Payload p;
        return decode(s, &p);
      });
  Payload decoded;
  if (!decode(*payload, &decoded)) throw std::runtime_error(label + " the CPU kernel emulator's compiled library is corrupt");
  const std::vector<size_t> shared = static_shared_per_kernel(decoded.library, p, label);  // may refuse, as ptxas
  auto cm = std::make_shared<CpuLibrary>();
  cm->id = id;
  cm->library = std::make_unique<cpu_runtime::LoadedLibrary>(decoded.library, label + " the CPU kernel emulator");
  void* const h = cm->library->handle();
  std::shared_ptr<const DebugLibrary> debug_library;
  if (debug) debug_library = open_debug_library(h, std::make_shared<const std::string>(std::move(decoded.library)));
  for (size_t i = 0; i < p.kernels.size(); ++i) {
    auto f = std::make_unique<EmuFunction>();
    f->name = p.kernels[i].name;
    f->uses_barrier = p.kernels[i].uses_barrier;
    f->whole_block = p.kernels[i].whole_block;
    f->cooperative = p.kernels[i].reaches.count("this_grid") > 0;
    f->debug = debug_library;
    f->pointer_params = p.kernels[i].pointer_params;
    const std::string n = std::to_string(i);
    f->block = reinterpret_cast<EntryFn>(dlsym(h, ("loom_emu_block_" + n).c_str()));
    f->thread = reinterpret_cast<EntryFn>(dlsym(h, ("loom_emu_thread_" + n).c_str()));
    auto params = reinterpret_cast<int (*)(size_t*, int)>(dlsym(h, ("loom_emu_params_" + n).c_str()));
    if (!f->block || !f->thread || !params)
      throw std::runtime_error(label + " the CPU kernel emulator's library lacks entry point " + n);
    f->param_sizes.resize(static_cast<size_t>(params(nullptr, 0)));
    params(f->param_sizes.data(), static_cast<int>(f->param_sizes.size()));
    const StackNeed thread_need = stack_need(decoded.callgraph, "loom_emu_thread_" + n);
    const StackNeed block_need = stack_need(decoded.callgraph, "loom_emu_block_" + n);
    f->local_bytes = thread_need.known ? thread_need.bytes : 0;
    f->thread_stack = fiber_stack_bytes(thread_need);
    // The loop runs on the worker's own stack (megabytes, also when the need is unknown or
    // unbounded) unless it needs more than a fraction of it: a fiber stack of its size then.
    f->block_stack = block_need.known && block_need.bytes > kLoopOnWorkerStack ? fiber_stack_bytes(block_need) : 0;
    f->static_shared_bytes = shared[i];
    f->max_threads = p.kernels[i].max_threads;
    cm->functions[f->name] = std::move(f);
  }
  cm->unexported = p.unexported;
  cm->globals = library_globals(decoded.library, h);
  return share_loaded(std::move(cm));
}


// The module's library (normal or debug-mode build), compiled and loaded on first use;
// `label` starts its messages.
const CpuLibrary& module_library(const ModuleState& m, const std::string& label, bool debug) {
  CpuModule* cm;
  {
    auto& state = const_cast<ModuleState&>(m);  // the lazily made backend data is logically const
    std::lock_guard<std::mutex> lock(state.mu);
    if (!state.cpu) state.cpu = std::make_shared<CpuModule>();
    cm = static_cast<CpuModule*>(state.cpu.get());
  }
  std::lock_guard<std::mutex> lock(cm->mu);  // one compile per module; failures retry next time
  std::shared_ptr<const CpuLibrary>& lib = debug ? cm->debug : cm->normal;
  if (!lib) lib = load(m, label, debug);
  return *lib;  // kept by the module for its life
}

}  // namespace

const EmuFunction& function(const ModuleState& m, const std::string& name, bool debug) {
  const CpuLibrary* lib = &module_library(m, "[RawKernel " + name + "]", debug);
  auto it = lib->functions.find(name);
  if (it == lib->functions.end()) {
    if (lib->unexported.count(name))
      throw std::invalid_argument("[RawModule] the kernel '" + name +
                                  "' is a template or has C++ linkage, so its symbol is mangled: declare it "
                                  "extern \"C\" or list it (e.g. '" + name + "<float>') in name_expressions");
    throw std::invalid_argument(
        "[RawModule] the module has no kernel named '" + name +
        "': a kernel is found by its extern \"C\" name; a C++ (mangled) or template kernel "
        "must be listed in name_expressions");
  }
  return *it->second;
}

ModuleGlobal global(const ModuleState& m, const std::string& name) {
  const CpuLibrary& lib = module_library(m, "[RawModule.get_global]", false);
  auto it = lib.globals.find(name);
  if (it == lib.globals.end())
    throw std::invalid_argument("[RawModule.get_global] the module has no variable named '" + name +
                                "' at namespace scope (a __device__ or __constant__ variable, found by its "
                                "unmangled name)");
  return it->second;
}

}  // namespace loom::cpu_emulator
