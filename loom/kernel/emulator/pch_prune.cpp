#include "loom/kernel/emulator/pch_prune.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <utility>
#include <vector>

namespace loom::cpu_emulator {
namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// "<anything>.tmp<digits>": what precompiled_header writes before renaming.
bool is_temp(const std::string& n) {
  const size_t p = n.rfind(".tmp");
  if (p == std::string::npos || p + 4 == n.size()) return false;
  for (size_t i = p + 4; i < n.size(); ++i)
    if (!isdigit(static_cast<unsigned char>(n[i]))) return false;
  return true;
}

}  // namespace

void prune_precompiled_headers(const std::string& folder, const std::string& keep, time_t now) noexcept {
  try {
    DIR* d = opendir(folder.c_str());
    if (!d) return;
    std::vector<std::pair<time_t, std::string>> gch;  // (mtime, path) of the others
    size_t kept = 0;
    while (dirent* e = readdir(d)) {
      const std::string n = e->d_name, path = folder + "/" + n;
      struct stat st;
      if (lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
      if (is_temp(n)) {
        if (st.st_mtime < now - kPchTempMaxAgeSeconds) unlink(path.c_str());
      } else if (ends_with(n, ".gch")) {
        if (n == keep) {
          kept = 1;
        } else if (st.st_mtime < now - kPchMaxIdleSeconds) {
          unlink(path.c_str());
        } else {
          gch.emplace_back(st.st_mtime, path);
        }
      }
    }
    closedir(d);
    std::sort(gch.begin(), gch.end());  // oldest first
    const size_t allowed = kPchMaxFiles > kept ? kPchMaxFiles - kept : 0;
    for (size_t i = 0; i + allowed < gch.size(); ++i) unlink(gch[i].second.c_str());
  } catch (...) {
    // cleanup is best effort: a compile never fails because of it
  }
}

}  // namespace loom::cpu_emulator
