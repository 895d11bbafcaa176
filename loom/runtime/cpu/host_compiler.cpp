#include "loom/runtime/cpu/host_compiler.h"

#include <stdlib.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <stdexcept>

namespace loom::cpu_runtime {

std::string compiler() {
  const char* cxx = getenv("CXX");
  return cxx && *cxx ? cxx : "g++";
}

std::string shell_quote(const std::string& s) {
  std::string r = "'";
  for (char c : s) r += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return r + "'";
}

int run_command(const std::string& cmd, std::string* out) {
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return -1;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out->append(buf, n);
  const int st = pclose(p);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

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

const std::string& cpu_identity() {
  static const std::string id = [] {
    std::ifstream f("/proc/cpuinfo");
    std::string model, flags;
    for (std::string line; std::getline(f, line) && (model.empty() || flags.empty());) {
      if (model.empty() && line.rfind("model name", 0) == 0) model = line;
      if (flags.empty() && (line.rfind("flags", 0) == 0 || line.rfind("Features", 0) == 0)) flags = line;
    }
    return model + "\n" + flags;
  }();
  return id;
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  if (!f) throw std::runtime_error("[host compiler] cannot write " + path);
}

// mkdtemp's folder is 0700 and fresh, so nothing in it was planted (docs/ARCHITECTURE.md §14).
TempDir::TempDir() {
  const char* t = getenv("TMPDIR");
  std::string tmpl = std::string(t && *t ? t : "/tmp") + "/loom-cxx-XXXXXX";
  if (!mkdtemp(tmpl.data())) throw std::runtime_error("[host compiler] cannot make " + tmpl);
  path = tmpl;
}

TempDir::~TempDir() {
  std::string out;
  run_command("rm -rf " + shell_quote(path), &out);
}

}  // namespace loom::cpu_runtime
