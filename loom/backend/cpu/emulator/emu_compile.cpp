// Compiling a RawModule for the CPU kernel emulator: the user's source, with
// `extern __shared__` declarations rewritten, after the portability header and before
// generated entry points, built by $CXX into a shared library cached by the one compile
// cache (kind "host") and dlopen'ed once per module for the life of the process.
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>

#include "loom/backend/compile_log.h"
#include "loom/backend/cpu/emulator/emulator.h"
#include "loom/cache/compile_cache.h"
#include "loom/error.h"
#include "loom/kernel/module_state.h"
#include "loom_embedded_kernels.h"
#include "loom_emulator_header.h"

namespace loom::cpu_emulator {
namespace {

constexpr const char* kProgramName = "loom_kernel.cu";  // what compiler logs call the source
// -ffp-contract=fast: NVRTC contracts a * b + c into an FMA by default (--fmad=true), so
// the emulator lets g++ do the same where the target has FMA; no fast-math, like NVRTC.
// No -march: results must not depend on the machine that compiled them.
// -fvisibility=hidden: only the entry points are exported, so the kernels (extern "C",
// otherwise interposable in a shared library) can be inlined into the block loop.
constexpr const char* kCodeFlags = "-std=c++17 -O2 -fPIC -fno-fast-math -ffp-contract=fast -fvisibility=hidden -w";
constexpr const char* kFlags = "-std=c++17 -O2 -fPIC -fno-fast-math -ffp-contract=fast -fvisibility=hidden -w -shared";

std::string compiler() {
  const char* cxx = getenv("CXX");
  return cxx && *cxx ? cxx : "g++";
}

std::string shell_quote(const std::string& s) {
  std::string r = "'";
  for (char c : s) r += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return r + "'";
}

// Runs `cmd` with stderr folded into stdout; returns the exit status (127: not found).
int run_command(const std::string& cmd, std::string* out) {
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return -1;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out->append(buf, n);
  const int st = pclose(p);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

// `$CXX --version`'s first line, once per compiler: part of every cache key.
std::string compiler_identity(const std::string& cxx) {
  static std::mutex mu;
  static std::map<std::string, std::string> known;
  std::lock_guard<std::mutex> lock(mu);
  auto it = known.find(cxx);
  if (it != known.end()) return it->second;
  std::string out;
  const int rc = run_command(cxx + " --version", &out);
  std::string id = rc == 0 ? out.substr(0, out.find('\n')) : std::string();
  known[cxx] = id;
  return id;
}

// The source with comments and string literals blanked (newlines kept), for scanning.
std::string strip_comments(const std::string& s) {
  std::string r = s;
  for (size_t i = 0; i < r.size(); ++i) {
    if (r[i] == '/' && i + 1 < r.size() && r[i + 1] == '/') {
      while (i < r.size() && r[i] != '\n') r[i++] = ' ';
    } else if (r[i] == '/' && i + 1 < r.size() && r[i + 1] == '*') {
      r[i] = r[i + 1] = ' ';
      i += 2;
      while (i + 1 < r.size() && !(r[i] == '*' && r[i + 1] == '/')) {
        if (r[i] != '\n') r[i] = ' ';
        ++i;
      }
      if (i + 1 < r.size()) r[i] = r[i + 1] = ' ';
      ++i;
    } else if (r[i] == '"') {
      ++i;
      while (i < r.size() && r[i] != '"' && r[i] != '\n') {
        if (r[i] == '\\' && i + 1 < r.size()) r[i++] = ' ';
        r[i++] = ' ';
      }
    }
  }
  return r;
}

struct Found {
  std::string name;
  bool is_template = false;
  size_t body_begin = 0, body_end = 0;  // [begin, end) of the body in the stripped text
};

// Every __global__ function definition.
std::vector<Found> find_kernels(const std::string& text) {
  static const std::regex re(
      R"(__global__\s+(?:static\s+)?(?:__launch_bounds__\s*\([^)]*\)\s*)?void\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?(\w+)\s*\()");
  std::vector<Found> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it) {
    Found f;
    f.name = (*it)[1].str();
    size_t p = static_cast<size_t>(it->position(0));
    // "template <...> __global__ void k(": the last non-space character before is '>'.
    size_t q = p;
    while (q > 0 && isspace(static_cast<unsigned char>(text[q - 1]))) --q;
    f.is_template = q > 0 && text[q - 1] == '>';
    size_t i = static_cast<size_t>(it->position(0) + it->length(0));  // after '('
    int depth = 1;
    while (i < text.size() && depth > 0) depth += text[i] == '(' ? 1 : text[i] == ')' ? -1 : 0, ++i;
    while (i < text.size() && text[i] != '{' && text[i] != ';') ++i;
    if (i >= text.size() || text[i] == ';') continue;  // a declaration: the definition comes elsewhere
    f.body_begin = i;
    depth = 0;
    do {
      depth += text[i] == '{' ? 1 : text[i] == '}' ? -1 : 0;
      ++i;
    } while (i < text.size() && depth > 0);
    f.body_end = i;
    out.push_back(f);
  }
  return out;
}

// `extern __shared__ T name[];` cannot be a macro: it becomes an object that reads the
// running block's arena (at namespace scope too). Newlines inside the match are kept so
// line numbers still match the user's source.
std::string rewrite_dynamic_shared(const std::string& code) {
  static const std::regex re(
      R"(extern\s+__shared__\s+(?:__align__\s*\(\s*\d+\s*\)\s*)?([A-Za-z_][\w:\s<>,*]*?)\s*(?:__align__\s*\(\s*\d+\s*\)\s*)?\b([A-Za-z_]\w*)\s*\[\s*\]\s*;)");
  std::string out;
  auto last = code.cbegin();
  for (auto it = std::sregex_iterator(code.begin(), code.end(), re); it != std::sregex_iterator(); ++it) {
    const auto& m = *it;
    out.append(last, m[0].first);
    out += "static constexpr loom_emu::DynamicShared<" + m[1].str() + "> " + m[2].str() + "{};";
    for (auto c = m[0].first; c != m[0].second; ++c)
      if (*c == '\n') out += '\n';
    last = m[0].second;
  }
  out.append(last, code.cend());
  return out;
}

struct Plan {
  std::string source;  // the whole translation unit
  std::vector<std::pair<std::string, bool>> kernels;  // name, uses a barrier
};

Plan plan(const ModuleState& m) {
  const std::string text = strip_comments(m.code);
  const std::vector<Found> found = find_kernels(text);
  // A __syncthreads outside every kernel body (in a __device__ helper) may be reached from
  // any kernel: then every kernel runs as fibers.
  size_t total = 0, inside = 0;
  for (size_t p = text.find("__syncthreads"); p != std::string::npos; p = text.find("__syncthreads", p + 1)) {
    ++total;
    for (const Found& f : found)
      if (p >= f.body_begin && p < f.body_end) {
        ++inside;
        break;
      }
  }
  const bool helper_syncs = inside < total;
  auto uses_barrier = [&](const std::string& base) {
    if (helper_syncs) return true;
    for (const Found& f : found)
      if (f.name == base && text.find("__syncthreads", f.body_begin) < f.body_end) return true;
    return false;
  };
  Plan p;
  std::set<std::string> seen;
  for (const std::string& e : m.name_expressions) {
    if (!seen.insert(e).second) continue;
    std::string base = e.substr(0, e.find('<'));
    while (!base.empty() && isspace(static_cast<unsigned char>(base.back()))) base.pop_back();
    p.kernels.emplace_back(e, uses_barrier(base));
  }
  for (const Found& f : found)
    if (!f.is_template && seen.insert(f.name).second) p.kernels.emplace_back(f.name, uses_barrier(f.name));

  std::ostringstream s;
  s << "#include \"loom_cuda_emu.h\"\n#line 1 \"" << kProgramName << "\"\n"
    << rewrite_dynamic_shared(m.code) << "\n#line 1 \"loom_emulator_entry_points.cpp\"\n";
  for (size_t i = 0; i < p.kernels.size(); ++i) {
    const std::string& n = p.kernels[i].first;
    s << "extern \"C\" LOOM_EMU_EXPORT void loom_emu_block_" << i << "(void** a, loom_emu::ThreadCtx* c) { loom_emu::run_block<&"
      << n << ">(a, c); }\n"
      << "extern \"C\" LOOM_EMU_EXPORT void loom_emu_thread_" << i << "(void** a, loom_emu::ThreadCtx* c) { loom_emu::run_thread<&"
      << n << ">(a, c); }\n"
      << "extern \"C\" LOOM_EMU_EXPORT int loom_emu_params_" << i << "(size_t* s, int cap) { return loom_emu::param_sizes<&" << n
      << ">(s, cap); }\n";
  }
  p.source = s.str();
  return p;
}

// Includes a kernel may name: the CUDA ones the header stands in for, and the ones it
// cannot (they fail with the feature's name).
const std::pair<const char*, const char*> kStubHeaders[] = {
    {"cuda_runtime.h", ""}, {"cuda_runtime_api.h", ""}, {"cuda.h", ""}, {"cuda_fp16.h", ""},
    {"cuda_bf16.h", ""}, {"device_launch_parameters.h", ""}, {"math_constants.h", ""},
    {"cooperative_groups.h", "#error \"loom CPU emulator: cooperative groups is not supported\"\n"},
    {"mma.h", "#error \"loom CPU emulator: wmma (tensor cores) is not supported\"\n"},
    {"cuda/barrier", "#error \"loom CPU emulator: cuda::barrier is not supported\"\n"},
    {"cub/cub.cuh", "#error \"loom CPU emulator: CUB is not supported\"\n"},
};

void write_file(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  if (!f) throw std::runtime_error("[RawModule] the CPU kernel emulator cannot write " + path);
}

struct TempDir {
  std::string path;
  TempDir() {
    const char* t = getenv("TMPDIR");
    std::string tmpl = std::string(t && *t ? t : "/tmp") + "/loom-emu-XXXXXX";
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("[RawModule] the CPU kernel emulator cannot make " + tmpl);
    path = tmpl;
  }
  ~TempDir() {
    std::string out;
    run_command("rm -rf " + shell_quote(path), &out);
  }
};

// Options NVRTC and g++ share (macros, include folders) pass through; the rest
// (architecture, -use_fast_math, -lineinfo, ...) mean nothing to the host compiler.
std::string host_options(const std::vector<std::string>& options) {
  std::string r;
  for (size_t i = 0; i < options.size(); ++i) {
    const std::string& o = options[i];
    if (o.rfind("-D", 0) == 0 || o.rfind("-U", 0) == 0 || o.rfind("-I", 0) == 0) {
      r += " " + shell_quote(o);
      if (o.size() == 2 && i + 1 < options.size()) r += " " + shell_quote(options[++i]);
    } else if (o.rfind("--define-macro=", 0) == 0) {
      r += " " + shell_quote("-D" + o.substr(15));
    } else if (o.rfind("--include-path=", 0) == 0) {
      r += " " + shell_quote("-I" + o.substr(15));
    }
  }
  return r;
}

[[noreturn]] void raise_compile_error(const std::string& label, const std::string& cxx, const std::string& code,
                                      const std::string& log) {
  static const std::regex unsupported(R"(loom CPU emulator: (.+?) is not supported)");
  static const std::regex line_re(std::string(R"(loom_kernel\.cu:(\d+))"));
  std::smatch u, l;
  if (std::regex_search(log, u, unsupported)) {
    std::string where;
    if (std::regex_search(log, l, line_re)) where = " (line " + l[1].str() + " of the kernel source)";
    throw UnsupportedError(label + " the CPU kernel emulator does not support " + u[1].str() + where +
                           "; run this kernel on a GPU");
  }
  const std::string excerpt = source_excerpt(code, log, kProgramName);
  throw CompileError(label + " the host C++ compiler (" + cxx + ") failed to compile the kernel source for the "
                             "CPU kernel emulator" + (excerpt.empty() ? std::string() : ":\n" + excerpt),
                     log);
}

// A precompiled loom_cuda_emu.h for g++ (about 30 MB, once per compiler, flags and header
// in the cache folder): halves the compile of a small kernel. "" when there is no disk
// cache or the compiler is not g++ or it fails; g++ silently ignores a PCH that does not
// fit (e.g. -D options that change the header), so using it is never wrong.
std::string precompiled_header(const std::string& cxx, const std::string& identity) {
  if (identity.find("GCC") == std::string::npos && identity.find("g++") == std::string::npos) return "";
  const std::string cache = compile_cache_dir();
  if (cache.empty()) return "";
  const Hash128 key = KeyBuilder()
                          .add(std::string_view("loom-emu-pch"))
                          .add(std::string_view(identity))
                          .add(std::string_view(kCodeFlags))
                          .add(std::string_view(embedded::kEmulatorHeader))
                          .add(std::string_view(LOOM_VERSION))
                          .finish();
  const std::string folder = cache + "/host-pch", path = folder + "/" + key.hex() + ".gch";
  static std::mutex mu;  // one build at a time in this process; other processes race harmlessly
  std::lock_guard<std::mutex> lock(mu);
  if (access(path.c_str(), R_OK) == 0) return path;
  std::string out;
  if (run_command("mkdir -p " + shell_quote(folder), &out) != 0) return "";
  try {
    TempDir dir;
    write_file(dir.path + "/loom_cuda_emu.h", embedded::kEmulatorHeader);
    const std::string tmp = path + ".tmp" + std::to_string(getpid());
    if (run_command(cxx + " " + kCodeFlags + " -x c++-header " + shell_quote(dir.path + "/loom_cuda_emu.h") +
                        " -o " + shell_quote(tmp),
                    &out) != 0 ||
        rename(tmp.c_str(), path.c_str()) != 0) {
      unlink(tmp.c_str());
      return "";
    }
  } catch (const std::exception&) {
    return "";
  }
  return path;
}

struct CpuModule {
  std::mutex mu;
  bool loaded = false;
  void* handle = nullptr;  // kept loaded for the life of the process
  std::map<std::string, std::unique_ptr<EmuFunction>> functions;
};

void load(const ModuleState& m, CpuModule& cm, const std::string& label) {
  const Plan p = plan(m);
  const std::string cxx = compiler();
  const std::string opts = host_options(m.options);
  const std::string identity = compiler_identity(cxx);
  if (identity.empty())
    throw UnsupportedError(label + " the CPU kernel emulator needs a C++ compiler: '" + cxx +
                           " --version' failed (install g++ or set $CXX)");
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
                          .add(std::string_view(kFlags))
                          .add(std::string_view(LOOM_VERSION))
                          .finish();
  auto payload = CompileCache::global().get_or_compile(
      "host", key,
      [&]() -> std::string {
        TempDir dir;
        write_file(dir.path + "/loom_cuda_emu.h", embedded::kEmulatorHeader);
        const std::string pch = precompiled_header(cxx, identity);
        if (!pch.empty() && symlink(pch.c_str(), (dir.path + "/loom_cuda_emu.h.gch").c_str()) != 0) {
          // no PCH then: the plain header compiles the same code
        }
        mkdir((dir.path + "/cuda").c_str(), 0700);
        mkdir((dir.path + "/cub").c_str(), 0700);
        for (const auto& [name, text] : kStubHeaders) write_file(dir.path + "/" + name, text);
        // loom's own device headers (ElementwiseKernel and ReductionKernel sources include them).
        for (const auto& h : embedded::kKernelHeaders) write_file(dir.path + "/" + h.name, h.source);
        write_file(dir.path + "/module.cpp", p.source);
        std::string log;
        const int rc = run_command(cxx + " " + kFlags + " -I" + shell_quote(dir.path) + opts + " -o " +
                                       shell_quote(dir.path + "/module.so") + " " +
                                       shell_quote(dir.path + "/module.cpp"),
                                   &log);
        if (rc != 0) raise_compile_error(label, cxx, m.code, log);
        std::ifstream f(dir.path + "/module.so", std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
        if (bytes.size() < 4) throw CompileError(label + " the host compiler wrote no library", log);
        return bytes;
      },
      [](std::string_view s) { return s.size() > 4 && s.substr(0, 4) == "\x7f" "ELF"; });
  // dlopen needs a file: a private temp copy, removed once loaded.
  TempDir dir;
  const std::string path = dir.path + "/module.so";
  write_file(path, *payload);
  void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) throw std::runtime_error(label + " the CPU kernel emulator cannot load its library: " + dlerror());
  cm.handle = h;
  for (size_t i = 0; i < p.kernels.size(); ++i) {
    auto f = std::make_unique<EmuFunction>();
    f->name = p.kernels[i].first;
    f->uses_barrier = p.kernels[i].second;
    const std::string n = std::to_string(i);
    f->block = reinterpret_cast<EntryFn>(dlsym(h, ("loom_emu_block_" + n).c_str()));
    f->thread = reinterpret_cast<EntryFn>(dlsym(h, ("loom_emu_thread_" + n).c_str()));
    auto params = reinterpret_cast<int (*)(size_t*, int)>(dlsym(h, ("loom_emu_params_" + n).c_str()));
    if (!f->block || !f->thread || !params)
      throw std::runtime_error(label + " the CPU kernel emulator's library lacks entry point " + n);
    f->param_sizes.resize(static_cast<size_t>(params(nullptr, 0)));
    params(f->param_sizes.data(), static_cast<int>(f->param_sizes.size()));
    cm.functions[f->name] = std::move(f);
  }
  cm.loaded = true;
}

}  // namespace

const EmuFunction& function(const ModuleState& m, const std::string& name) {
  CpuModule* cm;
  {
    auto& state = const_cast<ModuleState&>(m);  // the lazily made backend data is logically const
    std::lock_guard<std::mutex> lock(state.mu);
    if (!state.cpu) state.cpu = std::make_shared<CpuModule>();
    cm = static_cast<CpuModule*>(state.cpu.get());
  }
  std::lock_guard<std::mutex> lock(cm->mu);  // one compile per module; failures retry next time
  if (!cm->loaded) load(m, *cm, "[RawKernel " + name + "]");
  auto it = cm->functions.find(name);
  if (it == cm->functions.end())
    throw std::invalid_argument(
        "[RawModule] the module has no kernel named '" + name +
        "': a kernel is found by its extern \"C\" name; a C++ (mangled) or template kernel "
        "must be listed in name_expressions");
  return *it->second;
}

}  // namespace loom::cpu_emulator
