#include "loom/kernel/emulator/host_compiler.h"

#include <stdlib.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <regex>
#include <stdexcept>

#include "loom/runtime/compile_log.h"
#include "loom/kernel/emulator/emu_source.h"
#include "loom/core/error.h"

namespace loom::cpu_emulator {
namespace {

// NVRTC's options (its documentation, "Supported Compile Options"), long and short
// spellings. kFlag: no value; kBool: =true|false; kValue: =value. `host` names what the
// host compiler gets: the flag it stands for, or "" (meaningless on the host: dropped).
enum Kind { kFlag, kBool, kValue };
struct NvrtcOption {
  const char* name;
  const char* short_name;
  Kind kind;
  const char* host;
};
constexpr NvrtcOption kNvrtcOptions[] = {
    {"--gpu-architecture", "-arch", kValue, ""},
    {"--device-c", "-dc", kFlag, ""},
    {"--device-w", "-dw", kFlag, ""},
    {"--relocatable-device-code", "-rdc", kBool, ""},
    {"--extensible-whole-program", "-ewp", kFlag, ""},
    {"--device-debug", "-G", kFlag, ""},
    {"--generate-line-info", "-lineinfo", kFlag, ""},
    {"--dopt", "-dopt", kValue, ""},
    {"--ptxas-options", "-Xptxas", kValue, ""},
    {"--maxrregcount", "-maxrregcount", kValue, ""},
    {"--ftz", "-ftz", kBool, ""},
    {"--prec-sqrt", "-prec-sqrt", kBool, ""},
    {"--prec-div", "-prec-div", kBool, ""},
    {"--fmad", "-fmad", kBool, ""},
    {"--use_fast_math", "-use_fast_math", kFlag, ""},
    {"--extra-device-vectorization", "-extra-device-vectorization", kFlag, ""},
    {"--modify-stack-limit", "-modify-stack-limit", kBool, ""},
    {"--dlink-time-opt", "-dlto", kFlag, ""},
    {"--gen-opt-lto", "-gen-opt-lto", kFlag, ""},
    {"--optix-ir", "-optix-ir", kFlag, ""},
    {"--define-macro", "-D", kValue, "-D"},
    {"--undefine-macro", "-U", kValue, "-U"},
    {"--include-path", "-I", kValue, "-I"},
    {"--pre-include", "-include", kValue, "-include"},
    {"--no-source-include", "-no-source-include", kFlag, ""},
    {"--std", "-std", kValue, ""},
    {"--builtin-move-forward", "-builtin-move-forward", kBool, ""},
    {"--builtin-initializer-list", "-builtin-initializer-list", kBool, ""},
    {"--disable-warnings", "-w", kFlag, ""},
    {"--restrict", "-restrict", kFlag, ""},
    {"--device-as-default-execution-space", "-default-device", kFlag, ""},
    {"--device-int128", "-device-int128", kFlag, ""},
    {"--optimization-info", "-opt-info", kValue, ""},
    {"--display-error-number", "-err-no", kFlag, ""},
    {"--no-display-error-number", "-no-err-no", kFlag, ""},
    {"--diag-error", "-diag-error", kValue, ""},
    {"--diag-suppress", "-diag-suppress", kValue, ""},
    {"--diag-warn", "-diag-warn", kValue, ""},
    {"--brief-diagnostics", "-brief-diag", kBool, ""},
    {"--time", "-time", kValue, ""},
    {"--split-compile", "-split-compile", kValue, ""},
    {"--fdevice-syntax-only", "-fdevice-syntax-only", kFlag, ""},
    {"--minimal", "-minimal", kFlag, ""},
    {"--pch", "-pch", kFlag, ""},
    {"--create-pch", "-create-pch", kValue, ""},
    {"--use-pch", "-use-pch", kValue, ""},
    {"--pch-dir", "-pch-dir", kValue, ""},
    {"--pch-verbose", "-pch-verbose", kBool, ""},
    {"--pch-messages", "-pch-messages", kBool, ""},
    {"--instantiate-templates-in-pch", "-instantiate-templates-in-pch", kBool, ""},
};

[[noreturn]] void bad_option(const std::string& label, const std::string& o, const std::string& why) {
  const std::string msg = "nvrtc: error: " + why;
  throw CompileError(label + " invalid compiler option '" + o + "' (" + msg +
                         "): the CPU kernel emulator accepts the options NVRTC accepts",
                     msg);
}

}  // namespace

std::string host_options(const std::vector<std::string>& options, const std::string& label) {
  std::string r;
  for (const std::string& o : options) {
    const size_t eq = o.find('=');
    const std::string name = o.substr(0, eq);
    const NvrtcOption* found = nullptr;
    std::string value;
    bool has_value = eq != std::string::npos;
    if (has_value) value = o.substr(eq + 1);
    for (const NvrtcOption& n : kNvrtcOptions) {
      if (name == n.name || name == n.short_name) {
        found = &n;
        break;
      }
      // -DNAME, -Ipath: the short form of -D, -U and -I takes its value attached.
      const std::string s = n.short_name;
      if (s.size() == 2 && n.kind == kValue && o.size() > 2 && o.compare(0, 2, s) == 0 && o != s) {
        found = &n;
        value = o.substr(2);
        has_value = true;
        break;
      }
    }
    if (!found) bad_option(label, o, "unrecognized option " + o + " found");
    if (found->kind == kFlag && has_value) bad_option(label, o, "option " + name + " takes no value");
    if (found->kind != kFlag && (!has_value || value.empty()))
      bad_option(label, o, "option " + std::string(found->name) + " needs a value (" + found->name + "=...)");
    if (found->kind == kBool && value != "true" && value != "false")
      bad_option(label, o, "option " + std::string(found->name) + " takes true or false, not '" + value + "'");
    if (*found->host) r += " " + shell_quote(std::string(found->host)) + " " + shell_quote(value);
  }
  return r;
}

[[noreturn]] void raise_compile_error(const std::string& label, const std::string& cxx, const std::string& code,
                                      const std::string& log, bool debug) {
  static const std::regex unsupported(R"(loom CPU emulator: (.+?) is not supported)");
  static const std::regex line_re(std::string(R"(loom_kernel\.cu:(\d+))"));
  std::smatch u, l;
  if (std::regex_search(log, u, unsupported)) {
    std::string where;
    if (std::regex_search(log, l, line_re)) where = " (line " + l[1].str() + " of the kernel source)";
    throw UnsupportedError(label + " the CPU kernel emulator does not support " + u[1].str() + where +
                           "; run this kernel on a GPU");
  }
  // The compiler's own words: its first error lines, without the scratch folder's path
  // (every file of a compile lies in a fresh loom-cxx-XXXXXX folder).
  static const std::regex scratch(R"([^\s:'"]*/loom-cxx-[A-Za-z0-9]{6}/)");
  // Nor the fresh names of kernels named like C library functions (emu_source.cpp).
  static const std::regex renamed(R"(\bloom_kernel_(\w))");
  const std::string clean = std::regex_replace(std::regex_replace(log, scratch, ""), renamed, "$1");
  std::string errors;
  int shown = 0;
  size_t pos = 0;
  while (pos < clean.size() && shown < 8) {
    size_t end = clean.find('\n', pos);
    if (end == std::string::npos) end = clean.size();
    const std::string line = clean.substr(pos, end - pos);
    if (line.find("error") != std::string::npos) {
      errors += "  " + (line.size() > 400 ? line.substr(0, 400) + " ..." : line) + "\n";
      ++shown;
    }
    pos = end + 1;
  }
  if (errors.empty() && !clean.empty()) errors = "  " + clean.substr(0, std::min<size_t>(clean.size(), 2000)) + "\n";
  const std::string excerpt = source_excerpt(code, log, kProgramName);
  const std::string mode =
      debug ? " in debug mode (where each pointer parameter of a __global__ function is a "
              "loom_emu::Checked<T>, which converts to T* but is not deduced as one by a template: "
              "pass &p[0] or (T*)p to such a helper)"
            : "";
  throw CompileError(label + " the host C++ compiler (" + cxx + ") failed to compile the kernel source for the "
                             "CPU kernel emulator" + mode + ":\n" + errors +
                             (excerpt.empty() ? std::string() : "source:\n" + excerpt),
                     log);
}

}  // namespace loom::cpu_emulator
