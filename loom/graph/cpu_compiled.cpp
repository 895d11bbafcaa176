#include "loom/graph/cpu_compiled.h"

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

#include "loom/cache/compile_cache.h"
#include "loom/runtime/background_compile.h"
#include "loom/runtime/cpu/host_compiler.h"
#include "loom/runtime/cpu/loaded_library.h"
#include "loom/runtime/cpu/thread_pool.h"
#include "loom_embedded_kernels.h"

namespace loom::cpu_compiled {
namespace {

using cpu_codegen::LoopLayout;

// Why each flag: see the header. -O3 vectorizes the loop; -march=native picks the host's
// vector width; -fvisibility=hidden exports only the loop.
constexpr const char* kFlags =
    "-std=c++17 -O3 -march=native -ffp-contract=off -fno-math-errno -fno-trapping-math -fPIC -shared "
    "-fvisibility=hidden -w";
constexpr std::string_view kPayloadTag = "loom-cpu-loop-1";

struct Loop {
  FusedGraph graph;
  LoopLayout layout;
  std::unique_ptr<cpu_runtime::LoadedLibrary> library;  // set before fn
  std::atomic<FusedLoop> fn{nullptr};                   // null: compiling, failed or no compiler
};

struct Registry {
  std::mutex mu;
  std::unordered_multimap<uint64_t, std::unique_ptr<Loop>> loops;  // by graph_hash; never unloaded
};
Registry& registry() {
  static auto* r = new Registry;  // never destroyed: loops may run while the process exits
  return *r;
}

std::atomic<int64_t> g_min_elements{1 << 16};
std::atomic<uint64_t> g_loaded{0}, g_failed{0}, g_runs{0};

bool same_layout(const LoopLayout& a, const LoopLayout& b) { return a.inputs == b.inputs && a.in_place == b.in_place; }

bool disabled() {
  const char* v = std::getenv("LOOM_CPU_COMPILE");
  return v && std::string(v) == "0";
}

const Hash128& header_hash() {
  static const Hash128 h = [] {
    KeyBuilder k;
    for (const auto& e : embedded::kKernelHeaders) k.add(std::string_view(e.name)).add(std::string_view(e.source));
    return k.finish();
  }();
  return h;
}

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// The compiler's first error line (or the start of its log) for a one-line warning.
std::string first_error(const std::string& log) {
  const size_t at = log.find("error");
  const size_t begin = at == std::string::npos ? 0 : log.rfind('\n', at) + 1;  // npos + 1 == 0
  return log.substr(begin, std::min<size_t>(log.find('\n', begin) - begin, 300));
}

// The library of `source` (an ELF image), from the compile cache or the host compiler.
// Throws std::runtime_error with the compiler's first lines when it fails.
std::shared_ptr<const std::string> build(const std::string& source, const std::string& cxx,
                                         const std::string& identity) {
  const Hash128 key = KeyBuilder()
                          .add(kPayloadTag)
                          .add(std::string_view(source))
                          .add(header_hash())
                          .add(std::string_view(cxx))
                          .add(std::string_view(identity))
                          .add(std::string_view(cpu_runtime::cpu_identity()))
                          .add(std::string_view(kFlags))
                          .add(std::string_view(LOOM_VERSION))
                          .finish();
  return CompileCache::global().get_or_compile(
      "host", key,
      [&]() -> std::string {
        cpu_runtime::TempDir dir;
        for (const auto& h : embedded::kKernelHeaders) cpu_runtime::write_file(dir.path + "/" + h.name, h.source);
        cpu_runtime::write_file(dir.path + "/loop.cpp", source);
        std::string log;
        const std::string so = dir.path + "/loop.so";
        const int rc = cpu_runtime::run_command(cxx + " " + kFlags + " -I" + cpu_runtime::shell_quote(dir.path) +
                                                    " -o " + cpu_runtime::shell_quote(so) + " " +
                                                    cpu_runtime::shell_quote(dir.path + "/loop.cpp"),
                                                &log);
        if (rc != 0) throw std::runtime_error(first_error(log));
        return read_file(so);
      },
      [](std::string_view elf) { return elf.size() > 4 && elf.compare(0, 4, "\x7f" "ELF") == 0; });
}

void compile_into(Loop& loop, const std::string& cxx, const std::string& identity) {
  try {
    const std::string source = cpu_codegen::fused_loop_source(loop.graph, loop.layout);
    auto elf = build(source, cxx, identity);
    loop.library = std::make_unique<cpu_runtime::LoadedLibrary>(*elf, "[jit cpu loop]");
    const auto fn = reinterpret_cast<FusedLoop>(dlsym(loop.library->handle(), cpu_codegen::kLoopSymbol));
    if (!fn) throw std::runtime_error(std::string("the library has no ") + cpu_codegen::kLoopSymbol);
    loop.fn.store(fn);
    g_loaded.fetch_add(1);
  } catch (const std::exception& e) {
    if (g_failed.fetch_add(1) == 0)
      std::fprintf(stderr,
                   "loom: the host compiler (%s) failed on a fused CPU loop; loom.jit runs such graphs in its "
                   "evaluator instead (LOOM_CPU_COMPILE=0 skips compiling): %s\n",
                   cxx.c_str(), e.what());
  }
}

}  // namespace

FusedLoop fused_loop(const FusedGraph& g, const LoopLayout& layout) {
  if (disabled()) return nullptr;
  Registry& r = registry();
  const uint64_t h = graph_hash(g);
  Loop* loop = nullptr;
  {
    std::lock_guard<std::mutex> lock(r.mu);
    for (auto [it, last] = r.loops.equal_range(h); it != last; ++it)
      if (it->second->graph == g && same_layout(it->second->layout, layout)) return it->second->fn.load();
    auto fresh = std::make_unique<Loop>();
    fresh->graph = g;
    fresh->layout = layout;
    loop = fresh.get();
    r.loops.emplace(h, std::move(fresh));
  }
  // Read in the caller's thread: $CXX may change between calls, never under a compile.
  const std::string cxx = cpu_runtime::compiler();
  const std::string identity = cpu_runtime::compiler_identity(cxx);
  if (identity.empty()) return nullptr;  // no host compiler: the evaluator runs every graph
  if (background_compile::enabled()) {
    background_compile::post([loop, cxx, identity] { compile_into(*loop, cxx, identity); });
    return nullptr;  // this call runs the evaluator; a later one finds the loop
  }
  compile_into(*loop, cxx, identity);
  return loop->fn.load();
}

int64_t min_elements() { return g_min_elements.load(); }
int64_t set_min_elements(int64_t n) { return g_min_elements.exchange(n); }

Stats stats() { return Stats{g_loaded.load(), g_failed.load(), g_runs.load()}; }

bool run(const FusedGraph& g, const std::vector<Operand>& inputs, const std::vector<Operand>& outputs, int64_t n,
         int64_t grain) {
  using cpu_codegen::Access;
  LoopLayout layout;
  std::vector<const char*> in;
  for (const auto& o : inputs) {
    if (o.stride != 0 && o.stride != static_cast<int64_t>(o.item)) return false;
    layout.inputs.push_back(o.stride == 0 ? Access::scalar : Access::contiguous);
    in.push_back(o.data);
  }
  std::vector<char*> out;
  for (const auto& o : outputs) {
    if (o.stride != static_cast<int64_t>(o.item)) return false;
    out.push_back(const_cast<char*>(o.data));
    int same = -1;  // the contiguous input that is this output's memory (in place)
    for (size_t i = 0; i < in.size() && same < 0; ++i)
      if (layout.inputs[i] == Access::contiguous && in[i] == o.data) same = static_cast<int>(i);
    layout.in_place.push_back(same);
  }
  const FusedLoop fn = fused_loop(g, layout);
  if (!fn) return false;
  g_runs.fetch_add(1);
  if (n <= grain) fn(in.data(), out.data(), 0, n);
  else cpu_runtime::parallel_for(n, grain, [&](int64_t b, int64_t e) { fn(in.data(), out.data(), b, e); });
  return true;
}

}  // namespace loom::cpu_compiled
