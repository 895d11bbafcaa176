#include "loom/kernel/emulator/pch.h"

#include <dirent.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <map>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "loom/kernel/emulator/host_compiler.h"
#include "loom/kernel/emulator/pch_prune.h"
#include "loom/cache/compile_cache.h"
#include "loom/cache/private_fs.h"
#include "loom_emulator_header.h"

namespace loom::cpu_emulator {
namespace {

constexpr int kMaxDiscards = 2;  // g++ rejected this many checked PCHs: compile without one

// What this process checked: the file of each key, as it was when its checksum matched.
struct Checked {
  std::string path;
  struct stat st {};
  bool touched = false;
};
std::mutex mu;  // one check or build at a time in this process; other processes race harmlessly
std::map<std::string, Checked>& checked() {
  static auto* m = new std::map<std::string, Checked>;
  return *m;
}
int discards = 0;

bool same_file(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino && a.st_size == b.st_size &&
         a.st_mtim.tv_sec == b.st_mtim.tv_sec && a.st_mtim.tv_nsec == b.st_mtim.tv_nsec;
}

std::string checksum_hex(const std::string& bytes) { return murmur3_128(bytes).hex(); }

// A .gch of `prefix` in `folder` whose bytes match the checksum its name gives (its stat in
// *st), else ""; damaged ones of this user are removed on the way.
std::string find_intact(const std::string& folder, const std::string& prefix, struct stat* st) {
  DIR* d = opendir(folder.c_str());
  if (!d) return "";
  std::vector<std::string> names;
  while (dirent* e = readdir(d)) {
    const std::string n = e->d_name;
    // "<prefix>-<32 hex>.gch"
    if (n.size() == prefix.size() + 1 + 32 + 4 && n.compare(0, prefix.size() + 1, prefix + "-") == 0 &&
        n.compare(n.size() - 4, 4, ".gch") == 0)
      names.push_back(n);
  }
  closedir(d);
  for (const std::string& n : names) {
    const std::string path = folder + "/" + n;
    std::string bytes;
    const auto r = cache_fs::read_trusted_file(path, &bytes, st);
    if (r == cache_fs::ReadResult::kOk && checksum_hex(bytes) == n.substr(prefix.size() + 1, 32)) return path;
    if (r != cache_fs::ReadResult::kMissing && cache_fs::owned_by_me(*st)) unlink(path.c_str());
  }
  return "";
}

// Builds the PCH into `folder`; its path, "" when the build fails.
std::string build(const std::string& cxx, const std::string& flags, bool dumpdir, const std::string& folder,
                  const std::string& prefix, struct stat* st) {
  try {
    TempDir dir;
    write_file(dir.path + "/loom_cuda_emu.h", embedded::kEmulatorHeader);
    // "<prefix>.gch.tmp<pid>": what prune_precompiled_headers removes when a build was killed.
    const std::string tmp = folder + "/" + prefix + ".gch.tmp" + std::to_string(getpid());
    const std::string dump = dumpdir ? " -dumpdir " + shell_quote(dir.path + "/") : "";
    std::string out, bytes;
    bool ok = run_command(cxx + " " + flags + dump + " -x c++-header " + shell_quote(dir.path + "/loom_cuda_emu.h") +
                              " -o " + shell_quote(tmp),
                          &out) == 0 &&
              chmod(tmp.c_str(), 0600) == 0 &&
              cache_fs::read_trusted_file(tmp, &bytes, st) == cache_fs::ReadResult::kOk && !bytes.empty();
    const std::string path = folder + "/" + prefix + "-" + (ok ? checksum_hex(bytes) : "") + ".gch";
    ok = ok && rename(tmp.c_str(), path.c_str()) == 0;
    if (!ok) {
      unlink(tmp.c_str());
      return "";
    }
    return path;
  } catch (const std::exception&) {
    return "";
  }
}

}  // namespace

std::string precompiled_header(const std::string& cxx, const std::string& identity, const std::string& flags,
                               bool dumpdir) {
  const std::string cache = compile_cache_dir();
  if (cache.empty()) return "";
  const std::string prefix = KeyBuilder()
                                 .add(std::string_view("loom-emu-pch"))
                                 .add(std::string_view(identity))
                                 .add(std::string_view(flags))
                                 .add(std::string_view(embedded::kEmulatorHeader))
                                 .add(std::string_view(LOOM_VERSION))
                                 .finish()
                                 .hex();
  const std::string folder = cache + "/host-pch";
  std::lock_guard<std::mutex> lock(mu);
  if (discards >= kMaxDiscards) return "";
  // A folder someone else could write: its files are never used, nothing is built there
  // (docs/ARCHITECTURE.md §14).
  if (!cache_fs::make_private_dir(cache) || !cache_fs::make_private_dir(folder)) return "";
  Checked& c = checked()[folder + "/" + prefix];
  struct stat st;
  if (!c.path.empty() && lstat(c.path.c_str(), &st) == 0 && same_file(st, c.st)) return c.path;
  c.path = find_intact(folder, prefix, &c.st);
  if (c.path.empty()) {
    c.path = build(cxx, flags, dumpdir, folder, prefix, &c.st);
    if (c.path.empty()) return "";
    // A new header: older ones (another loom version or compiler) may now be unused.
    prune_precompiled_headers(folder, c.path.substr(folder.size() + 1), time(nullptr));
  } else if (!c.touched) {
    // Its mtime is its last use, for prune_precompiled_headers: touched once per process.
    utimes(c.path.c_str(), nullptr);  // best effort (a read-only cache folder)
    c.touched = true;
    lstat(c.path.c_str(), &c.st);
  }
  return c.path;
}

void discard_precompiled_header(const std::string& path) {
  std::lock_guard<std::mutex> lock(mu);
  ++discards;
  for (auto& [key, c] : checked())
    if (c.path == path) c.path.clear();
  struct stat st;
  if (lstat(path.c_str(), &st) == 0 && cache_fs::owned_by_me(st)) unlink(path.c_str());
}

bool log_blames_pch(const std::string& log) {
  return log.find("PCH") != std::string::npos || log.find(".gch") != std::string::npos;
}

}  // namespace loom::cpu_emulator
